"""The built-in path of `play_hand`: when greedy plays every seat, its decisions are made
from the table's state here, in compiled code, without the observations, copies of the
legal actions and checks a seat that is not ours needs (docs/game.md, "Speed"). The moves
are `GreedyPlayer.act`'s (both ask `rulekit.game.greedy`), so the hand is the same.
`play` plays a whole such hand without a `Table` or player objects (the simulation's
loop); `settings_answer` is how every built-in player answers 坐莊, 拉莊 and 天聽.
"""
from __future__ import annotations

import random
from typing import Any, Generator

from rulekit.game import greedy
from rulekit.game import wall as wall_mod
from rulekit.game.actions import Action, find
from rulekit.game.procedure import HandRecord, IllegalMove, Request, _Hand
from rulekit.game.rules import GameRules
from rulekit.game.state import HandState, SeatState, Seen
from rulekit.hand import hun_of
from rulekit.ruleset.model import Ruleset
from rulekit.tiles import NUM_KINDS

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


def play(rs: Ruleset, rules: GameRules, seed: int, dealer: int) -> HandRecord:
    """One hand with greedy at every seat, as `table.play_hand` plays it with
    `players.make_player("greedy", rs, 0, rules)` at each (the same wall, moves and record):
    the wall shuffled by `random.Random(seed)`, a fresh `greedy.WaitScorer` a seat (its
    memos one hand's, as a player made for the hand holds them), the decisions `drive`'s,
    the other questions `settings_answer`'s from the ruleset's `game.dealer_sits` and
    `game.pulls`. Nothing is made for a seat to read (no `Table`, players, observations)."""
    w, dice, hun_dice = wall_mod.build(random.Random(seed), dealer, rules.players,
                                       rules.break_dice, rules.flowers)
    st = HandState(w, dealer, hun_of(w.indicator, rules.hun_kinds, rules.hun_successor),
                   [SeatState() for _ in range(rules.players)], [0] * NUM_KINDS)
    hand = _Hand(rs, rules, st, None)
    run = hand.run()
    scorers: list[greedy.WaitScorer | None] = [greedy.WaitScorer(rs)
                                               for _ in range(rules.players)]
    sits: bool = rules.dealer_sits
    pulls: int = rules.pulls
    asked: Asked | None = _sent(run, None)
    while asked is not None:
        if isinstance(asked, Request) and hand.seen.dealt:
            asked = drive(run, asked, st, hand.seen, scorers)
            if asked is None:
                break
        if isinstance(asked, Request):
            asked = _sent(run, _settled(asked, sits, pulls))
        else:
            answers: dict[int, Action] = {}
            for r in sorted(asked, key=_seat):
                answers[r.seat] = _settled(r, sits, pulls)
            asked = _sent(run, answers)
    return HandRecord(seed, st.dealer, dice, hun_dice, tuple(w.tiles), w.indicator,
                      tuple(hand.events), hand.result, hand.settle)


def _seat(r: Request) -> int:
    return r.seat


def _sent(run: Generator[Asked, Any, None], answer: Any) -> Asked | None:
    """The procedure's next question after `answer`; None once the hand is over."""
    try:
        return run.send(answer)
    except StopIteration:
        return None


def _settled(r: Request, sits: bool, pulls: int) -> Action:
    """A greedy seat's answer to a question `drive` leaves (`settings_answer`); a win, turn
    or claim left is one greedy answered with an action that is not legal, which the table
    refuses the same way."""
    got = settings_answer(sits, pulls, r.legal)
    if got is None:
        raise IllegalMove(f"seat {r.seat}: greedy's answer is not legal")
    return got


def settings_answer(sits: bool, pulls: int, legal: list[Action]) -> Action | None:
    """A built-in player's answer where it reads nothing of the observation: a question
    that is not a win, a turn or a claim (坐莊, 拉莊, 天聽) is answered from the player's
    settings (`sits`: 坐莊 when the dealer; `pulls`: 拉莊 count as a non-dealer) alone, so
    no observation is made for it. None for the questions a player answers from the
    observation."""
    if legal[0]["action"] == "win" or legal[-1]["action"] == "discard" \
            or (len(legal) > 1 and legal[1]["action"] == "pung"):
        return None
    return settings_choice(sits, pulls, legal) or default_choice(legal)


def settings_choice(sits: bool, pulls: int, legal: list[Action]) -> Action | None:
    """The 坐莊 / 拉莊 answer from a player's settings, if that is the question
    (`Player.table_choice`)."""
    first = legal[0]["action"]
    if first == "sit":
        return legal[0] if sits else legal[1]
    if first == "pass" and len(legal) > 1 and legal[1]["action"] == "pull":
        options = find(legal, "pull")
        counts = [a["count"] for a in options]
        n = min(pulls, max(counts))
        return options[counts.index(n)] if n in counts else legal[0]
    return None


def default_choice(legal: list[Action]) -> Action:
    """Win if offered; otherwise pass if possible; otherwise the first discard."""
    for a in legal:
        if a["action"] == "win":
            return a
    for a in legal:
        if a["action"] == "pass":
            return a
    return find(legal, "discard")[0]
