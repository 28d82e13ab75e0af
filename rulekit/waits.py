"""Which tiles complete a waiting hand: the shape tables name them, scoring (if asked) values them.

`waits` is the shape question for a hand document (one parse, one `shape.waits`, a few
microseconds); `scored_waits` scores the hand once per tile it returns, so it costs a score
per wait and answers what a player asks: how much each tile is worth, and whether it may be
declared at all under the ruleset.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from rulekit import shape
from rulekit.errors import HandError
from rulekit.hand import Hand, parse_hand
from rulekit.ruleset.model import Ruleset
from rulekit.scoring import score_document
from rulekit.tiles import NUM_KINDS, TILE_NAMES


@dataclass(frozen=True, slots=True)
class Wait:
    """One tile that completes the hand's shape, scored as its winning tile.

    `win` is false when the shape is complete but the ruleset refuses the win (below the
    minimum fan, or a `forbid` rule); `reason` then says why, as `ScoreResult.reason` does.
    """

    tile: str
    fan: int | float
    win: bool
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"tile": self.tile, "fan": self.fan, "win": self.win}
        if self.reason is not None:
            out["reason"] = self.reason
        return out


def _check_shape(doc: object) -> Mapping[str, Any]:
    if not isinstance(doc, Mapping):
        raise HandError("document", "must be a JSON object")
    if not isinstance(doc.get("hand"), str):
        raise HandError("hand", "must be a tile string")
    return doc


def _parsed(doc: Mapping[str, Any], rs: Ruleset, scored: bool) -> Hand:
    """The document as a `Hand` whose winning tile is the first kind that can be drawn.

    The winning tile only matters to the copies check (a fifth copy is refused with a
    `win_tile` error), so the first kind that passes gives the hand; any other error is the
    document's and is raised. Unscored, `win_by` is taken as a self-draw (the shape does not
    depend on it); scored, the document's own `win_by` must be one the ruleset allows.
    """
    base = dict(doc)
    if not scored:
        base["win_by"] = "self_draw"
    allowed = rs.win_by if scored else frozenset({"self_draw"})
    for k in range(NUM_KINDS):
        base["win_tile"] = TILE_NAMES[k]
        try:
            return parse_hand(base, hun_kind_count=rs.hun_kinds, win_by_allowed=allowed,
                              hun_successor=rs.hun_successor)
        except HandError as err:
            if err.field != "win_tile":
                raise
    raise HandError("hand", "no tile can be added to this hand")


def _wait_kinds(hand: Hand) -> list[int]:
    """The kinds that complete `hand` and can still be drawn, in kind order.

    A kind is drawable while fewer than four of its copies are in sight (the hand, its
    melds and the indicator face up on the wall): a wait is never a fifth copy. A drawn hun
    is a wildcard, so a hun kind waits exactly when one more wildcard makes the shape.
    """
    hun = hand.hun
    counts = [0] * NUM_KINDS
    sight = [0] * NUM_KINDS
    wild = 0
    for t in hand.concealed:
        sight[t] += 1
        if t in hun:
            wild += 1
        else:
            counts[t] += 1
    for m in hand.melds:
        sight[m.tile] += m.size
    sight[hand.indicator] += 1
    melds = len(hand.melds)
    found = shape.waits(counts, wild, melds)
    kinds = [k for k in found if sight[k] < 4 and k not in hun]
    drawable_hun = [h for h in hun if sight[h] < 4]
    # a wildcard wins wherever a real tile does; only a hand whose one wait is a fifth copy
    # (never in `found`) needs the check
    if drawable_hun and (found or shape.is_win(counts, wild + 1, melds)):
        kinds = sorted(kinds + drawable_hun)
    return kinds


def waits(doc: Mapping[str, Any], rs: Ruleset) -> tuple[str, ...]:
    """Every tile that makes the 13 tiles a winning shape (a hun completes any wait), in
    kind order; `win_tile` and `win_by` in the document are ignored."""
    hand = _parsed(_check_shape(doc), rs, scored=False)
    return tuple(TILE_NAMES[k] for k in _wait_kinds(hand))


def scored_waits(doc: Mapping[str, Any], rs: Ruleset) -> tuple[Wait, ...]:
    """`waits`, each tile scored as the winning tile of the document (its `win_by` and flags
    as given, which the ruleset must allow), so a tile below the minimum or refused by a
    `forbid` rule is kept with its reason."""
    hand = _parsed(_check_shape(doc), rs, scored=True)
    out = []
    for k in _wait_kinds(hand):
        tile = TILE_NAMES[k]
        result = score_document({**doc, "win_tile": tile}, rs)
        out.append(Wait(tile, result.total_fan, result.win,
                        None if result.win else result.reason))
    return tuple(out)
