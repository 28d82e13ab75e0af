"""The referee a table drives: `rulekit.game.Table` (docs/bots.md), behind the few calls a
live table needs, with observations as JSON and the referee's refusal as `EngineError`.

Every seat is asked from `(observation, legal)` (`question`), built-in bots included (they
decide in a thread); the fallback of a seat that is away or out of time is the built-in
`greedy` player's choice, as in `rulekit match`.
"""
from __future__ import annotations

from typing import Any

from rulekit.errors import RulekitError
from rulekit.game import IllegalMove, Observation, Table, make_player
from rulekit.game.actions import Action
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

    def question(self, seat: int) -> tuple[Observation, list[Action]]:
        """What `seat` is asked, as copies a player may keep (ask on the event loop)."""
        return self.table.observation(seat), self.table.legal(seat)

    def fallback(self, obs: Observation, legal: list[Action]) -> Action:
        """What greedy would answer (docs/bots.md, "When a bot fails")."""
        return self.greedy.act(obs, legal)
