"""Greedy's play: its discard order (deficiency first, then how connected a tile is), its
claims and kongs, and the check that a ready hand's waits can win. Functions of a `View`
(the few values greedy reads of its seat), kept apart from the players so that they compile
with the hot path (setup.py HOT_PATH): greedy asks them at every decision."""
from __future__ import annotations

from typing import Any, Callable, Final

from rulekit import shape
from rulekit.codes import HONOR_START, SUIT_SIZE
from rulekit.errors import HandError
from rulekit.game import actions, templates
from rulekit.game.actions import DISCARDS, KIND
from rulekit.game.documents import doc_of
from rulekit.game.state import ADDED, CONCEALED, GOLDEN, PUNG, HandState
from rulekit.hand import Hand
from rulekit.ruleset.model import Ruleset
from rulekit.scoring import score_document
from rulekit.scoring.ready import Ready, wins_at
from rulekit.scoring.score import read_hand, scorer_for, wins_with
from rulekit.tiles import NUM_KINDS


def _keep_value(c: list[int], k: int) -> int:
    """How connected a tile is (neighbours within two in its suit; pairs for honours):
    among equally good discards the least connected goes first."""
    if k >= HONOR_START:
        return c[k] - 1
    r = k % SUIT_SIZE
    base = k - r
    lo = base + (r - 2 if r >= 2 else 0)
    hi = base + (r + 3 if r <= SUIT_SIZE - 3 else SUIT_SIZE)
    total = -c[k]
    for j in range(lo, hi):
        total += c[j]
    return total


def ranked_discards(c: list[int], h: int, m: int) -> list[tuple[int, int, int]]:
    """(deficiency after, connectedness, kind) for each non-hun kind held, best first."""
    return _ranked(shape.discards(c, h, m), c)          # checks the hand once


def _ranked(after: shape.Discards, c: list[int]) -> list[tuple[int, int, int]]:
    out = [(after.less(k), _keep_value(c, k), k) for k in range(NUM_KINDS) if c[k]]
    out.sort()
    return out


def greedy_discard(c: list[int], h: int, m: int) -> tuple[int, int] | None:
    """(kind, deficiency after) of `ranked_discards(...)[0]`, with fewer deficiency calls:
    a 14-tile hand that does not win has a tile its best reading leaves unused, so the best
    discard reaches max(deficiency of the 14, 1); the least connected tile that does wins."""
    first = _least_key(c)
    if first < 0:
        return None
    return _first_discard(shape.discards(c, h, m), c, first)    # checks the hand once


_KIND_SPAN: Final = 64
"""A discard key packs `_keep_value` above the kind: key = value * _KIND_SPAN + kind (every
kind is below it), so one sort of ints orders the kinds by value, then by kind."""

def _window(c: list[int], keys: list[int] | None) -> int:
    """The least discard key (`_KIND_SPAN`) of the kinds held in `c`, -1 if none; each key
    also appended to `keys` (in kind order) when a list is given. A suit's `_keep_value`s
    are read off a window of five ranks sliding along it, each count read once, not once
    per neighbour; the least key alone needs no list (its discard is the one chosen four
    times in five, and the others' keys, boxed and appended, cost more than the window)."""
    least = -1
    for base in range(0, HONOR_START, SUIT_SIZE):
        a0 = 0                       # the counts of ranks r - 2 .. r + 2
        a1 = 0
        a2 = c[base]
        a3 = c[base + 1]
        a4 = c[base + 2]
        for r in range(SUIT_SIZE):
            if a2:
                key = (a0 + a1 + a3 + a4) * _KIND_SPAN + base + r
                if least < 0 or key < least:
                    least = key
                if keys is not None:
                    keys.append(key)
            a0 = a1
            a1 = a2
            a2 = a3
            a3 = a4
            a4 = c[base + r + 3] if r + 3 < SUIT_SIZE else 0
    for k in range(HONOR_START, NUM_KINDS):
        if c[k]:
            key = (c[k] - 1) * _KIND_SPAN + k
            if least < 0 or key < least:
                least = key
            if keys is not None:
                keys.append(key)
    return least


def _discard_keys(c: list[int]) -> list[int]:
    """The kinds held, each as a discard key (`_KIND_SPAN`), in kind order, not sorted."""
    keys: list[int] = []
    _window(c, keys)
    return keys


