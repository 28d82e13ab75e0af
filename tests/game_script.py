"""Scripted deals for the game tests: a wall in dealing order that deals chosen hands and
draws, and a player that follows a plan."""
from __future__ import annotations

from typing import Sequence

from rulekit.game import actions
from rulekit.game.actions import Action
from rulekit.game.observation import Observation, WinOffer
from rulekit.game.players import Player
from rulekit.tiles import parse_tiles


def deal_positions(dealer: int, players: int = 4) -> list[list[int]]:
    """The dealing-order indices each seat receives (000/Ⅲ: 4, 4, 4, 1, the dealer one more)."""
    pos: list[list[int]] = [[] for _ in range(players)]
    i = 0
    for take in (4, 4, 4, 1):
        for j in range(players):
            for _ in range(take):
                pos[(dealer + j) % players].append(i)
                i += 1
    pos[dealer].append(i)
    return pos


def stacked(hands: Sequence[str], draws: str, indicator: str, hun_dice: tuple[int, int],
            dealer: int = 0, tail: str = "", flowers: bool = False) -> list[int]:
    """A wall in dealing order: seat s is dealt `hands[s]` (the dealer's last tile is its
    fourteenth), the head then gives `draws` in order, the indicator sits `sum(hun_dice)`
    stacks from the tail, the tail gives `tail` to kong replacements, and the other tiles
    fill the rest in kind order. With `flowers` the wall has the eight flowers too (144)."""
    size = 144 if flowers else 136
    order: list[int | None] = [None] * size
    left = [4] * 34 + ([1] * 8 if flowers else [])
    for seat, pos in enumerate(deal_positions(dealer)):
        tiles = parse_tiles(hands[seat]) if hands[seat] else ()
        assert len(tiles) == len(pos), (seat, hands[seat])
        for i, t in zip(pos, tiles):
            order[i] = t
            left[t] -= 1
    for i, t in enumerate(parse_tiles(draws) if draws else (), start=53):
        order[i] = t
        left[t] -= 1
    at = 2 * (size // 2 - sum(hun_dice))
    k = parse_tiles(indicator)[0]
    assert order[at] is None
    order[at] = k
    left[k] -= 1
    stacks = [(2 * s, 2 * s + 1) for s in range(size // 2 - 1, -1, -1)]
    tail_order = [i for pair in stacks for i in pair if i != at]
    for i, t in zip(tail_order, parse_tiles(tail) if tail else ()):
        assert order[i] is None
        order[i] = t
        left[t] -= 1
    assert min(left) >= 0, left
    rest = [t for t in range(len(left)) for _ in range(left[t])]
    out = []
    for x in order:
        out.append(rest.pop(0) if x is None else x)
    return out


class Plan(Player):
    """Discards `first` in order, then the highest non-hun kind held (a hun if nothing else);
    never claims or kongs; wins only if `wins`. Records the wins it was offered."""

    name = "plan"

    def __init__(self, first: str = "", wins: bool = False) -> None:
        self.first = list(parse_tiles(first)) if first else []
        self.wins = wins
        self.offered: list[WinOffer] = []

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        got = self.table_choice(legal)
        if got is not None:
            return got
        if obs.win is not None:
            self.offered.append(obs.win)
            if self.choose_win(obs):
                return actions.win()
        kongs = actions.find(legal, "kong")
        if kongs:
            k = self.choose_kong(obs, kongs)
            if k is not None:
                return k
        if actions.find(legal, "discard"):
            return actions.discard(self.choose_discard(obs, legal))
        claim = self.choose_claim(obs, legal)
        return claim if claim is not None else actions.pass_()

    def choose_win(self, obs: Observation) -> bool:
        return self.wins

    def choose_kong(self, obs: Observation, kongs: list[Action]) -> Action | None:
        return None

    def choose_claim(self, obs: Observation, legal: list[Action]) -> Action | None:
        return None

    def choose_discard(self, obs: Observation, legal: list[Action]) -> int:
        if self.first:
            return self.first.pop(0)
        held = [actions.tile_of(a) for a in actions.find(legal, "discard")]
        plain = [k for k in held if k not in obs.hun]
        return (plain or held)[-1]
