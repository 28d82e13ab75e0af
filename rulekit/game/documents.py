"""The hand and settle documents (docs/api.md) of a hand in play, for `rulekit.score` and
`rulekit.settle`: the game scores and pays only through them. A player that scores a wait
builds the same document from what it sees (`doc_of`)."""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from rulekit.game.state import EXPOSED, PUNG, HandState
from rulekit.tiles import TILE_NAMES, format_tiles


def doc_of(counts: Sequence[int], melds: Iterable[tuple[int, str]], indicator: int,
           win_tile: int, win_by: str, *, flowers: Sequence[int] = (),
           discarded_hun: bool = False, ready: bool = False, heavenly: bool = False,
           earthly: bool = False) -> dict[str, Any]:
    """A hand document: `counts` (concealed, by kind) include `win_tile`; `melds` are
    (kind, shape) in the order declared."""
    concealed: list[int] = []
    for k in range(len(counts)):            # no range object per kind (compiled)
        n = counts[k]
        if n:
            concealed += [k] * n
    concealed.remove(win_tile)
    ms: list[dict[str, Any]] = []
    for kind, shape in melds:
        name = TILE_NAMES[kind]
        if shape == PUNG:
            ms.append({"kind": "pung", "tiles": name[0] * 3 + name[1]})
        else:
            ms.append({"kind": "kong", "tiles": name[0] * 4 + name[1],
                       "concealed": shape != EXPOSED})
    doc: dict[str, Any] = {"indicator": TILE_NAMES[indicator],
                           "hand": format_tiles(concealed), "melds": ms,
                           "win_tile": TILE_NAMES[win_tile], "win_by": win_by}
    if heavenly:
        doc["heavenly"] = True
    if earthly:
        doc["earthly"] = True
    if ready:
        doc["ready_declared"] = True
    if discarded_hun:
        doc["discarded_hun"] = True
    if flowers:
        doc["flowers"] = format_tiles(flowers)
    return doc


def hand_doc(st: HandState, seat: int, win_tile: int, win_by: str, *, heavenly: bool = False,
             earthly: bool = False, earthly_as_heavenly: bool = False) -> dict[str, Any]:
    """The seat's hand as a hand document; its concealed counts include `win_tile`. With
    `earthly_as_heavenly` (game.earthly_as_heavenly) a 地和 is marked 天和 as well."""
    s = st.seats[seat]
    return doc_of(s.counts, ((m.kind, m.shape) for m in s.melds), st.wall.indicator,
                  win_tile, win_by, flowers=s.flowers, discarded_hun=s.discarded_hun,
                  ready=s.ready, heavenly=heavenly or (earthly and earthly_as_heavenly),
                  earthly=earthly)


def settle_doc(st: HandState, sits: bool, pulls: Sequence[int], winner: int | None,
               hand: dict[str, Any] | None, chan: bool, discarder: int | None
               ) -> dict[str, Any]:
    """The settle document of a finished hand: dealer, 坐莊/拉莊 as chosen, kongs, 鏟, the
    winner's hand."""
    doc: dict[str, Any] = {"dealer": st.dealer, "dealer_sits": sits,
                           "pulls": list(pulls), "winner": winner,
                           "kongs": [s.kongs() for s in st.seats], "chan": chan}
    if hand is not None:
        doc["hand"] = hand
    if discarder is not None:
        doc["discarder"] = discarder
    return doc
