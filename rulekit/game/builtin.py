"""The built-in path of `play_hand`: when greedy plays every seat, its decisions are made
from the table's state here, in compiled code, without the observations, copies of the
legal actions and checks a seat that is not ours needs (docs/game.md, "Speed"). The moves
are `GreedyPlayer.act`'s (both ask `rulekit.game.greedy`), so the hand is the same.
"""
from __future__ import annotations

from typing import Any, Generator

from rulekit.game import greedy
from rulekit.game.actions import Action
from rulekit.game.procedure import Request
from rulekit.game.state import HandState, Seen

Asked = Request | tuple[Request, ...]


def drive(run: Generator[Asked, Any, None], asked: Asked, st: HandState, seen: Seen,
          scorers: list[greedy.WaitScorer | None]) -> Asked | None:
    """Answer the procedure's questions from each seat's `View` for as long as greedy
    answers them alone; the first question it does not (坐莊, 拉莊, 天聽, simultaneous
    ones, anything before the deal, an answer that would not be legal) is returned
    unanswered for the table to ask the usual way; None once the hand is over."""
    while True:
        if not isinstance(asked, Request) or not seen.dealt:
            return asked
        last = seen.last_discard
        view = greedy.state_view(st, asked.seat, -1 if asked.drawn is None else asked.drawn,
                                 -1 if last is None else last[1], asked.held)
        got = greedy.decide(scorers[asked.seat], view, asked.legal)
        if got is None:
            return asked
        mine = legal_one(asked.legal, got)
        if mine is None:
            return asked            # the table asks again, and refuses it (IllegalMove)
        try:
            asked = run.send(mine)
        except StopIteration:
            return None


def legal_one(legal: list[Action], got: Action) -> Action | None:
    """The first of `legal` equal to `got` (what `Table.act` takes), or None. Looked for
    by identity first: `greedy.decide` answers with one of `legal` where it can (a
    discard, the shared `DISCARDS` action the procedure offers, the last of a turn's ~15),
    so most answers need no dict comparison at all (~50 a hand)."""
    for mine in legal:
        if mine is got:
            return mine
    for mine in legal:
        if mine == got:
            return mine
    return None
