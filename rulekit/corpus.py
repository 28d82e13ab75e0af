"""Seeded random winning hands, for benchmarks, rule diffs and property tests.

Hands are built the way a winning hand is: four melds and a pair first, then some tiles are
swapped for hun (a swap never breaks a winning shape), so every document is valid and a
winning shape. Biases make every default pattern show up (龍, 捉5, 混吊, 天和, 杠開, ...);
the generator itself knows tile shapes only, not what they are worth.
"""
from __future__ import annotations

import random
from math import comb
from typing import Any, Iterator

from rulekit.codes import (HONOR_START, LAST_RUN_RANK, NUM_KINDS, SUIT_BASES, SUIT_SIZE, TIAO_START,
                           TONG_START, WAN_START)
from rulekit.tiles import hun_kinds, tile_name

_RUN_STARTS = [base + r for base in SUIT_BASES[:3] for r in range(LAST_RUN_RANK + 1)]


class _Builder:
    def __init__(self, rng: random.Random, indicator: int) -> None:
        self.rng = rng
        self.indicator = indicator
        self.used = [0] * NUM_KINDS
        self.used[indicator] = 1          # the indicator is face up on the wall

    def take(self, kinds: list[int]) -> bool:
        for k in kinds:
            self.used[k] += 1
        if any(self.used[k] > 4 for k in kinds):
            for k in kinds:
                self.used[k] -= 1
            return False
        return True

    def random_meld(self) -> list[int]:
        if self.rng.random() < 0.55:
            s = self.rng.choice(_RUN_STARTS)
            return [s, s + 1, s + 2]
        k = self.rng.randrange(NUM_KINDS)
        return [k, k, k]


def dealt_hun_weights(hun_tiles: int = 7, wall: int = 135, hand: int = 14) -> list[float]:
    """P(k hun) for fourteen tiles drawn from the wall: how often real hands hold k hun.

    7 hun tiles (the indicator's other 3 and the successor's 4) among 135 unseen tiles.
    """
    total = comb(wall, hand)
    return [comb(hun_tiles, k) * comb(wall - hun_tiles, hand - k) / total
            for k in range(hun_tiles + 1)]


# The default mix stresses the scorer: half the hands draw their hun count uniformly.
STRESS = "stress"
DEALT = "dealt"


def random_hand(rng: random.Random, *, hun_kinds_count: int = 2, max_hun: int = 8,
                heavenly_rate: float = 0.03, hun_target: int | None = None,
                mix: str = STRESS) -> dict[str, Any]:
    """One valid winning-shape hand document.

    `hun_target` asks for that many hun (fewer if the hand's shape cannot take them);
    otherwise `mix` picks it: STRESS (half uniform over 0..max_hun) or DEALT (as dealt).
    """
    while True:
        target = hun_target
        if target is None:
            if mix == DEALT:
                target = rng.choices(range(8), weights=dealt_hun_weights())[0]
            elif rng.random() < 0.5:
                target = rng.choice(range(max_hun + 1))
            else:
                target = rng.choice((0, 0, 1, 1, 2))
        doc = _attempt(rng, hun_kinds_count, target, heavenly_rate)
        if doc is not None:
            return doc


