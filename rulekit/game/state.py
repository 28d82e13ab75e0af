"""What the table holds during a hand: each seat's concealed tiles, melds and discards, and
what every player can see. Players read it; only the procedure changes it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from rulekit import shape
from rulekit.game.wall import Wall
from rulekit.tiles import NUM_KINDS

PUNG: Final = "pung"
EXPOSED: Final = "exposed"          # a kong claimed from a discard, or added to a pung
CONCEALED: Final = "concealed"
GOLDEN: Final = "golden"            # four hun konged concealed (金杠)
ADDED: Final = "added"              # the option of adding a drawn tile to a pung (counts as exposed)


# The dataclasses below write their own `__init__` (the decorator keeps it): compiled, the
# one `dataclasses` writes stays interpreted (~4,500 instructions for a SeatState, four a
# hand; the fields, defaults, equality and repr are the dataclass's as before).

@dataclass(slots=True)
class Meld:
    kind: int
    shape: str               # PUNG, or the kong's type: EXPOSED, CONCEALED, GOLDEN

    def __init__(self, kind: int, shape: str) -> None:
        self.kind = kind
        self.shape = shape


@dataclass(slots=True)
class SeatState:
    counts: list[int] = field(default_factory=lambda: [0] * NUM_KINDS)
    melds: list[Meld] = field(default_factory=list)
    river: list[int] = field(default_factory=list)     # own discards not claimed
    flowers: list[int] = field(default_factory=list)   # flowers shown (補花)
    discarded_hun: bool = False                        # 小相公
    drawn: int = 0                                     # draws from the wall so far
    ready: bool = False                                # declared 天聽: no change of tiles

    def __init__(self, counts: list[int] | None = None, melds: list[Meld] | None = None,
                 river: list[int] | None = None, flowers: list[int] | None = None,
                 discarded_hun: bool = False, drawn: int = 0, ready: bool = False) -> None:
        self.counts = [0] * NUM_KINDS if counts is None else counts
        self.melds = [] if melds is None else melds
        self.river = [] if river is None else river
        self.flowers = [] if flowers is None else flowers
        self.discarded_hun = discarded_hun
        self.drawn = drawn
        self.ready = ready

    def size(self) -> int:
        return sum(self.counts)

    def kongs(self) -> list[str]:
        return [m.shape for m in self.melds if m.shape != PUNG]


@dataclass(slots=True)
class HandState:
    """The table during one hand. `seen[k]`: copies of kind k face up to everyone (discards,
    melds, the indicator), for players that count what is left."""

    wall: Wall
    dealer: int
    hun: tuple[int, ...]
    seats: list[SeatState]
    seen: list[int]
    claims: int = 0            # pungs and kongs claimed so far (the first go-round is broken)
    discards: int = 0          # discards so far

    @property
    def players(self) -> int:
        return len(self.seats)

    def is_hun(self, k: int) -> bool:
        for h in self.hun:           # compiled, `k in self.hun` is the generic containment
            if h == k:
                return True
        return False

    def shape_counts(self, seat: int) -> tuple[list[int], int]:
        """A seat's concealed tiles as `rulekit.shape` takes them: non-hun counts, hun."""
        c = list(self.seats[seat].counts)
        h = 0
        for k in self.hun:
            h += c[k]
            c[k] = 0
        return c, h

    def shape_wins(self, seat: int) -> bool:
        """`shape.is_win` of the seat's concealed tiles and melds, asked of the table's
        counts directly (`shape.wins_holding`): they are 34 ints from 0 to 4, at most 14
        tiles, so `is_win`'s checks and copy are skipped (asked at every draw and, on 點炮
        tables, of every seat at every discard)."""
        s = self.seats[seat]
        return shape.wins_holding(s.counts, self.hun, len(s.melds))

    def held(self, seat: int) -> shape.Held:
        """The seat's concealed tiles read once (`shape.Held`): for its shape test and its
        player's discard choice on its turn (`held.wins(len(melds))` is `shape_wins`)."""
        return shape.Held(self.seats[seat].counts, self.hun)

    def unseen(self, seat: int, k: int) -> int:
        """Copies of kind k that seat cannot see (in the wall or other hands)."""
        return max(0, 4 - self.seen[k] - self.seats[seat].counts[k])


@dataclass(slots=True)
class Seen:
    """What the procedure knows beyond the `HandState` that a seat may be told, and a cache
    of the face-up parts that change rarely (`version` counts their changes). Here, not in
    `observation`, so that it is compiled with the procedure that writes it at every turn
    (`rulekit.game.observation` reads it, and re-exports it)."""

    turn: int = 0
    last_discard: tuple[int, int] | None = None
    sits: bool | None = None
    pulls: list[int | None] | None = None
    dealt: bool = False
    holding: int = -1          # the seat holding 3k+2 tiles (between its draw and discard)
    version: int = 0           # bumped when a meld, a flower, 小相公 or 天聽 is shown
    rivers: int = 0            # bumped when a river changes (a discard, a claim)
    views: dict[int, tuple[Any, ...]] = field(default_factory=dict)
