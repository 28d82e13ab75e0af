"""What one seat may know during a hand (docs/bots.md, "Observation"): its own concealed
tiles, everything face up, how many tiles each seat holds and how many are left to draw.
Never another seat's concealed tiles, never the wall's order.

An `Observation` is a frozen value of tuples built by `observe` when a player asks for one;
nothing in it refers to the table's state, so a player that keeps or changes it changes
nothing at the table.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulekit.game.state import CONCEALED, GOLDEN, PUNG, HandState
from rulekit.game.state import Seen as Seen     # defined there to be compiled with the procedure
from rulekit.tiles import NUM_KINDS, TILE_NAMES, format_tiles

HIDDEN = -1
"""The tile of another seat's concealed (or golden) kong: face down, so not shown."""

MeldView = tuple[int, str]      # kind (HIDDEN for another seat's concealed kong), shape


@dataclass(frozen=True, slots=True)
class WinOffer:
    """The win on offer to this seat, as the ruleset scores it: so a player can decide."""

    fan: int | float
    patterns: tuple[str, ...]


@dataclass(frozen=True)
class Observation:
    """One seat's view of the table (field by field in docs/bots.md). Frozen; `observe`
    fills its `__dict__` at once (a frozen dataclass's own constructor costs a call per
    field, which the play loop would pay at every decision)."""

    seat: int
    dealer: int
    hand: tuple[int, ...]                      # own concealed counts by kind (34)
    drawn: int | None                          # the tile just drawn (own turn), or None
    melds: tuple[tuple[MeldView, ...], ...]    # per seat, in the order declared
    discards: tuple[tuple[int, ...], ...]      # per seat, the river (claimed tiles leave it)
    flowers: tuple[tuple[int, ...], ...]       # per seat, shown
    indicator: int | None                      # None before the deal (開混 follows it)
    hun: tuple[int, ...]
    tiles_held: tuple[int, ...]                # per seat, concealed tiles
    wall_left: int                             # tiles the head may still draw before 荒莊
    scores: tuple[float, ...] | None           # session totals before this hand, if given
    turn: int                                  # the seat whose turn it is
    last_discard: tuple[int, int] | None       # (seat, tile) of the latest discard
    discarded_hun: tuple[bool, ...]            # per seat: 小相公 (a hun discarded, face up)
    ready: tuple[bool, ...]                    # per seat: declared 天聽
    sits: bool | None                          # the dealer's 坐莊 choice, once made
    pulls: tuple[int | None, ...]              # per seat: 拉莊 count, None while undecided
    win: WinOffer | None                       # the win on offer to this seat, if any

    def visible(self, k: int) -> int:
        """Copies of kind k this seat can see: its hand, the indicator, every river and
        every meld shown (another seat's concealed kong is face down)."""
        n = self.hand[k] + (1 if self.indicator == k else 0)
        for river in self.discards:
            n += river.count(k)
        for melds in self.melds:
            for kind, shape in melds:
                if kind == k:
                    n += 3 if shape == PUNG else 4
        return n

    def to_dict(self) -> dict[str, Any]:
        """The observation as JSON (docs/bots.md): tiles named as everywhere in rulekit."""
        return {
            "seat": self.seat, "dealer": self.dealer,
            "hand": format_tiles(k for k in range(NUM_KINDS) for _ in range(self.hand[k])),
            "drawn": None if self.drawn is None else TILE_NAMES[self.drawn],
            "melds": [[_meld_dict(m) for m in ms] for ms in self.melds],
            "discards": [format_tiles(r) if r else "" for r in self.discards],
            "flowers": [format_tiles(f) if f else "" for f in self.flowers],
            "indicator": None if self.indicator is None else TILE_NAMES[self.indicator],
            "hun": [TILE_NAMES[k] for k in self.hun],
            "tiles_held": list(self.tiles_held), "wall_left": self.wall_left,
            "scores": None if self.scores is None else list(self.scores),
            "turn": self.turn,
            "last_discard": None if self.last_discard is None else
            {"seat": self.last_discard[0], "tile": TILE_NAMES[self.last_discard[1]]},
            "discarded_hun": list(self.discarded_hun), "ready": list(self.ready),
            "sits": self.sits, "pulls": list(self.pulls),
            "win": None if self.win is None else
            {"fan": self.win.fan, "patterns": list(self.win.patterns)},
        }


def _meld_dict(m: MeldView) -> dict[str, Any]:
    kind, shape = m
    if shape == PUNG:
        return {"kind": "pung", "tile": TILE_NAMES[kind]}
    return {"kind": "kong", "type": shape, "tile": None if kind == HIDDEN else TILE_NAMES[kind]}


def observe(st: HandState, seat: int, wall_left: int, seen: Seen,
            scores: tuple[float, ...] | None, drawn: int | None,
            win: WinOffer | None) -> Observation:
    """The observation of `seat`, copied out of the state (the face-up parts are shared
    between seats and observations until they change: they are tuples)."""
    seats = st.seats
    views = seen.views
    public = views.get(-1)
    if public is None or public[0] != seen.version:
        public = (seen.version, tuple([tuple(x.flowers) for x in seats]),
                  tuple([x.discarded_hun for x in seats]), tuple([x.ready for x in seats]),
                  tuple(seen.pulls) if seen.pulls else (None,) * len(seats))
        views[-1] = public
    rivers = views.get(-2)
    if rivers is None or rivers[0] != seen.rivers:
        rivers = (seen.rivers, tuple([tuple(x.river) for x in seats]))
        views[-2] = rivers
    view = views.get(seat)
    if view is None or view[0] != seen.version:
        melds = tuple([tuple([(HIDDEN if s != seat and m.shape in _FACE_DOWN else m.kind,
                               m.shape) for m in x.melds]) for s, x in enumerate(seats)])
        held = tuple([13 - 3 * len(m) for m in melds]) if seen.dealt else (0,) * len(seats)
        view = (seen.version, melds, held, {})
        views[seat] = view
    held = view[2]
    h = seen.holding
    if h >= 0:                 # the seat whose turn runs holds one more (3k+2)
        got = view[3].get(h)
        if got is None:
            got = view[3][h] = held[:h] + (held[h] + 1,) + held[h + 1:]
        held = got
    obs: Observation = _new(Observation)
    _set(obs, "__dict__", {
        "seat": seat, "dealer": st.dealer, "hand": tuple(seats[seat].counts), "drawn": drawn,
        "melds": view[1], "discards": rivers[1], "flowers": public[1],
        "indicator": st.wall.indicator if seen.dealt else None,
        "hun": st.hun if seen.dealt else (), "tiles_held": held,
        "wall_left": wall_left, "scores": scores, "turn": seen.turn,
        "last_discard": seen.last_discard, "discarded_hun": public[2], "ready": public[3],
        "sits": seen.sits, "pulls": public[4], "win": win})
    return obs


_new = object.__new__
_set = object.__setattr__


_FACE_DOWN = (CONCEALED, GOLDEN)