def _attempt(rng: random.Random, hun_kinds_count: int, target: int,
             heavenly_rate: float) -> dict[str, Any] | None:
    indicator = rng.randrange(NUM_KINDS)
    hun = hun_kinds(indicator, hun_kinds_count)
    b = _Builder(rng, indicator)
    groups: list[list[int]] = []
    style = rng.random()
    if style < 0.25:                                  # a 龍 in some suit
        s = (rng.choice((WAN_START, TONG_START, TIAO_START)) if rng.random() < 0.6
             else hun[0] // SUIT_SIZE * SUIT_SIZE)
        if s >= HONOR_START:
            s = 0
        for r in (0, 3, 6):
            groups.append([s + r, s + r + 1, s + r + 2])
    if rng.random() < 0.2:                            # a 4-5-6萬 run
        groups.append([3, 4, 5])
    while len(groups) < 4:
        groups.append(b.random_meld())
    groups = groups[:4]
    pair_kind = rng.randrange(NUM_KINDS)
    for g in groups:
        if not b.take(g):
            return None
    if not b.take([pair_kind, pair_kind]):
        return None

    # declared melds: some sets become pungs or kongs (never of hun, except a 金杠)
    heavenly = rng.random() < heavenly_rate
    melds: list[dict[str, Any]] = []
    concealed_groups: list[list[int]] = []
    for g in groups:
        is_set = g[0] == g[1]
        if not heavenly and is_set and g[0] not in hun and rng.random() < 0.45:
            if rng.random() < 0.5 and b.used[g[0]] < 4:
                b.used[g[0]] += 1
                melds.append({"kind": "kong", "tiles": _tiles([g[0]] * 4),
                              "concealed": rng.random() < 0.4})
            else:
                melds.append({"kind": "pung", "tiles": _tiles(g)})
        else:
            concealed_groups.append(g)
    if not heavenly and hun[-1] != indicator and rng.random() < 0.04 and len(melds) < 3:
        golden = hun[-1]
        if b.used[golden] == 0 and concealed_groups:
            b.used[golden] = 4
            for k in concealed_groups.pop():
                b.used[k] -= 1
            melds.append({"kind": "kong", "tiles": _tiles([golden] * 4), "concealed": True})
    concealed = [k for g in concealed_groups for k in g] + [pair_kind, pair_kind]
    if len(melds) + len(concealed_groups) != 4:
        return None

    # swap some tiles for hun tiles, up to `target` in all
    rng.shuffle(concealed)
    have = sum(1 for k in concealed if k in hun)
    if have > target:
        return None
    for i, k in enumerate(concealed):
        if have >= target:
            break
        if k in hun:
            continue
        options = [h for h in hun if b.used[h] < 4]   # the wall's indicator is counted
        if not options:
            break
        h = rng.choice(options)
        b.used[h] += 1
        b.used[k] -= 1
        concealed[i] = h
        have += 1

    win_index = rng.randrange(len(concealed))
    if rng.random() < 0.15:                           # bias towards 5萬 and hun as the draw
        for i, k in enumerate(concealed):
            if k == 4 or k in hun:
                win_index = i
                break
    win_tile = concealed.pop(win_index)
    kongs = [m for m in melds if m["kind"] == "kong"]
    win_by = "kong_draw" if kongs and rng.random() < 0.5 else "self_draw"
    doc: dict[str, Any] = {
        "indicator": tile_name(indicator),
        "hand": _tiles(concealed),
        "melds": melds,
        "win_tile": tile_name(win_tile),
        "win_by": win_by,
    }
    if heavenly:
        doc["heavenly"] = True
    return doc


def _tiles(kinds: list[int]) -> str:
    from rulekit.tiles import format_tiles
    return format_tiles(tuple(kinds))


def settle_doc(rng: random.Random, hand: dict[str, Any] | None, *, hun_kinds_count: int = 2,
               players: int = 4) -> dict[str, Any]:
    """A valid settle document around `hand` (its winner's seat), or a draw when None.

    Dealer, 坐莊, 拉莊 (0..2 per seat), other seats' kongs and 鏟 vary, so that a diff sees
    settlement and 鏟 edits. A 天和 is always the dealer's (only the dealer can have one).
    """
    dealer = rng.randrange(players)
    pulls = [0 if s == dealer else rng.choice((0, 0, 1, 2)) for s in range(players)]
    kongs: list[list[str]] = [[] for _ in range(players)]
    doc: dict[str, Any] = {"dealer": dealer, "dealer_sits": rng.random() < 0.5,
                           "pulls": pulls, "winner": None, "kongs": kongs,
                           "chan": rng.random() < 0.2}
    winner = None
    if hand is not None:
        winner = dealer if hand.get("heavenly") or rng.random() < 1 / players \
            else rng.choice([s for s in range(players) if s != dealer])
        doc["winner"], doc["hand"] = winner, hand
        kongs[winner] = _kong_types(hand, hun_kinds_count)
    for s in range(players):
        if s != winner and rng.random() < 0.15:
            kongs[s].append(rng.choice(("exposed", "exposed", "concealed")))
    return doc


def _kong_types(hand: dict[str, Any], hun_kinds_count: int) -> list[str]:
    """The winner's kongs as a settle document lists them: 金杠 for a concealed hun kong."""
    from rulekit.tiles import parse_tiles
    hun = hun_kinds(parse_tiles(hand["indicator"])[0], hun_kinds_count)
    out = []
    for m in hand.get("melds", ()):
        if m["kind"] != "kong":
            continue
        golden = m.get("concealed") and parse_tiles(m["tiles"])[0] in hun
        out.append("golden" if golden else "concealed" if m.get("concealed") else "exposed")
    return out


def corpus(count: int, seed: int, *, heavy_share: float = 0.01, settle_share: float = 0.0,
           **kw: Any) -> Iterator[dict[str, Any]]:
    """`count` documents; the same seed always gives the same corpus.

    Hun counts follow the deal (DEALT), except a `heavy_share` of hands whose count is drawn
    uniformly from 0..7, so that rich-hun hands (rare at a real table) are always covered.
    A `settle_share` of the documents are settle documents (a tenth of them draws) around the
    hand that would have stood there; the hands are the same with or without it.
    """
    rng = random.Random(seed)
    settle_rng = random.Random(f"settle {seed}")
    for i in range(count):
        if "mix" in kw or "hun_target" in kw:
            doc = random_hand(rng, **kw)
        elif rng.random() < heavy_share:
            doc = random_hand(rng, hun_target=rng.randrange(8), **kw)
        else:
            doc = random_hand(rng, mix=DEALT, **kw)
        if settle_share and settle_rng.random() < settle_share:
            hand = None if settle_rng.random() < 0.1 else doc
            doc = settle_doc(settle_rng, hand,
                             hun_kinds_count=kw.get("hun_kinds_count", 2))
            doc["id"] = f"s{seed}-{i}"
        else:
            doc["id"] = f"h{seed}-{i}"
        yield doc
