"""Each win is scored once: the game scores a win when it offers it and pays that score
(`settle_document(..., scored=)`), so the settlement must use the score it is given, not
score the hand again."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from rulekit import load_ruleset
from rulekit.game import simulate as sim
from rulekit.game.players import make_player
from rulekit.game.table import play_hand
from rulekit.scoring import score_document
from rulekit.settlement import settle_document


def _won(rs_name: str, want: int) -> list[dict[str, Any]]:
    """Settle documents of greedy wins without kongs (distinct seeds)."""
    rs = load_ruleset(rs_name)
    out = []
    for i in range(400):
        rec = play_hand(rs, [make_player("greedy", rs, 0) for _ in range(rs.players)],
                        seed=sim.hand_seed(7, i), dealer=i % rs.players)
        doc = rec.settle
        if doc["winner"] is not None and not any(doc["kongs"]):
            out.append(doc)
            if len(out) == want:
                return out
    raise AssertionError("too few wins")


def test_the_settlement_pays_the_score_it_is_given() -> None:
    rs = load_ruleset("tianjin")
    docs = _won("tianjin", 40)
    a = docs[0]
    b = next(d for d in docs if score_document(d["hand"], rs).total_fan
             != score_document(a["hand"], rs).total_fan)
    own = settle_document(a, rs)
    given = score_document(b["hand"], rs)
    paid = settle_document(a, rs, scored=given)
    assert paid.score is given                    # the score given, not a new one
    assert paid.payments != own.payments          # and paid from its fan
    assert own.score is not None              # no kongs: each payment is in proportion
    assert _moved(paid.payments) * Decimal(str(own.score.total_fan)) \
        == _moved(own.payments) * Decimal(str(given.total_fan))


def _moved(payments: tuple[int | Decimal, ...]) -> Decimal:
    return sum([Decimal(p).copy_abs() for p in payments], Decimal(0))
