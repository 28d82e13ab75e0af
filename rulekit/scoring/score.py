"""A hand in, a `ScoreResult` out: hand-level patterns, instant wins, then the search."""
from __future__ import annotations

import gc
import math
import threading
import weakref
from typing import Any, Callable, Final, Mapping

from rulekit import arrange, facts
from rulekit.algebra import Breakdown, Term, num
from rulekit.arrange import SUIT_DIGIT, SUIT_OF, Layout
from rulekit.codes import HAND, NUM_KINDS, SUIT_BASES, group_key
from rulekit.facts import (ContextFact, Facts, GroupFact, HandFact, HunFact, WinFact,
                           declared_fact)
from rulekit.errors import HandError
from rulekit.hand import MELD_KINDS, WIN_BY, Hand, Meld, parse_hand
from rulekit.ruleset.model import Ruleset
from rulekit.scoring.result import NOT_A_WINNING_SHAPE, ScoreResult
from rulekit.scoring.result import clear_memos as clear_result_memos
from rulekit.scoring.places import by_place
from rulekit.scoring.reach import clear_reach
from rulekit.scoring.route import PLACE_HUN_PINNED, by_place_pays
from rulekit.scoring.scorer import HandKey, Scorer
from rulekit.scoring.scan import search
from rulekit.scoring.search import INF, NO_INDEX, State, WildDomain

# one Scorer per Ruleset, by identity, for the last SCORERS_KEPT rulesets scored. (A weak
# reference cannot free them: the Scorer holds its ruleset, so an entry kept every ruleset
# ever scored alive, 5,000 overlays took a server from 114 to 533 MB.) A ruleset scored
# again after it left makes a new Scorer (its plan, once) and nothing else changes.
SCORERS_KEPT: Final = 16
_SCORERS: dict[int, tuple[Any, Scorer]] = {}
_LOCK = threading.Lock()


def scorer_for(rs: Ruleset) -> Scorer:
    """The `Scorer` this process keeps for `rs` (made on first use)."""
    hit = _SCORERS.get(id(rs))
    if hit is not None and hit[0]() is rs:
        return hit[1]
    with _LOCK:
        key = id(rs)
        hit = _SCORERS.get(key)
        if hit is not None and hit[0]() is rs:
            return hit[1]
        sc = Scorer(rs)
        _SCORERS.pop(key, None)
        while len(_SCORERS) >= SCORERS_KEPT:
            del _SCORERS[next(iter(_SCORERS))]        # the oldest made
        _SCORERS[key] = (weakref.ref(rs), sc)
        return sc


def scorers_kept() -> int:
    """How many Scorers this process holds (at most `SCORERS_KEPT`)."""
    return len(_SCORERS)


def forget() -> None:
    """Forget every memo the scoring path keeps in this process: the Scorers (their plans,
    bounds, fans, results), per-suit decompositions and reach, group facts and result texts.
    The next score is then as cold as a fresh process's first (bench/worst.py)."""
    with _LOCK:
        _SCORERS.clear()
    arrange.clear_memos()
    clear_reach()
    facts.clear_memos()
    clear_result_memos()


def score_hand(hand: Hand, rs: Ruleset) -> ScoreResult:
    """Score a validated hand under a ruleset. Never raises for a legal `Hand`."""
    return score_with(scorer_for(rs), hand)


def score_with(sc: Scorer, hand: Hand) -> ScoreResult:
    """Score a validated hand with a ruleset's `Scorer`: the result it keeps for the same
    hand if there is one (the same object), else a fresh score, then kept."""
    key = hand_key(hand)
    hit = sc.result(key)
    if hit is not None:
        return hit
    sc.trim()
    result = score_fresh(sc, hand)
    sc.keep_result(key, result)
    return result


# `hand_key`'s codes: a win type by its place in `hand.WIN_BY`, a meld kind by `MELD_KINDS`
_WIN_BY_CODE: Final = {name: i for i, name in enumerate(WIN_BY)}
_MELD_CODE: Final = {name: i for i, name in enumerate(MELD_KINDS)}