def _least_key(c: list[int]) -> int:
    """The least of `_discard_keys(c)`, -1 if no kind is held (the same window, no list)."""
    return _window(c, None)


def _first_discard(after: shape.Discards, c: list[int], first: int) -> tuple[int, int]:
    """`greedy_discard` of the hand `after` weighs (`c`: its non-hun counts; `first`:
    `_least_key(c)`), its kinds ordered by `_discard_keys` (made and sorted here, and only
    if the least key's discard does not reach the target: the first does four times in
    five: 6,141 sorts in 28,948 calls over 600 greedy hands)."""
    target = max(after.whole(), 1)
    k = first % _KIND_SPAN
    d = after.less(k)
    if d == target:
        return k, d
    best = (k, d)
    keys = _discard_keys(c)
    keys.sort()
    for key in keys:
        if key == first:
            continue
        k = key % _KIND_SPAN
        d = after.less(k)
        if d == target:
            return k, d
        if d < best[1]:
            best = (k, d)
    return best


# -- greedy's decisions, on plain values ---------------------------------------------------
# `GreedyPlayer` (rulekit.game.players) asks these from its `Observation`; `play_hand`'s
# built-in path (`decide`) asks them from the table's state directly, skipping the
# observation and the copies a seat that is not ours must get. Both build a `View`: the
# same few values, so both play the same moves (tests/test_game_fast.py compares them).

ALTERNATIVES: Final = 3
"""How many other discards that keep the hand ready greedy scores, when its first choice's
waits cannot win (each costs a scoring of its waits)."""

Meld = tuple[int, str]           # kind, shape: a seat's own meld as it sees it


class View:
    """What greedy reads of its seat: own concealed counts (34, hun included), the hun
    kinds, own melds in the order declared, the tile just drawn (-1: none), the latest
    discard's tile (-1: none), and what a wait's score needs. `face_up()`: per kind, the
    copies the seat sees outside its hand (rivers, melds shown, the indicator), made when
    first asked (only a ready hand's wait check asks). `hand` is only read, never changed
    (greedy copies it where it changes counts): `state_view` passes the table's own."""

    def __init__(self, hand: list[int], hun: tuple[int, ...], melds: tuple[Meld, ...],
                 drawn: int, last_discard: int, indicator: int, discarded_hun: bool,
                 flowers: tuple[int, ...], ready: bool,
                 face_up: Callable[[], list[int]], held: shape.Held | None = None) -> None:
        self.hand = hand
        self.hun = hun
        self.melds = melds
        self.drawn = drawn
        self.last_discard = last_discard
        self.indicator = indicator
        self.discarded_hun = discarded_hun
        self.flowers = flowers
        self.ready = ready
        self._face_up = face_up
        self._seen: list[int] | None = None
        self.held = held            # `hand` as the procedure read it on this turn, or None

    def face_up(self) -> list[int]:
        got = self._seen
        if got is None:
            got = self._seen = self._face_up()
        return got

    def split(self) -> tuple[list[int], int, int]:
        """The concealed tiles as `rulekit.shape` takes them: non-hun counts, hun, melds."""
        c = list(self.hand)
        h = 0
        for k in self.hun:
            h += c[k]
            c[k] = 0
        return c, h, len(self.melds)


def state_view(st: HandState, seat: int, drawn: int, last_discard: int,
               held: shape.Held | None = None) -> View:
    """The `View` of `seat` read from the table's state (what its observation would say);
    `held`: the seat's tiles as the procedure read them on its turn (`Request.held`)."""
    s = st.seats[seat]
    return View(s.counts, st.hun, tuple([(m.kind, m.shape) for m in s.melds]), drawn,
                last_discard, st.wall.indicator, s.discarded_hun, tuple(s.flowers), s.ready,
                lambda: state_face_up(st, seat), held)


def state_face_up(st: HandState, seat: int) -> list[int]:
    """Per kind, the copies face up to `seat` outside its hand: everything `st.seen` counts
    (rivers, melds, the indicator) but another seat's concealed or golden kong."""
    out = list(st.seen)
    for other, s in enumerate(st.seats):
        if other != seat:
            for m in s.melds:
                if m.shape == CONCEALED or m.shape == GOLDEN:
                    out[m.kind] -= 4
    return out


