"""A PettingZoo AEC environment over `Table`: one hand per episode, agents `seat_0`..,
observations as rulekit.game.encoding lays them out, with an action mask (docs/bots.md,
"For RL"). Needs the `rl` extra (`pip install "rulekit[rl]"`); nothing in rulekit imports
this module, so the core never needs pettingzoo or numpy.

    from rulekit.game.rl import env
    e = env("tianjin"); e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        e.step(None if term or trunc else int(obs["action_mask"].argmax()))

The reward is the seat's money for the hand, given when the hand ends.
"""
from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from rulekit import api
from rulekit.game import encoding
from rulekit.game.table import Table
from rulekit.ruleset.model import Ruleset


class RulekitEnv(AECEnv):  # type: ignore[misc]
    """One hand of `ruleset` at a Table; seat `i` is agent `seat_i`."""

    metadata = {"name": "rulekit_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self, ruleset: str | Ruleset = "tianjin", render_mode: str | None = None
                 ) -> None:
        super().__init__()
        self.rs = ruleset if isinstance(ruleset, Ruleset) else api.load_ruleset(ruleset)
        self.possible_agents = [f"seat_{s}" for s in range(self.rs.players)]
        self.render_mode = render_mode
        obs_space = spaces.Dict({
            "observation": spaces.Box(0, 255, (encoding.OBS_SIZE,), np.uint8),
            "action_mask": spaces.Box(0, 1, (encoding.N_ACTIONS,), np.int8)})
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(encoding.N_ACTIONS)
                              for a in self.possible_agents}
        self._rng = random.Random()
        self.table: Table | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.table is not None
        seat = int(agent.removeprefix("seat_"))
        m, _ = encoding.mask(self.table.legal(seat))
        return {"observation": np.asarray(encoding.encode(self.table.observation(seat)),
                                          dtype=np.uint8),
                "action_mask": np.asarray(m, dtype=np.int8)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng.seed(seed)
        hand_seed = self._rng.getrandbits(63)
        dealer = self._rng.randrange(self.rs.players)
        self.table = Table(self.rs, seed=hand_seed, dealer=dealer)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._next()

    def _next(self) -> None:
        """The next agent to act, or the end: rewards are the hand's payments."""
        assert self.table is not None
        if self.table.over:
            pay = self.table.record().result["payments"]
            for s, a in enumerate(self.possible_agents):
                self.rewards[a] = float(pay[s])
                self.terminations[a] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
            return
        self.agent_selection = f"seat_{self.table.pending()[0]}"

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.table is not None and action is not None
        seat = int(agent.removeprefix("seat_"))
        _, by_index = encoding.mask(self.table.legal(seat))
        if int(action) not in by_index:
            raise ValueError(f"{agent}: action {action} is masked out (not legal)")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self.table.act(seat, by_index[int(action)])
        self._next()

    def render(self) -> None:
        return None

    def close(self) -> None:
        self.table = None


def env(ruleset: str | Ruleset = "tianjin", render_mode: str | None = None) -> RulekitEnv:
    """The environment, as PettingZoo's examples make one."""
    return RulekitEnv(ruleset, render_mode)
