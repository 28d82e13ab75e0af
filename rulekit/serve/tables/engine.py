"""The referee a table drives: `rulekit.game.Table` (docs/bots.md), behind the few calls a
live table needs, with observations as JSON and the referee's refusal as `EngineError`.

Every seat is asked from `(observation, legal)`, built-in bots included (they decide in a
thread, `decide`); the fallback of a seat that is away or out of time is the built-in
`greedy` player's choice, as in `rulekit match`.
"""
from __future__ import annotations

from typing import Any

from rulekit.errors import RulekitError
from rulekit.game import IllegalMove, Table, make_player
from rulekit.game.actions import Action
from rulekit.game.players import Player
from rulekit.game.procedure import HandRecord
from rulekit.ruleset.model import Ruleset


class EngineError(RulekitError):
    """An action the referee refuses (not one of `legal`)."""


class Engine:
    """One hand: `Table` with JSON observations and a greedy fallback."""

    def __init__(self, rs: Ruleset, seed: int, dealer: int,
                 scores: list[float] | None = None) -> None:
        self.table = Table(rs, seed=seed, dealer=dealer, scores=scores)
        self.greedy = make_player("greedy", rs, seed)

    @property
    def over(self) -> bool:
        return self.table.over

    def pending(self) -> tuple[int, ...]:
        return self.table.pending()

    def legal(self, seat: int) -> list[Action]:
        return self.table.legal(seat)

    def act(self, seat: int, action: Action) -> None:
        try:
            self.table.act(seat, action)
        except IllegalMove as err:
            raise EngineError(str(err)) from None

    def observation(self, seat: int) -> dict[str, Any]:
        return self.table.observation(seat).to_dict()

    def events(self, seat: int, since: int = 0) -> list[dict[str, Any]]:
        return self.table.events(seat, since)

    def record(self) -> HandRecord:
        return self.table.record()

    def decide(self, player: Player, seat: int) -> Action:
        """`player`'s answer to `seat`'s question (run it in a thread: `value` scores)."""
        return player.act(self.table.observation(seat), self.table.legal(seat))

    def fallback(self, seat: int) -> Action:
        """What greedy would answer (docs/bots.md, "When a bot fails")."""
        return self.decide(self.greedy, seat)