WAIT_MEMO: Final = 1 << 12
"""Hand shapes a `WaitScorer` remembers in each of its two memos before emptying it: a bot
at a table that runs for days meets new shapes every hand (~600 bytes an entry, measured by
tests/test_memo_bounds.py)."""
WAIT_ENTRY_BYTES: Final = 700


class WaitScorer:
    """The fan a wait would win with, scored by the ruleset from a hand document built from
    the seat's own view (self-drawn), 0 where the ruleset would not let it win (below
    `win.minimum`, 小相公, ...); remembered per hand shape for one hand's play."""

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self.sc = scorer_for(rs)
        self.cache: dict[tuple[Any, ...], float] = {}
        self.winnable: dict[tuple[Any, ...], bool] = {}
        self.wins_of: dict[tuple[Any, ...], bool] = {}

    def waits(self, v: View, counts: list[int]) -> list[int]:
        """The kinds that complete the 13 tiles `counts` (hun kinds last: a hun drawn
        completes any ready hand), or [] if it is not ready."""
        c = list(counts)
        h = 0
        for k in v.hun:
            h += c[k]
            c[k] = 0
        got = [w for w in shape.waits(c, h, len(v.melds)) if w not in v.hun]
        return got + list(v.hun) if got else []

    def fan(self, v: View, counts: list[int], w: int) -> float:
        key = (tuple(counts), v.melds, w, v.indicator, v.discarded_hun)
        got = self.cache.get(key)
        if got is None:
            counts[w] += 1
            try:
                res = score_document(doc_of(counts, v.melds, v.indicator, w, "self_draw",
                                            flowers=v.flowers, discarded_hun=v.discarded_hun,
                                            ready=v.ready), self.rs)
                got = float(res.total_fan) if res.win else 0.0
            except HandError:          # a pung of hun (game.pung_hun): never a win
                got = 0.0
            finally:
                counts[w] -= 1
            if len(self.cache) >= WAIT_MEMO:
                self.cache.clear()
            self.cache[key] = got
        return got

    def wins(self, v: View, counts: list[int], w: int) -> bool:
        """`fan(v, counts, w) > 0`, asked of the scorer as a yes/no (`wins_with`: the search
        stops at the first reading that reaches the minimum)."""
        key = (tuple(counts), v.melds, w, v.indicator, v.discarded_hun)
        fan = self.cache.get(key)
        if fan is not None:
            return fan > 0
        got = self.wins_of.get(key)
        if got is None:
            got = self.asked(v, counts, w)
            if len(self.wins_of) >= WAIT_MEMO:
                self.wins_of.clear()
            self.wins_of[key] = got
        return got

    def asked(self, v: View, counts: list[int], w: int) -> bool:
        """`wins`, without its memos: asked of the scorer every time."""
        try:
            return wins_with(self.sc, self.hand_of(v, counts, w, True))
        except HandError:              # a pung of hun (game.pung_hun): never a win
            return False

    def hand_of(self, v: View, counts: list[int], w: int, lacks: bool = False) -> Hand:
        """The `Hand` `read_hand` makes of this wait's document (`counts` include `w`, or
        lack it if `lacks`), built without the document where a hand of the same melds,
        indicator, flowers and flags was read before, in this hand or an earlier one
        (`templates`: its hun and melds are reused) and every kind has at most four copies
        (the indicator three), the checks a document of a table's tiles could otherwise
        fail. `HandError` where the document is not a legal hand."""
        tkey = template_key(v)
        t = templates.lookup(self.rs, tkey)
        if t is not None:
            concealed = concealed_of(counts, w, lacks, t)
            if concealed is not None:
                return Hand(t.indicator, t.hun, concealed, t.melds, w, "self_draw",
                            False, t.discarded_hun, t.flowers, False, t.ready_declared)
        if lacks:
            counts[w] += 1
        try:
            hand = read_hand(doc_of(counts, v.melds, v.indicator, w, "self_draw",
                                    flowers=v.flowers, discarded_hun=v.discarded_hun,
                                    ready=v.ready), self.rs)
        finally:
            if lacks:
                counts[w] -= 1
        if t is None:
            templates.remember(self.rs, tkey, hand)
        return hand

    def can_win(self, v: View, counts: list[int]) -> bool:
        """Some real wait of the 13 tiles `counts` (not a hun drawn) with a copy not in
        sight wins under the ruleset."""
        key = (tuple(counts), v.melds, v.indicator, v.discarded_hun)
        got = self.winnable.get(key)
        if got is None:
            got = False
            # the waits' hands share their concealed tiles (the 13) and the template's
            # fields (`hand_of`'s): made once, each wait checking only what depends on it
            # (`wait_fits`); the others are asked as `asked` asks them
            # and their questions share the scorer's set-up of the 13 (`ready.Ready`)
            tkey = template_key(v)
            t = templates.lookup(self.rs, tkey)
            thirteen = tiles_of(counts, -1) if t is not None else None
            shared: Ready | None = None
            # each wait asked once: the memo above holds these 13 tiles' answer
            for w in self.waits(v, counts):
                if w in v.hun or v.face_up()[w] + counts[w] >= 4:
                    continue
                if t is not None and thirteen is not None and wait_fits(counts, w, True, t):
                    if shared is None:
                        shared = Ready(self.sc, Hand(t.indicator, t.hun, thirteen, t.melds, w,
                                                     "self_draw", False, t.discarded_hun,
                                                     t.flowers, False, t.ready_declared))
                    if wins_at(shared, w):
                        got = True
                        break
                    continue
                if self.asked(v, counts, w):
                    got = True
                    break
                if t is None:           # the first wait read its document: the template
                    t = templates.lookup(self.rs, tkey)
                    thirteen = tiles_of(counts, -1) if t is not None else None
            if len(self.winnable) >= WAIT_MEMO:
                self.winnable.clear()
            self.winnable[key] = got
        return got


