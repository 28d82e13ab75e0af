"""The PettingZoo environment (rulekit.game.rl) passes PettingZoo's own API test, plays
whole hands with masked actions, and its encoding is the documented layout."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test

from rulekit.game import encoding
from rulekit.game.rl import env

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("ruleset", ["tianjin", "tianjin-3p", "tianjin-flowers"])
def test_pettingzoo_api_test(ruleset: str) -> None:
    e = env(ruleset)
    api_test(e, num_cycles=300)
    assert e.possible_agents == [f"seat_{s}" for s in range(e.rs.players)]


def test_hands_play_to_the_end_with_masked_actions() -> None:
    e = env("tianjin")
    for seed in range(3):
        e.reset(seed=seed)
        rewards = {a: 0.0 for a in e.possible_agents}
        steps = 0
        for agent in e.agent_iter(max_iter=2000):
            obs, reward, term, trunc, _ = e.last()
            rewards[agent] += reward
            assert obs["observation"].shape == (encoding.OBS_SIZE,)
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal) >= 1
            e.step(int(legal[0]))
            steps += 1
        assert e.agents == [] and steps > 10
        assert sum(rewards.values()) == 0      # money only changes hands


def test_the_layout_adds_up_and_the_core_does_not_import_it() -> None:
    assert sum(n for _, n, _ in encoding.LAYOUT) == encoding.OBS_SIZE == 747
    assert encoding.N_ACTIONS == 79
    assert encoding.action_index({"action": "discard", "tile": "1m"}) == 0
    assert encoding.action_index({"action": "kong", "tile": "7z", "kind": "concealed"}) == 67
    assert encoding.action_index({"action": "pull", "count": 2}) == encoding.PULL0 + 2
    code = "import sys, rulekit.cli, rulekit.game; print('pettingzoo' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout
    assert out.strip() == "False"


def test_the_encoding_holds_the_observations_values() -> None:
    import rulekit
    from rulekit.game import Table, make_player
    rs = rulekit.load_ruleset("tianjin")
    players = [make_player("greedy", rs, s) for s in range(4)]
    t = Table(rs, seed=11, dealer=2)
    checked = 0
    while not t.over:
        for seat in t.pending():
            obs = t.observation(seat)
            v = encoding.encode(obs)
            o = encoding.OFFSET
            assert v[o["hand"]:o["hand"] + 34] == list(obs.hand)
            assert v[o["indicator"] + obs.indicator] == 1 and sum(
                v[o["indicator"]:o["indicator"] + 34]) == 1
            assert v[o["wall_left"]] == obs.wall_left
            assert v[o["dealer"] + (2 - seat) % 4] == 1
            for s in range(4):
                r = (s - seat) % 4
                assert v[o[f"seat{r}.tiles_held"]] == obs.tiles_held[s]
                assert sum(v[o[f"seat{r}.discards"]:o[f"seat{r}.discards"] + 34]) == \
                    len(obs.discards[s])
                assert v[o[f"seat{r}.pungs"]:o[f"seat{r}.pungs"] + 34].count(1) == sum(
                    1 for _, shape in obs.melds[s] if shape == "pung")
            m, by_index = encoding.mask(t.legal(seat))
            assert sum(m) == len(t.legal(seat)) and all(
                encoding.action_index(a) == i for i, a in by_index.items())
            checked += 1
            t.act(seat, players[seat].act(obs, t.legal(seat)))
    assert checked > 30