def hand_key(hand: Hand) -> HandKey:
    """Everything the score of `hand` depends on, in one canonical form: the concealed tiles
    sorted (their order in a document does not matter), each field of the hand otherwise.

    One flat tuple of ints: the fixed fields with each variable part's length and the
    melds, then the hun, the flowers and the concealed tiles (`scorer.HandKey`). A hand
    whose win type or meld kinds no document names is keyed by a tuple holding them.
    """
    win_by = _WIN_BY_CODE.get(hand.win_by, -1)
    hun = hand.hun
    flowers = hand.flowers
    melds = hand.melds
    key = [hand.win_tile, win_by, int(hand.heavenly) | int(hand.discarded_hun) << 1
           | int(hand.earthly) << 2 | int(hand.ready_declared) << 3, hand.indicator,
           len(hun), len(flowers), len(melds)]
    fits = win_by >= 0
    for m in melds:
        kind = _MELD_CODE.get(m.kind, -1)
        fits = fits and kind >= 0
        key.append(m.tile)
        key.append(kind | int(m.concealed) << 1 | int(m.golden) << 2)
    key.extend(hun)
    key.extend(flowers)
    concealed = hand.concealed
    last = -1
    for t in concealed:             # a parsed hand's are sorted: then no sort is needed
        if t < last:
            concealed = tuple(sorted(concealed))
            break
        last = t
    key.extend(concealed)
    if fits:
        return tuple(key)
    return (tuple(key), hand.win_by, tuple([m.kind for m in melds]))


def wins_with(sc: Scorer, hand: Hand) -> bool:
    """`score_with(sc, hand)` wins with a positive hand fan (`win and total_fan > 0`): the
    same answer, found cheaper where the ruleset's minimum is on the hand fan alone and
    positive: the search prunes what cannot reach the minimum and stops at the first
    reading that does (greedy asks this of every wait it may keep; the fan is not needed).
    The result memo is not looked at then: the hands asked are new nearly always (greedy's
    5,981 questions of 400 hands: 5,981 different hands), and its key costs a sort."""
    goal = yes_no_goal(sc.rs)
    if goal > 0:
        hit = score_fresh(sc, hand, goal)       # not kept: not the best reading
    else:
        hit = score_with(sc, hand)
    return hit.win and hit.total_fan > 0


def yes_no_goal(rs: Ruleset) -> float:
    """The fan a yes/no question (`wins_with`) searches for: the ruleset's minimum where it
    is on the hand fan alone and positive, else 0 (the full score is asked)."""
    if not rs.minimum_counts_kong_points and rs.minimum > 0:
        return float(rs.minimum)
    return 0.0


def score_fresh(sc: Scorer, hand: Hand, goal: float = INF) -> ScoreResult:
    """Score a validated hand with a ruleset's `Scorer`, without its result memo. With a
    `goal`, only readings of at least that fan count and the first one found is the result
    (`wins_with`): a yes/no answer, not the hand's score."""
    concealed_all = hand.concealed + (hand.win_tile,)
    counts, suit_codes, held_hun = tiles_part(concealed_all, hand.hun)
    declared_all = declared_of(sc.rs, hand)
    return score_parts(sc, hand, hand.win_tile, concealed_all, counts, suit_codes, held_hun,
                       declared_all, context_of(hand, declared_all[3]), goal)


Declared = tuple[tuple[int, ...], tuple[GroupFact, ...], frozenset[int], tuple[str, ...],
                 int | float]
"""`declared_part`'s answer: the melds' tiles, facts, keys, kong types and kong points."""
NO_DECLARED: Final[Declared] = ((), (), NO_INDEX, (), 0)


def declared_of(rs: Ruleset, hand: Hand) -> Declared:
    """`declared_part` of the hand's melds (none: `NO_DECLARED`)."""
    return declared_part(rs, hand.melds) if hand.melds else NO_DECLARED


def context_of(hand: Hand, kong_kinds: tuple[str, ...]) -> ContextFact:
    """The hand's context fact (`kong_kinds`: its melds' kong types, `declared_of`'s): the
    same for any winning tile of its tiles."""
    return ContextFact(hand.win_by, hand.heavenly, hand.discarded_hun,
                       kong_kinds[-1] if kong_kinds else "none",
                       len(hand.flowers), hand.earthly, hand.ready_declared)


