"""Which tiles complete a waiting hand: the shape question only, no scoring."""
from __future__ import annotations

from typing import Any, Mapping

from rulekit.arrange import NUM_KINDS, is_winning_shape
from rulekit.errors import HandError
from rulekit.hand import parse_hand
from rulekit.ruleset.model import Ruleset
from rulekit.tiles import parse_tiles, tile_name


def waits(doc: Mapping[str, Any], rs: Ruleset) -> tuple[str, ...]:
    """Every tile kind that makes the 13 tiles a winning shape (a hun completes any wait)."""
    if not isinstance(doc, Mapping):
        raise HandError("document", "must be a JSON object")
    hand_text = doc.get("hand")
    if not isinstance(hand_text, str):
        raise HandError("hand", "must be a tile string")
    probe: int | None = None
    for cand in range(NUM_KINDS):
        # validate with a harmless probe tile: the first kind that keeps counts legal
        try:
            hand = parse_hand({**doc, "win_tile": tile_name(cand), "win_by": "self_draw"},
                              hun_kind_count=rs.hun_kinds)
            probe = cand
            break
        except HandError as err:
            if err.field != "win_tile":
                raise
    if probe is None:
        raise HandError("hand", "no tile can be added to this hand")
    hun = set(hand.hun)
    counts = [0] * NUM_KINDS
    n_hun = 0
    for t in parse_tiles(hand_text):
        if t in hun:
            n_hun += 1
        else:
            counts[t] += 1
    need = 4 - len(hand.melds)
    out = []
    for k in range(NUM_KINDS):
        if k in hun:
            ok = is_winning_shape(tuple(counts), n_hun + 1, need)
        else:
            counts[k] += 1
            ok = is_winning_shape(tuple(counts), n_hun, need)
            counts[k] -= 1
        if ok:
            out.append(tile_name(k))
    return tuple(out)
