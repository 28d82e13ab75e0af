"""A finished hand as the server keeps and shows it.

`hand_record` is the line `rulekit simulate --log` writes and `rulekit replay` reads
(docs/game.md, "Logs"), with the table's seats as `players`, sealed with the server's
record key (`rulekit serve --key-file`, else the installation's; rulekit.game.sealing) when
the hand ends, so the store and every export keep the seal. `result_view` is what the
table page shows after the end: the settle pipeline's payments and transfers and the
winning hand's score with its breakdown, as the calculator shows them, with the same
display names beside the codes (`why_name`, `reason_name`) as `/v1/settle`.
"""
from __future__ import annotations

import json
from typing import Any

import rulekit
from rulekit.game import recordkey, sealing
from rulekit.game.procedure import HandRecord
from rulekit.game.rules import game_rules
from rulekit.game.simulate import log_line
from rulekit.ruleset.model import Ruleset
from rulekit.serve.handlers import named_settle


def hand_record(rec: HandRecord, rs: Ruleset, players: list[str], n: int) -> dict[str, Any]:
    """The replayable record of hand `n` (the same keys as `simulate.log_line`), sealed."""
    line = sealing.seal_line(log_line(rec, rs, game_rules(rs), players, n),
                             recordkey.load_or_create())
    d: dict[str, Any] = json.loads(line)
    d["settle"] = rec.settle
    return d


def result_view(record: dict[str, Any], rs: Ruleset) -> dict[str, Any]:
    """The end of a hand for people: who won how, the score's steps, who pays whom."""
    settle = named_settle(rulekit.settle(record["settle"], rs).to_dict(), rs)
    res = record["result"]
    return {"hand": record["hand"], "winner": res["winner"], "win_by": res["win_by"],
            "dealer": record["dealer"], "payments": settle["payments"],
            "transfers": settle["transfers"], "next_dealer": settle["next_dealer"],
            "score": settle.get("score"), "hand_doc": res["hand"], "chan": res["chan"]}