def score_parts(sc: Scorer, hand: Hand, win_tile: int, concealed_all: tuple[int, ...],
                counts: list[int], suit_codes: tuple[int, ...], held_hun: tuple[int, ...],
                declared_all: Declared, context: ContextFact, goal: float) -> ScoreResult:
    """`score_fresh` of `hand` won on `win_tile`, its parts given: `concealed_all` (the
    concealed tiles and the winning tile), `tiles_part` of them, `declared_of` and
    `context_of` the hand (`ready.Ready` makes them once for a ready hand's waits; every
    field of `hand` but its winning tile is read, that one being `win_tile`)."""
    rs = sc.rs
    hun = hand.hun
    melds = hand.melds
    meld_tiles, declared, declared_keys, kong_kinds, kong_fan = declared_all
    hand_fact = HandFact(len(held_hun), concealed_all, meld_tiles, declared, hand.flowers)

    # hand-level patterns, once; they may read the winning tile but not where it sits
    win_is_hun = win_tile in hun
    base = Facts((), WinFact(win_tile, win_is_hun, win_tile, None), hand_fact,
                 HunFact(hun, held_hun), context, NO_INDEX)
    for p in sc.plan.by_level[HAND]:
        if p.fn(base):
            base.held |= p.bit
    fixed = base.held                 # the mask of the hand-level patterns that hold
    forbidden: str | None = None
    for f in rs.forbids:
        if f.fn(base):
            forbidden = f.id
            break
    for cond, fan in rs.instant_wins:
        if cond.fn(base):
            term = Term(cond.id, cond.name, num(fan), "instant")
            return sc.finish(base, Breakdown(num(fan), (term,), f"{cond.name} {num(fan)}"),
                             (), win_tile, kong_fan, kong_kinds, forbidden, instant=True)

    layout = Layout(tuple(counts), len(held_hun), 4 - len(melds), 1, suit_codes)
    if hand.heavenly and rs.heavenly_free_winning_tile:
        candidates = tuple(sorted(set(concealed_all)))
    else:
        candidates = (win_tile,)
    state = State(sc, fixed, hand_fact, context, hun, held_hun, declared,
                  declared_keys, layout, WildDomain(rs, concealed_all, hun), base.hun)
    if goal < INF:                    # bounds below the goal prune; reaching it stops
        state.goal = goal
        state.best_fan = math.nextafter(goal, -INF)
    return searched(sc, state, base, candidates, win_is_hun, len(melds), kong_fan, kong_kinds,
                    forbidden)


def searched(sc: Scorer, state: State, base: Facts, candidates: tuple[int, ...],
             win_is_hun: bool, melds: int, kong_fan: int | float, kong_kinds: tuple[str, ...],
             forbidden: str | None) -> ScoreResult:
    """The search of a hand whose set-up `score_parts` made, and its result."""
    layout = state.layout
    suits = suit_classes(layout.counts) if layout.hun >= PLACE_HUN_PINNED else 0
    if by_place_pays(layout.hun, len(candidates), win_is_hun, suits, melds):
        paused(by_place, state, candidates)
    elif len(candidates) > 1:
        paused(search, state, candidates)       # a 天和 scanned: its candidates share lists
    else:
        search(state, candidates)
    best = state.best
    if best is None:
        return ScoreResult(False, 0, num(kong_fan), num(kong_fan), (), (),
                           ("not a winning shape: no four melds and a pair",),
                           forbidden or NOT_A_WINNING_SHAPE, kongs=kong_kinds)
    bd, groups, win_tile, held = best
    return sc.finish(base, bd, groups, win_tile, kong_fan, kong_kinds, forbidden, held=held)


# how many threads are in a paused search, and whether the first of them turned the
# cyclic garbage collector off (`paused`)
_PAUSE: Final[list[int]] = [0, 0]
_PAUSE_LOCK = threading.Lock()


def paused(run: Callable[[State, tuple[int, ...]], None], state: State,
           candidates: tuple[int, ...]) -> None:
    """`run(state, candidates)` (`places.by_place`, or the scan of a 天和's candidates), with
    the cyclic garbage collector paused meanwhile.

    A many-hun hand, or a 天和 whose candidates the scan reads over one listing, makes tens
    of thousands of short-lived containers, and the memo rows it keeps (suit parts,
    reaches, bounds) survive the young collections those trigger: collecting while the
    search runs cost ~10% of a cold 7-hun 天和 (bench/worst.py's hands), ~8% of a cold
    3-hun one scanned (callgrind), and frees nothing, since what the search drops is freed
    by reference counts. The pause is bounded by the search's work budget
    (`limits.RUN_STEPS`); whatever cyclic garbage it leaves is collected after. Threads
    count in and out under a lock, and the collector is turned back on only if it was on
    when the first came in."""
    with _PAUSE_LOCK:
        if _PAUSE[0] == 0:
            _PAUSE[1] = int(gc.isenabled())
            if _PAUSE[1]:
                gc.disable()
        _PAUSE[0] += 1
    try:
        run(state, candidates)
    finally:
        with _PAUSE_LOCK:
            _PAUSE[0] -= 1
            if _PAUSE[0] == 0 and _PAUSE[1]:
                _PAUSE[1] = 0
                gc.enable()


