"""`wins_with`, greedy's yes/no question (does the hand win with a positive fan?), gives
`score_with`'s answer on every hand: random winning shapes under every built-in ruleset
(every hun count), and the hands a greedy table asks about."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import rulekit
from rulekit.corpus import random_hand
from rulekit.game import greedy, templates
from rulekit.hand import parse_hand
from rulekit.ruleset.resolve import builtin_names
from rulekit.scoring.score import forget, score_fresh, scorer_for, wins_with

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from greedy_waits import table_waits  # noqa: E402  (the bench gathers the same questions)


@pytest.mark.parametrize("name", builtin_names())
def test_wins_with_answers_as_the_full_score(name: str) -> None:
    rs = rulekit.load_ruleset(name)
    rng = random.Random(f"wins {name}")
    yes = no = 0
    for i in range(160):
        doc = random_hand(rng, hun_kinds_count=rs.hun_kinds, hun_target=i % 8)
        try:
            hand = parse_hand(doc, hun_kind_count=rs.hun_kinds, win_by_allowed=rs.win_by,
                              hun_successor=rs.hun_successor)
        except rulekit.HandError:
            continue
        forget()                                    # no result memo: the goal search runs
        got = wins_with(scorer_for(rs), hand)
        full = score_fresh(scorer_for(rs), hand)
        assert got == (full.win and full.total_fan > 0), doc
        yes, no = yes + got, no + (not got)
    assert yes > 0 and no > 0                       # both answers were tested


def test_greedy_wins_agrees_with_its_fan() -> None:
    """Every wait greedy checks at a table, asked both ways on fresh scorers."""
    rs = rulekit.load_ruleset("tianjin")
    asked = table_waits(rs, 12, 7)
    assert len(asked) > 20
    both = set()
    for v, counts, w in asked:
        a, b = greedy.WaitScorer(rs), greedy.WaitScorer(rs)
        forget()
        fast = a.wins(v, counts, w)
        forget()
        both.add(fast)
        assert fast == (b.fan(v, counts, w) > 0)
    assert both == {True, False}


def test_greedy_builds_the_hand_its_document_reads_as() -> None:
    """`WaitScorer.hand_of` without a document (a hand of the same melds and flags read
    before) equals `read_hand` of the document, on every wait a greedy table checks."""
    from rulekit.game.documents import doc_of
    from rulekit.scoring.score import read_hand
    templates.forget()
    for name in ("tianjin", *[n for n in builtin_names() if n != "tianjin"][:2]):
        rs = rulekit.load_ruleset(name)
        asked = table_waits(rs, 10, 11)
        assert len(asked) > 20
        ws = greedy.WaitScorer(rs)
        fast = 0
        for v, thirteen, w in asked:
            counts = list(thirteen)
            counts[w] += 1                         # hand_of takes the 14 tiles
            doc = doc_of(counts, v.melds, v.indicator, w, "self_draw", flowers=v.flowers,
                         discarded_hun=v.discarded_hun, ready=v.ready)
            try:
                want = read_hand(doc, rs)
            except rulekit.HandError:
                with pytest.raises(rulekit.HandError):
                    ws.hand_of(v, counts, w)
                with pytest.raises(rulekit.HandError):
                    ws.hand_of(v, list(thirteen), w, True)
                continue
            fast += templates.lookup(rs, greedy.template_key(v)) is not None
            got = ws.hand_of(v, counts, w)
            assert got == want and got.concealed == want.concealed, doc
            lacking = list(thirteen)                # or the 13 tiles and the wait
            got = ws.hand_of(v, lacking, w, True)
            assert got == want and got.concealed == want.concealed and lacking == thirteen
        assert fast > len(asked) // 2                # most were built without a document


def test_can_win_is_any_wait_asked_alone() -> None:
    """`can_win` (the waits' hands made from the 13 tiles once: `tiles_of`, `wait_fits`)
    answers as asking each real wait with a copy not in sight alone (`asked`), on the ready
    hands a greedy table checks, under three rulesets; both answers occur."""
    for name in ("tianjin", "tianjin-laizi", "tianjin-flowers"):
        rs = rulekit.load_ruleset(name)
        seen: dict[tuple[int, ...], tuple[greedy.View, list[int]]] = {}
        for v, thirteen, _ in table_waits(rs, 10, 3):
            seen.setdefault(tuple(thirteen) + tuple(v.hun), (v, thirteen))
        answers = set()
        for v, thirteen in seen.values():
            alone = greedy.WaitScorer(rs)
            want = any(alone.asked(v, list(thirteen), w) for w in alone.waits(v, thirteen)
                       if w not in v.hun and v.face_up()[w] + thirteen[w] < 4)
            fast = greedy.WaitScorer(rs)                 # with a template from the start
            for w in alone.waits(v, thirteen):
                try:
                    fast.hand_of(v, list(thirteen), w, True)
                    break
                except rulekit.HandError:
                    continue
            got = fast.can_win(v, list(thirteen))
            assert got == want == greedy.WaitScorer(rs).can_win(v, list(thirteen)), thirteen
            answers.add(got)
        assert answers == {True, False}, name
