"""Greedy's discard order: deficiency first, then how connected a tile is. Pure functions
of the seat's counts, kept apart from the players so that they compile with the hot path
(setup.py HOT_PATH): greedy asks them at every discard."""
from __future__ import annotations

from rulekit import shape


def _keep_value(c: list[int], k: int) -> int:
    """How connected a tile is (neighbours within two in its suit; pairs for honours):
    among equally good discards the least connected goes first."""
    if k >= 27:
        return c[k] - 1
    r = k % 9
    base = k - r
    lo = base + (r - 2 if r >= 2 else 0)
    hi = base + (r + 3 if r <= 6 else 9)
    total = -c[k]
    for j in range(lo, hi):
        total += c[j]
    return total


def ranked_discards(c: list[int], h: int, m: int) -> list[tuple[int, int, int]]:
    """(deficiency after, connectedness, kind) for each non-hun kind held, best first."""
    out = []
    for k in range(34):
        if c[k]:
            c[k] -= 1
            d = shape.deficiency(c, h, m)
            c[k] += 1
            out.append((d, _keep_value(c, k), k))
    out.sort()
    return out


def greedy_discard(c: list[int], h: int, m: int) -> tuple[int, int] | None:
    """(kind, deficiency after) of `ranked_discards(...)[0]`, with fewer deficiency calls:
    a 14-tile hand that does not win has a tile its best reading leaves unused, so the best
    discard reaches max(deficiency of the 14, 1); the least connected tile that does wins."""
    kinds = [k for k in range(34) if c[k]]
    if not kinds:
        return None
    target = max(shape.deficiency(c, h, m), 1)
    order = sorted(kinds, key=lambda k: _keep_value(c, k) * 64 + k) if len(kinds) > 1 \
        else kinds
    best = (order[0], 99)
    for k in order:
        c[k] -= 1
        d = shape.deficiency(c, h, m)
        c[k] += 1
        if d == target:
            return k, d
        if d < best[1]:
            best = (k, d)
    return best