def tiles_part(tiles: tuple[int, ...], hun: tuple[int, ...]
               ) -> tuple[list[int], tuple[int, ...], tuple[int, ...]]:
    """The real tiles of `tiles` by kind, each suit's base-5 code and tile count as
    `Layout.suits` holds them (() if a kind passes 4 copies: `anchored` then works them out
    from the counts), and the hun held, sorted (`tiles`: kinds, the winning tile included).
    One pass over the tiles, the hun told apart by comparing ints."""
    if len(hun) > 2:
        return tiles_part_any(tiles, hun)
    h0 = hun[0] if hun else -1
    h1 = hun[1] if len(hun) > 1 else -1
    counts = [0] * NUM_KINDS
    digit, suit_of = SUIT_DIGIT, SUIT_OF
    c0 = c1 = c2 = c3 = n0 = n1 = n2 = n3 = held0 = held_sk = 0
    plain = True
    for t in tiles:
        if t == h0:
            held0 += 1
            continue
        if t == h1:
            held_sk += 1
            continue
        k = counts[t] + 1
        counts[t] = k
        plain = plain and k <= 4
        s = suit_of[t]
        if s == 0:
            c0 += digit[t]
            n0 += 1
        elif s == 1:
            c1 += digit[t]
            n1 += 1
        elif s == 2:
            c2 += digit[t]
            n2 += 1
        else:
            c3 += digit[t]
            n3 += 1
    if h1 >= 0 and h1 < h0:
        held = (h1,) * held_sk + (h0,) * held0
    else:
        held = (h0,) * held0 + (h1,) * held_sk
    return counts, (c0, n0, c1, n1, c2, n2, c3, n3) if plain else (), held


def tiles_part_any(tiles: tuple[int, ...], hun: tuple[int, ...]
                   ) -> tuple[list[int], tuple[int, ...], tuple[int, ...]]:
    """`tiles_part` for any number of hun kinds (a ruleset names one or two): the counts,
    no suit codes (`anchored` works them out), the hun held."""
    counts = [0] * NUM_KINDS
    held: list[int] = []
    for t in tiles:
        if t in hun:
            held.append(t)
        else:
            counts[t] = counts[t] + 1
    held.sort()
    return counts, (), tuple(held)


def declared_part(rs: Ruleset, melds: tuple[Meld, ...]
                  ) -> tuple[tuple[int, ...], tuple[GroupFact, ...], frozenset[int],
                             tuple[str, ...], int | float]:
    """What the declared melds add to a hand: their tiles, their groups' facts and keys,
    their kong types and the kong points these earn."""
    meld_tiles: tuple[int, ...] = ()
    for m in melds:
        meld_tiles += (m.tile,) * (4 if m.kind == "kong" else 3)
    found: list[GroupFact] = []
    keys: list[int] = []
    for m in melds:
        g, f = declared_fact(m.kind, m.tile, m.concealed, m.golden)
        found.append(f)
        keys.append(group_key(g.shape, g.first))
    declared = tuple(found)
    declared_keys = frozenset(keys)
    kong_kinds = tuple([k for k in [m.kong_type for m in melds] if k is not None])
    kong_fan: int | float = 0
    for k in kong_kinds:
        kong_fan += rs.kong_points[k]
    return meld_tiles, declared, declared_keys, kong_kinds, kong_fan


def suit_classes(counts: tuple[int, ...]) -> int:
    """How many suit classes (the three numbered suits, the honours) the real tiles span:
    what `route.by_place_pays` asks of a hand with many hun."""
    ends = SUIT_BASES + (NUM_KINDS,)
    return sum([1 for i in range(len(SUIT_BASES)) if any(counts[ends[i]:ends[i + 1]])])


def score_document(doc: Mapping[str, Any], rs: Ruleset) -> ScoreResult:
    """Validate a hand document under the ruleset's options, then score it."""
    return score_hand(read_hand(doc, rs), rs)


def read_hand(doc: Mapping[str, Any], rs: Ruleset) -> Hand:
    """A hand document validated under the ruleset's options (`HandError` if it is not
    legal there): what `score_document` scores, for a caller that looks at the hand first
    (the server picks where to score it by its hun)."""
    hand = parse_hand(doc, hun_kind_count=rs.hun_kinds, win_by_allowed=rs.win_by,
                      hun_successor=rs.hun_successor)
    if hand.melds and not rs.golden_kong_allowed and any([m.golden for m in hand.melds]):
        raise HandError("melds", "this ruleset does not allow 金杠 (a kong of four hun)")
    return hand
