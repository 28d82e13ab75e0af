"""Which tiles complete a waiting hand: the shape question only, no scoring."""
from __future__ import annotations

from typing import Any, Mapping

from rulekit.arrange import NUM_KINDS, is_winning_shape
from rulekit.errors import HandError
from rulekit.hand import Hand, parse_hand
from rulekit.ruleset.model import Ruleset
from rulekit.tiles import tile_name


def _drawable(doc: Mapping[str, Any], rs: Ruleset) -> list[Hand]:
    """The hand with each tile kind that can still be drawn as its winning tile.

    The hand parser counts copies (concealed, melds, the indicator face up on the wall), so a
    kind whose four copies are all in sight is refused with a `win_tile` error and left out:
    a wait is never a fifth copy. Any other error is the document's, and is raised.
    """
    hands = []
    for k in range(NUM_KINDS):
        try:
            hands.append(parse_hand({**doc, "win_tile": tile_name(k), "win_by": "self_draw"},
                                    hun_kind_count=rs.hun_kinds))
        except HandError as err:
            if err.field != "win_tile":
                raise
    return hands


def waits(doc: Mapping[str, Any], rs: Ruleset) -> tuple[str, ...]:
    """Every tile kind that makes the 13 tiles a winning shape (a hun completes any wait)."""
    if not isinstance(doc, Mapping):
        raise HandError("document", "must be a JSON object")
    if not isinstance(doc.get("hand"), str):
        raise HandError("hand", "must be a tile string")
    hands = _drawable(doc, rs)
    if not hands:
        raise HandError("hand", "no tile can be added to this hand")
    first = hands[0]
    hun = set(first.hun)
    counts = [0] * NUM_KINDS
    n_hun = 0
    for t in first.concealed:
        if t in hun:
            n_hun += 1
        else:
            counts[t] += 1
    need = 4 - len(first.melds)
    out = []
    for hand in hands:
        k = hand.win_tile
        if k in hun:
            ok = is_winning_shape(tuple(counts), n_hun + 1, need)
        else:
            counts[k] += 1
            ok = is_winning_shape(tuple(counts), n_hun, need)
            counts[k] -= 1
        if ok:
            out.append(tile_name(k))
    return tuple(out)
