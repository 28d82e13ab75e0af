"""The built-in path (`rulekit.game.builtin`): with greedy at every seat, `play_hand` answers
from the table's state, not from observations; the hands must be the ones greedy plays
from its observations, move for move, under every kind of table."""
from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from rulekit.game import Table, actions, builtin, greedy, make_player, play_hand
from rulekit.game.players import GreedyPlayer, view
from rulekit.game.procedure import Request
from rulekit.tiles import TILE_NAMES
from test_table import RULESETS


class ObservingGreedy(GreedyPlayer):
    """Greedy, asked the usual way (a subclass: `play_hand` gives it observations)."""


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_greedy_plays_the_same_hands_either_way(name: str) -> None:
    """Same seeds, same dealer: the built-in path and observing greedy give equal records
    (events, results, settle documents), including hands with kongs, claims and wins."""
    rs = RULESETS[name]
    seen_actions: set[str] = set()
    for seed in range(12):
        dealer = seed % rs.players
        fast = play_hand(rs, [make_player("greedy", rs, 0) for _ in range(rs.players)],
                         seed=seed, dealer=dealer)
        slow_players: list[Any] = []
        for p in (make_player("greedy", rs, 0) for _ in range(rs.players)):
            q = ObservingGreedy(rs)
            q.sits, q.pulls = p.sits, p.pulls
            slow_players.append(q)
        slow = play_hand(rs, slow_players, seed=seed, dealer=dealer)
        assert dataclasses.asdict(fast) == dataclasses.asdict(slow), (name, seed)
        seen_actions |= {e[1] for e in fast.events}
    assert {"discard", "pung", "win"} <= seen_actions


def test_the_state_view_is_the_observation_view() -> None:
    """At every decision of greedy hands, the `View` read from the state equals the one read
    from the seat's observation, `face_up` included (another seat's concealed kong is not
    face up; rivers, melds and the indicator are)."""
    checked = kongs = 0
    for name in ("tianjin", "tianjin-flowers", "every-switch"):
        rs = RULESETS[name]
        for seed in range(10):
            t = Table(rs, seed, seed % rs.players)
            ps = [make_player("greedy", rs, 0) for _ in range(rs.players)]
            h = t._hand
            while not t.over:
                for seat in t.pending():
                    obs, legal = t.observation(seat), t.legal(seat)
                    if obs.indicator is not None:
                        r = t._open[seat]
                        last = h.seen.last_discard
                        a = greedy.state_view(h.st, seat, -1 if r.drawn is None else r.drawn,
                                              -1 if last is None else last[1])
                        b = view(obs)
                        assert fields(a) == fields(b), (name, seed, seat)
                        checked += 1
                        kongs += any(m.shape in ("concealed", "golden")
                                     for s in h.st.seats for m in s.melds)
                    t.act(seat, ps[seat].act(obs, legal))
    assert checked > 1000 and kongs > 0


def fields(v: greedy.View) -> tuple[Any, ...]:
    return (v.hand, v.hun, v.melds, v.drawn, v.last_discard, v.indicator, v.discarded_hun,
            v.flowers, v.ready, v.face_up(), v.split())


def test_an_answer_greedy_may_not_give_goes_back_to_the_table() -> None:
    """`drive` hands a question back unanswered when greedy's answer is not among the legal
    ones (the table then asks the usual way and refuses it, naming it: IllegalMove)."""
    rs = RULESETS["tianjin"]
    t = Table(rs, 3, 0)
    ps = [make_player("greedy", rs, 0) for _ in range(4)]
    while not t._hand.seen.dealt or t._group:
        for seat in t.pending():
            t.act(seat, ps[seat].act(t.observation(seat), t.legal(seat)))
    r = t._open[t.pending()[0]]
    assert r.legal[-1]["action"] == "discard"
    held = {a["tile"] for a in r.legal if a["action"] == "discard"}
    odd = next(k for k in range(34) if TILE_NAMES[k] not in held)
    asked = Request(r.seat, [actions.discard(odd)], r.drawn, r.win)
    h = t._hand
    before = len(h.events)
    assert builtin.drive(t._run, asked, h.st, h.seen, [None] * 4) is asked
    assert len(h.events) == before                 # nothing was played


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_play_is_play_hand_with_greedy_players(name: str) -> None:
    """`builtin.play` (no Table, no player objects: the simulation's loop) gives the record
    `play_hand` gives with greedy players made for the hand: 坐莊, 拉莊 and 天聽 answered
    from the settings, claims, kongs and wins."""
    from rulekit.game.rules import game_rules
    rs = RULESETS[name]
    rules = game_rules(rs)
    seen_actions: set[str] = set()
    for seed in range(10):
        dealer = (seed + 1) % rs.players
        want = play_hand(rs, [make_player("greedy", rs, 0) for _ in range(rs.players)],
                         seed=seed, dealer=dealer)
        got = builtin.play(rs, rules, seed, dealer)
        assert dataclasses.asdict(got) == dataclasses.asdict(want), (name, seed)
        seen_actions |= {e[1] for e in got.events}
    assert {"discard", "win"} <= seen_actions


def test_settings_answer_is_the_players_choice() -> None:
    """坐莊 as `sits` says; 拉莊 the count asked, capped at the most offered; 天聽 passed;
    a turn, a claim or a win is left to the player (None)."""
    sit = [actions.sit(), actions.pass_()]
    assert builtin.settings_answer(True, 0, sit) is sit[0]
    assert builtin.settings_answer(False, 0, sit) is sit[1]
    pull = [actions.pass_(), actions.pull(1), actions.pull(2)]
    assert builtin.settings_answer(False, 2, pull) is pull[2]
    assert builtin.settings_answer(False, 5, pull) is pull[2]
    assert builtin.settings_answer(False, 0, pull) is pull[0]
    ready = [actions.ready(), actions.pass_()]
    assert builtin.settings_answer(True, 3, ready) is ready[1]
    assert builtin.settings_answer(True, 3, [actions.win(), actions.discard(0)]) is None
    assert builtin.settings_answer(True, 3, [actions.discard(0), actions.discard(5)]) is None
    assert builtin.settings_answer(True, 3, [actions.pass_(), {"action": "pung"}]) is None
    assert GreedyPlayer(None).table_choice(pull) is pull[0]       # pulls 0 by default


def test_play_refuses_a_question_greedy_left_unanswered() -> None:
    """A turn `drive` returns unanswered (greedy's answer was not legal) is refused as the
    table refuses it."""
    from rulekit.game.procedure import IllegalMove
    with pytest.raises(IllegalMove, match="seat 2"):
        builtin._settled(Request(2, [actions.discard(0)]), True, 1)
