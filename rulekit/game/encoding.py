"""A fixed numeric encoding of an observation and a fixed action space, for learning agents
(rulekit.game.rl; docs/bots.md, "For RL"). Plain Python lists of small whole numbers: no
numpy here, so the core never needs it.

Seats are relative to the observer: 0 is itself, 1 the next seat (its right, who plays
after it), 2 the one after, 3 the last. Four seat blocks always (a three-player ruleset
leaves the last one zero). The layout is `LAYOUT`, in order; its sizes add up to OBS_SIZE.
"""
from __future__ import annotations

from typing import Any, Sequence

from rulekit.game.actions import KIND
from rulekit.game.observation import HIDDEN, Observation
from rulekit.game.state import CONCEALED, GOLDEN, PUNG as PUNG_SHAPE
from rulekit.tiles import NUM_KINDS

K = NUM_KINDS                      # 34 kinds: 1m..9m, 1p..9p, 1s..9s, 1z..7z
SEATS = 4
MAX_PULLS = 4

LAYOUT: tuple[tuple[str, int, str], ...] = (
    ("hand", K, "own concealed tiles: copies of each kind (0-4)"),
    ("drawn", K, "the tile just drawn, one-hot (all 0 if none)"),
    ("hun", K, "1 for each hun kind"),
    ("indicator", K, "the indicator, one-hot"),
    ("last_discard", K, "the latest discard's tile, one-hot"),
    ("last_discarder", SEATS, "who discarded it, relative seat, one-hot"),
    ("turn", SEATS, "whose turn it is, relative seat, one-hot"),
    ("dealer", SEATS, "the dealer, relative seat, one-hot"),
    ("wall_left", 1, "tiles the head may still draw (0-144)"),
) + tuple(item for r in range(SEATS) for item in (
    (f"seat{r}.discards", K, f"relative seat {r}: its river, copies of each kind"),
    (f"seat{r}.pungs", K, f"relative seat {r}: 1 for each kind it has punged"),
    (f"seat{r}.exposed_kongs", K, f"relative seat {r}: 1 for each exposed or added kong"),
    (f"seat{r}.concealed_kongs", K, f"relative seat {r}: 1 for each concealed or golden "
                                    "kong whose tile is shown (own seat only)"),
    (f"seat{r}.hidden_kongs", 1, f"relative seat {r}: face-down kongs (tile not shown)"),
    (f"seat{r}.flowers", 1, f"relative seat {r}: flowers shown"),
    (f"seat{r}.tiles_held", 1, f"relative seat {r}: concealed tiles held"),
    (f"seat{r}.discarded_hun", 1, f"relative seat {r}: 1 after it discarded a hun (小相公)"),
    (f"seat{r}.ready", 1, f"relative seat {r}: 1 if it declared 天聽"),
))
OBS_SIZE = sum(n for _, n, _ in LAYOUT)
OFFSET: dict[str, int] = {}
_at = 0
for _name, _n, _ in LAYOUT:
    OFFSET[_name] = _at
    _at += _n

# the action space: index -> action
DISCARD0 = 0                       # 0..33: discard kind k
KONG0 = K                          # 34..67: a kong of kind k on one's own turn
WIN, PASS, PUNG, CLAIM_KONG, SIT = 2 * K, 2 * K + 1, 2 * K + 2, 2 * K + 3, 2 * K + 4
PULL0 = 2 * K + 5                  # pull 0..MAX_PULLS
READY = PULL0 + MAX_PULLS + 1
N_ACTIONS = READY + 1
_SIMPLE = {"win": WIN, "pass": PASS, "pung": PUNG, "kong": CLAIM_KONG, "sit": SIT,
           "ready": READY}


def action_index(a: dict[str, Any]) -> int:
    """The index of an action in the fixed space (one kong per kind: a kind's kong can
    only be one of concealed, golden, added at a time)."""
    kind = a.get("action")
    if kind == "discard":
        return DISCARD0 + KIND[a["tile"]]
    if kind == "kong" and "tile" in a:
        return KONG0 + KIND[a["tile"]]
    if kind == "pull":
        return PULL0 + int(a["count"])
    return _SIMPLE[str(kind)]


def mask(legal: Sequence[dict[str, Any]]) -> tuple[list[int], dict[int, dict[str, Any]]]:
    """The action mask (1 where legal) and each legal index's action."""
    m = [0] * N_ACTIONS
    by_index: dict[int, dict[str, Any]] = {}
    for a in legal:
        i = action_index(a)
        m[i] = 1
        by_index[i] = a
    return m, by_index


def encode(obs: Observation) -> list[int]:
    """`obs` as OBS_SIZE whole numbers, laid out as LAYOUT."""
    v = [0] * OBS_SIZE
    n = len(obs.tiles_held)

    def rel(s: int) -> int:
        return (s - obs.seat) % n

    v[OFFSET["hand"]:OFFSET["hand"] + K] = list(obs.hand[:K])
    if obs.drawn is not None and obs.drawn < K:
        v[OFFSET["drawn"] + obs.drawn] = 1
    for k in obs.hun:
        v[OFFSET["hun"] + k] = 1
    v[OFFSET["indicator"] + obs.indicator] = 1
    if obs.last_discard is not None:
        who, tile = obs.last_discard
        v[OFFSET["last_discard"] + tile] = 1
        v[OFFSET["last_discarder"] + rel(who)] = 1
    v[OFFSET["turn"] + rel(obs.turn)] = 1
    v[OFFSET["dealer"] + rel(obs.dealer)] = 1
    v[OFFSET["wall_left"]] = obs.wall_left
    for s in range(n):
        p = f"seat{rel(s)}."
        for t in obs.discards[s]:
            v[OFFSET[p + "discards"] + t] += 1
        for kind, shape in obs.melds[s]:
            if kind == HIDDEN:
                v[OFFSET[p + "hidden_kongs"]] += 1
            elif shape == PUNG_SHAPE:
                v[OFFSET[p + "pungs"] + kind] = 1
            elif shape in (CONCEALED, GOLDEN):
                v[OFFSET[p + "concealed_kongs"] + kind] = 1
            else:
                v[OFFSET[p + "exposed_kongs"] + kind] = 1
        v[OFFSET[p + "flowers"]] = len(obs.flowers[s])
        v[OFFSET[p + "tiles_held"]] = obs.tiles_held[s]
        v[OFFSET[p + "discarded_hun"]] = int(obs.discarded_hun[s])
        v[OFFSET[p + "ready"]] = int(obs.ready[s])
    return v
