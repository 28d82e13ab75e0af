"""The hand and settle documents (docs/api.md) of a hand in play, for `rulekit.score` and
`rulekit.settle`: the game scores and pays only through them."""
from __future__ import annotations

from typing import Any

from rulekit.game.rules import GameRules
from rulekit.game.state import PUNG, HandState
from rulekit.tiles import TILE_NAMES, format_tiles


def hand_doc(st: HandState, seat: int, win_tile: int, win_by: str, *, heavenly: bool = False,
             earthly: bool = False) -> dict[str, Any]:
    """The seat's hand as a hand document; its concealed counts include `win_tile`."""
    s = st.seats[seat]
    concealed = [k for k in range(len(s.counts)) for _ in range(s.counts[k])]
    concealed.remove(win_tile)
    melds: list[dict[str, Any]] = []
    for m in s.melds:
        name = TILE_NAMES[m.kind]
        if m.shape == PUNG:
            melds.append({"kind": "pung", "tiles": name[0] * 3 + name[1]})
        else:
            melds.append({"kind": "kong", "tiles": name[0] * 4 + name[1],
                          "concealed": m.shape != "exposed"})
    doc: dict[str, Any] = {"indicator": TILE_NAMES[st.wall.indicator],
                           "hand": format_tiles(concealed), "melds": melds,
                           "win_tile": TILE_NAMES[win_tile], "win_by": win_by}
    if heavenly:
        doc["heavenly"] = True
    if earthly:
        doc["earthly"] = True
    if s.discarded_hun:
        doc["discarded_hun"] = True
    if s.flowers:
        doc["flowers"] = format_tiles(s.flowers)
    return doc


def settle_doc(st: HandState, rules: GameRules, winner: int | None,
               hand: dict[str, Any] | None, chan: bool, discarder: int | None
               ) -> dict[str, Any]:
    """The settle document of a finished hand: dealer, 坐莊/拉莊, kongs, 鏟, the winner's hand."""
    pulls = [0 if s == st.dealer else rules.pulls for s in range(st.players)]
    doc: dict[str, Any] = {"dealer": st.dealer, "dealer_sits": rules.dealer_sits,
                           "pulls": pulls, "winner": winner,
                           "kongs": [s.kongs() for s in st.seats], "chan": chan}
    if hand is not None:
        doc["hand"] = hand
    if discarder is not None:
        doc["discarder"] = discarder
    return doc
