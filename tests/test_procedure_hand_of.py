"""The procedure reads a would-be win's `Hand` from a template after the first time a seat's
melds, flowers and flags were read from its document (`_Hand.hand_of`), and asks the scorer
yes or no before it scores a win in full (`_Hand.score`): every such `Hand` must be the one
`read_hand` makes of the seat's document, and every answer the document's score, or a game
would change."""
from __future__ import annotations

from typing import Iterator

import pytest

from rulekit import load_ruleset
from rulekit.errors import HandError
from rulekit.game import documents, templates
from rulekit.game.players import make_player
from rulekit.game.simulate import hand_seed
from rulekit.game.table import Table
from rulekit.hand import Hand
from rulekit.scoring import score_document
from rulekit.scoring.score import read_hand

FLAGS = [("self_draw", False, False), ("kong_draw", False, False), ("last_draw", False, False),
         ("discard", False, False), ("self_draw", True, False), ("self_draw", False, True)]


def own_turns(name: str, seed: int, hands: int) -> Iterator[tuple[Table, int]]:
    """(table, seat) at each turn a greedy seat is to discard (3k+2 tiles), in `hands` greedy
    hands of the ruleset `name`; the seat plays on once the caller is done with the turn."""
    rs = load_ruleset(name)
    for i in range(hands):
        players = [make_player("greedy", rs, 0) for _ in range(rs.players)]
        t = Table(rs, hand_seed(seed, i), i % rs.players)
        while not t.over:
            for seat in t.pending():
                legal = t.legal(seat)
                if legal[-1]["action"] == "discard":
                    yield t, seat
                t.act(seat, players[seat].act(t.observation(seat), legal))


def _read(t: Table, seat: int, w: int, win_by: str, heavenly: bool, earthly: bool
          ) -> Hand | str:
    h = t._hand
    try:
        return read_hand(documents.hand_doc(
            h.st, seat, w, win_by, heavenly=heavenly, earthly=earthly,
            earthly_as_heavenly=h.rules.earthly_as_heavenly), h.rs)
    except HandError as err:
        return f"HandError {err.field}"


def _templated(t: Table, seat: int, w: int, win_by: str, heavenly: bool, earthly: bool
               ) -> Hand | str:
    try:
        return t._hand.hand_of(seat, w, win_by, heavenly, earthly)
    except HandError as err:
        return f"HandError {err.field}"


@pytest.mark.parametrize("name", ["tianjin", "tianjin-flowers", "tianjin-dianpao",
                                  "tianjin-3p", "tianjin-gold8"])
def test_hand_of_is_read_hand_of_the_document(name: str) -> None:
    """Every `Hand` the procedure builds, from its templates (kept across hands: six hands
    here) or from the document, equals `read_hand` of the seat's document, a refusal
    included."""
    templates.forget()
    compared = reused = 0
    for t, seat in own_turns(name, 11, 6):
        counts = t.state.seats[seat].counts
        for w in [k for k in range(len(counts)) if counts[k]][:5]:
            for flags in FLAGS:
                before = templates.size()
                assert _templated(t, seat, w, *flags) == _read(t, seat, w, *flags)
                compared += 1
                reused += templates.size() == before
    assert compared > 1000 and reused > compared // 2       # the templates were used


@pytest.mark.parametrize("name", ["tianjin", "tianjin-dianpao", "tianjin-laizi",
                                  "tianjin-street"])
def test_the_procedure_offers_what_the_document_scores(name: str) -> None:
    """Every draw that makes a winning shape in 30 greedy hands: the procedure's score is
    None exactly where the document's does not win, and the same score where it does."""
    rs = load_ruleset(name)
    asked = wins = 0
    for t, seat in own_turns(name, 13, 30):
        st = t.state
        if not st.shape_wins(seat):
            continue
        counts = st.seats[seat].counts
        for w in [k for k in range(len(counts)) if counts[k]]:
            for win_by in ("self_draw", "last_draw"):
                got = t._hand.score(seat, w, win_by)
                try:
                    want = score_document(documents.hand_doc(st, seat, w, win_by), rs)
                except HandError:
                    assert got is None
                    continue
                asked += 1
                if want.win:
                    wins += 1
                    assert got is not None and got.total_fan == want.total_fan \
                        and got.patterns == want.patterns
                else:
                    assert got is None
    assert asked > 100 and 0 < wins < asked