def template_key(v: View) -> templates.Key:
    """The `templates` key of a wait's document (self-drawn, as `hand_of` writes it)."""
    return templates.key_of(v.indicator, v.melds, v.flowers, v.discarded_hun, v.ready,
                            "self_draw", False, False)


def concealed_of(counts: list[int], w: int, lacks: bool, t: Hand) -> tuple[int, ...] | None:
    """The concealed tiles (all but one `w`) of `counts` (which lack `w` if `lacks`), sorted,
    or None where a kind would have more than four copies with `t`'s melds (the indicator
    more than three): the checks `read_hand` makes of a table's tiles."""
    out = tiles_of(counts, -1 if lacks else w)
    if out is None or not wait_fits(counts, w, lacks, t):
        return None
    return out


def tiles_of(counts: list[int], less: int) -> tuple[int, ...] | None:
    """The tiles of `counts`, sorted, one `less` fewer (-1: none), or None where a kind has
    more than four."""
    out: list[int] = []
    for k in range(NUM_KINDS):
        n = counts[k]
        if n > 4:
            return None
        if k == less:
            n -= 1
        for _ in range(n):
            out.append(k)
    return tuple(out)


def wait_fits(counts: list[int], w: int, lacks: bool, t: Hand) -> bool:
    """`concealed_of`'s checks beyond four copies a kind in `counts`: the wait's own kind
    (a fifth copy if `counts` lack it), `t`'s melds' kinds (four copies at most with the
    concealed ones) and the indicator's (three at most in sight)."""
    if lacks and counts[w] >= 4:
        return False
    ind = t.indicator
    shown = counts[ind] + (1 if lacks and w == ind else 0)
    for m in t.melds:
        total = counts[m.tile] + (1 if lacks and w == m.tile else 0)
        for o in t.melds:
            if o.tile == m.tile:
                total += o.size
        if total > 4:
            return False
        if m.tile == ind:
            shown += m.size
    return shown <= 3


def choose_discard(scorer: WaitScorer | None, v: View, legal: list[dict[str, Any]]) -> int:
    """Toward the lowest deficiency; a discard that makes the hand ready keeps a wait that
    can win, if one of the first `ALTERNATIVES` others does (issue 21)."""
    c, h, m = v.split()
    first = _least_key(c)
    if first < 0:
        return KIND[next(a for a in legal if a["action"] == "discard")["tile"]]
    after = shape.Discards(c, h, 4 - m, v.held)   # a table's tiles: no checks (as choose_claim)
    got = _first_discard(after, c, first)
    if got[1] != 1 or scorer is None or _was_ready(v, after, c):
        return got[0]
    others = _ready_others(after, _discard_keys(c), got[0])
    if not others:                # nothing else keeps the hand ready: no choice
        return got[0]
    counts = list(v.hand)
    counts[got[0]] -= 1
    if scorer.can_win(v, counts):
        return got[0]
    for k in others[:ALTERNATIVES]:
        counts = list(v.hand)
        counts[k] -= 1
        if scorer.can_win(v, counts):
            return k
    return got[0]


