"""A session: settle hands in order, carrying the deal from one hand to the next.

The dealer of a later hand follows from the one before (settle's `next_dealer`), so a
document that names a different dealer is a bookkeeping error worth reporting, not a choice.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulekit.errors import SettleError
from rulekit.money import NotExact, amount, json_number, within_doubles
from rulekit.ruleset.model import Ruleset
from rulekit.settlement import Number, SettleResult, show_value, settle_document


@dataclass(frozen=True, slots=True)
class SessionResult:
    """Each hand's settlement, the running totals per seat, and who deals each hand."""

    hands: tuple[SettleResult, ...]
    totals: tuple[Number, ...]
    dealers: tuple[int, ...]
    winners: tuple[int | None, ...]      # None for a draw
    next_dealer: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "hands": [h.to_dict() for h in self.hands],
            "totals": [json_number(t) for t in self.totals],
            "dealers": list(self.dealers),
            "winners": list(self.winners),
            "next_dealer": self.next_dealer,
        }

    def table(self) -> str:
        """A plain-text table: one row per hand, then the totals."""
        seats = len(self.totals)
        head = ["hand", "dealer", "winner"] + [f"seat {s}" for s in range(seats)]
        rows = []
        for i, (h, dealer, winner) in enumerate(zip(self.hands, self.dealers, self.winners),
                                                start=1):
            shown = "draw" if winner is None else str(winner)
            rows.append([str(i), str(dealer), shown] + [_show(p) for p in h.payments])
        rows.append(["total", "", ""] + [_show(p) for p in self.totals])
        widths = [max(len(r[c]) for r in [head, *rows]) for c in range(len(head))]
        lines = []
        for r in [head, *rows]:
            cells = [r[0].ljust(widths[0])] + [v.rjust(w) for v, w in zip(r[1:], widths[1:])]
            lines.append("  ".join(cells).rstrip())
        return "\n".join(lines)


def _show(x: Number) -> str:
    return str(x)


def _out(x: Fraction) -> Number:
    try:
        return amount(x)
    except NotExact as err:
        raise SettleError("totals", f"{err}, more than a JSON number carries exactly") from None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def run_session(docs: Iterable[Mapping[str, Any]], rs: Ruleset) -> SessionResult:
    """Settle the documents in order; errors name the hand, e.g. `hands[2].pulls[1]`."""
    hands: list[SettleResult] = []
    dealers: list[int] = []
    winners: list[int | None] = []
    totals = [Fraction(0)] * rs.players
    carried: int | None = None
    for i, doc in enumerate(docs):
        if carried is not None and isinstance(doc, Mapping):
            given = doc.get("dealer", carried)
            if _is_int(given) and given != carried:
                raise SettleError(f"hands[{i}].dealer", f"expected dealer {carried} (carried "
                                  f"from the previous hand), got {show_value(given)}")
            doc = {**doc, "dealer": given}
        try:
            result = settle_document(doc, rs)
        except SettleError as err:
            field = f"hands[{i}]" if err.field == "document" else f"hands[{i}].{err.field}"
            raise SettleError(field, err.message) from None
        dealers.append(doc.get("dealer", 0))
        winners.append(doc.get("winner"))
        hands.append(result)
        totals = [t + Fraction(p) for t, p in zip(totals, result.payments)]
        carried = result.next_dealer
    try:
        within_doubles(totals)
    except NotExact as err:
        raise SettleError("totals", f"{err}, more than JSON numbers carry exactly") from None
    return SessionResult(tuple(hands), tuple(_out(t) for t in totals), tuple(dealers),
                         tuple(winners), 0 if carried is None else carried)
