"""`scoring.score.forget` empties every memo of the scoring path (bench/worst.py times cold
scores with it), and a hand scores the same before and after."""
from __future__ import annotations

import rulekit
from rulekit import arrange, facts
from rulekit.scoring import reach
from rulekit.scoring.reach import reach_size
from rulekit.scoring.score import forget, scorers_kept

HEAVY = {"indicator": "4z", "hand": "566779m1111444z", "win_tile": "8m", "heavenly": True}
PLAIN = {"indicator": "7p", "hand": "46m 123456789s 22z", "win_tile": "5m"}


def test_forget_empties_every_memo_and_changes_no_score() -> None:
    rs = rulekit.load_ruleset("tianjin")
    before = [rulekit.score(d, rs).to_dict() for d in (HEAVY, PLAIN)]
    assert arrange.memo_size()[0] > 0 and scorers_kept() >= 1 and facts._BY_ID
    forget()
    assert arrange.memo_size() == (0, 0) and scorers_kept() == 0 and not facts._BY_ID
    assert reach_size() == (0, 0) and not reach._WILD
    after = [rulekit.score(d, rs).to_dict() for d in (HEAVY, PLAIN)]
    assert after == before and before[0]["total_fan"] == 32 and before[1]["total_fan"] == 14
