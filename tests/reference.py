"""A deliberately naive scorer for the default rules, written from RULES.md alone.

It shares nothing with the engine: no DSL, no memo, no wild-group domain, no bounds. Every
hun is tried as every one of the 34 kinds, the fourteen tiles are split into groups with
their identities kept (real, hun, winning tile), and each pattern is judged by its RULES.md
sentence. Slow on purpose (use it for hands with at most two hun).
"""
from __future__ import annotations

from itertools import product
from typing import Iterator, NamedTuple

from rulekit.hand import Hand

# an item is (kind, label): label "r" a real tile, "h" a hun, "w" the winning tile (real),
# "hw" the winning tile when it is itself a hun
Item = tuple[int, str]


class Group(NamedTuple):
    shape: str                 # run, set, pair, kong (declared)
    first: int
    items: tuple[Item, ...]
    declared: bool = False


def _groups(items: list[Item], melds: int, pair: bool) -> Iterator[list[Group]]:
    """Every split of `items` (sorted by kind) into `melds` melds and a pair."""
    if not items:
        if melds == 0 and not pair:
            yield []
        return
    first = items[0]
    k = first[0]
    rest = items[1:]
    shapes: list[tuple[str, tuple[int, ...]]] = []
    if pair:
        shapes.append(("pair", (k,)))
    if melds:
        shapes.append(("set", (k, k)))
        if k < 27 and k % 9 <= 6:
            shapes.append(("run", (k + 1, k + 2)))
    for shape, need in shapes:
        for picked, remaining in _pick(rest, list(need)):
            g = Group(shape, k, (first,) + picked)
            for tail in _groups(remaining, melds - (shape != "pair"),
                                pair and shape != "pair"):
                yield [g] + tail


def _pick(items: list[Item], kinds: list[int]) -> Iterator[tuple[tuple[Item, ...], list[Item]]]:
    """Ways to take one item of each kind in `kinds` (labels matter, copies do not)."""
    if not kinds:
        yield (), items
        return
    k = kinds[0]
    seen = set()
    for i, it in enumerate(items):
        if it[0] == k and it not in seen:
            seen.add(it)
            for more, remaining in _pick(items[:i] + items[i + 1:], kinds[1:]):
                yield (it,) + more, remaining


def _fan(groups: list[Group], hand: Hand, hun_held: int) -> float:
    hun_suit = hand.hun[0] // 9 if hand.hun[0] < 27 else 3
    runs = [(g.first // 9, g.first % 9) for g in groups if g.shape == "run"]
    long_suits = [s for s in range(3)
                  if (s, 0) in runs and (s, 3) in runs and (s, 6) in runs]
    long = bool(long_suits)
    ben_hun = hun_suit in long_suits
    win_group = next(g for g in groups if any(it[1] in ("w", "hw") for it in g.items))
    win_item = next(it for it in win_group.items if it[1] in ("w", "hw"))
    others = [it for it in win_group.items if it is not win_item]
    other_hun = sum(1 for it in others if it[1] == "h")
    zhuo_wu = win_item[0] == 4 and win_group.shape == "run" and win_group.first == 3
    hun_diao = win_group.shape == "pair" and other_hun == 1
    shuang = win_group.shape != "pair" and other_hun == 2
    if shuang and win_group.shape == "run" and win_group.first // 9 in long_suits \
            and win_group.first % 9 in (0, 3, 6) \
            and runs.count((win_group.first // 9, win_group.first % 9)) == 1:
        shuang = False                      # the meld is one of the 龍's runs (000/Ⅳ)
    su = hun_held == 0
    core = (3 if zhuo_wu else 0) + (4 if long else 0) or 1
    mult = 1
    for flag in (su, hun_diao or shuang, ben_hun, hand.win_by == "kong_draw"):
        if flag:
            mult *= 2
    if hand.heavenly:
        mult *= 4
    return core * mult


def reference_hand_fan(hand: Hand) -> float | None:
    """The best hand fan under the default rules, or None if not a winning shape."""
    hun = set(hand.hun)
    tiles = list(hand.concealed) + [hand.win_tile]
    hun_held = sum(1 for t in tiles if t in hun)
    wins = sorted(set(tiles)) if hand.heavenly else [hand.win_tile]
    declared = [Group("kong" if m.kind == "kong" else "set", m.tile, (), True)
                for m in hand.melds]
    best: float | None = None
    for win in wins:
        rest = list(tiles)
        rest.remove(win)
        real = [(t, "r") for t in rest if t not in hun]
        n_hun = sum(1 for t in rest if t in hun)
        win_is_hun = win in hun
        for kinds in product(range(34), repeat=n_hun + (1 if win_is_hun else 0)):
            items = real + [(k, "h") for k in kinds[:n_hun]]
            items.append((kinds[-1], "hw") if win_is_hun else (win, "w"))
            items.sort()
            for split in _groups(items, 4 - len(hand.melds), True):
                fan = _fan(split + declared, hand, hun_held)
                if best is None or fan > best:
                    best = fan
    return best