def _ready_others(after: shape.Discards, keys: list[int], chosen: int) -> list[int]:
    """The kinds but `chosen` whose discard leaves the hand ready (deficiency 1), in
    `ranked_discards`' order (by the keys: connectedness, then kind), from the hand's
    discard keys (in any order): no tuples made or sorted."""
    ready = [key for key in keys if key % _KIND_SPAN != chosen
             and after.less(key % _KIND_SPAN) == 1]
    ready.sort()
    return [key % _KIND_SPAN for key in ready]


def _was_ready(v: View, after: shape.Discards, c: list[int]) -> bool:
    """`was_ready(v)`, from the `Discards` of its hand (`c`: its non-hun counts)."""
    d = v.drawn
    if d < 0:
        return False
    if d in v.hun:
        return after.less_hun() == 1 if after.hun > 0 else was_ready(v)
    if not c[d]:
        return was_ready(v)                         # not held: the checked reading
    return after.less(d) == 1


def was_ready(v: View) -> bool:
    """The hand was ready before this draw (greedy chose its wait then)."""
    if v.drawn < 0:
        return False
    c, h, m = v.split()
    if v.drawn in v.hun:
        h -= 1
    else:
        c[v.drawn] -= 1
    return shape.deficiency(c, h, m) == 1


def choose_claim(v: View, kong: bool) -> str:
    """Pung (or kong, if offered) the last discard when it lowers the deficiency (a kong:
    when it does not raise it); never a hun."""
    tile = v.last_discard
    if tile in v.hun:             # game.pung_hun: hun are worth more as wildcards
        return "pass"
    c, h, m = v.split()           # a table's tiles: deficiency_of, no checks
    now = shape.deficiency_of(c, h, 4 - m)
    if kong:
        c[tile] -= 3
        after = shape.deficiency_of(c, h, 3 - m)
        c[tile] += 3
        if after <= now:
            return "kong"
    c[tile] -= 2
    pung = shape.Discards(c, h, 3 - m)      # the pung laid down; a tile fewer each
    for k in range(NUM_KINDS):
        if c[k] and pung.less(k) < now:     # the best discard after it is lower
            return PUNG
    return "pass"


def choose_kong(v: View, options: list[Meld]) -> Meld | None:
    """The first kong that does not set the hand back."""
    c, h, m = v.split()
    got = greedy_discard(c, h, m)
    now = got[1] if got else 99
    for k, kind in options:
        if kind == ADDED:
            c[k] -= 1
            after = shape.deficiency(c, h, m)
            c[k] += 1
        elif kind == GOLDEN:
            after = shape.deficiency(c, h - 4, m + 1)
        else:
            c[k] -= 4
            after = shape.deficiency(c, h, m + 1)
            c[k] += 4
        if after <= now:
            return (k, kind)
    return None


def decide(scorer: WaitScorer | None, v: View, legal: list[dict[str, Any]]
           ) -> dict[str, Any] | None:
    """`GreedyPlayer.act`'s answer to a win, its own turn or a claim; None for the other
    questions (坐莊, 拉莊, 天聽), which the player answers from its settings. The answer is
    one of `legal` itself where it can be (a discard: the shared `DISCARDS` action the
    procedure offers), so that `builtin.legal_one` finds it by identity; never hand it to
    a player (the built-in path only)."""
    # typed: compiled, a str compares with a literal directly, an Any through the generic
    # protocol (~3 comparisons a decision)
    first: str = legal[0]["action"]
    if first == "win":
        return legal[0]
    last: str = legal[-1]["action"]
    if last == "discard":                         # own turn: kongs, then discards
        if first == "kong":
            got = choose_kong(v, [(KIND[a["tile"]], str(a["kind"])) for a in legal
                                  if a["action"] == "kong"])
            if got is not None:
                return actions.kong(got[0], got[1])
        return DISCARDS[choose_discard(scorer, v, legal)]
    if len(legal) > 1 and legal[1]["action"] == "pung":
        want = choose_claim(v, len(legal) > 2)
        for a in legal:
            if a["action"] == want:
                return a
        return {"action": want}
    return None
