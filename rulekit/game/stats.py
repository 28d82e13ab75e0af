"""95% intervals: Wilson's for a rate (sound near 0 and 1, where rare patterns live), the
bootstrap over sessions for money and paired differences (hands of a session share a dealer
sequence, so they are not independent draws), quantiles for distributions."""
from __future__ import annotations

import math
import random
import sys
from array import array
from operator import itemgetter
from typing import Any, Sequence

Z95 = 1.959963984540054
RESAMPLES = 1000               # bootstrap resamples, fewer for very many sessions
RESAMPLE_WORK = 2_000_000      # at most this many session draws per statistic


def rate(hits: int, n: int) -> dict[str, Any]:
    """A share with its Wilson 95% interval."""
    if n == 0:
        return {"value": 0.0, "low": 0.0, "high": 0.0, "count": 0}
    p = hits / n
    d = 1 + Z95 ** 2 / n
    mid = (p + Z95 ** 2 / (2 * n)) / d
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / d
    return {"value": _r(p), "low": _r(max(0.0, mid - half)), "high": _r(min(1.0, mid + half)),
            "count": hits}


def mean(xs: Sequence[float]) -> dict[str, Any]:
    """A mean with its normal 95% interval (for independent values: `replay`'s hands)."""
    n = len(xs)
    if n == 0:
        return {"value": 0.0, "low": 0.0, "high": 0.0}
    m = math.fsum(xs) / n
    var = math.fsum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n)
    return {"value": _r(m), "low": _r(m - half), "high": _r(m + half)}


class Sessions:
    """The bootstrap over sessions: each resample draws as many sessions as there are, with
    replacement, and a statistic is the ratio of its sums over the drawn sessions (a mean
    per hand, or per changed hand). The draws come from a seeded generator and are shared by
    every statistic, so a report is reproducible and its intervals are coherent.

    Made once a report, after the hands are played: the command's parent does it alone, so
    its cost is serial (docs/game.md, "Speed"). The draws are `random.Random.randrange`'s,
    made in bulk (`draws`), and a resample's sum is an exact `math.fsum` of the drawn
    sessions' sums picked by one `itemgetter` a resample (the order of an exact sum does not
    matter): the same numbers as drawing and summing one at a time, in about a third of the
    time."""

    def __init__(self, session_of: Sequence[int], seed: object) -> None:
        ids = sorted(set(session_of))
        index = {s: i for i, s in enumerate(ids)}
        self.of = [index[s] for s in session_of]
        self.count = len(ids)
        reps = min(RESAMPLES, max(200, RESAMPLE_WORK // max(1, self.count)))
        if self.count <= 1:
            reps = 0                # one session: nothing to resample
        rng = random.Random(f"rulekit.bootstrap:{seed}")
        flat = draws(rng, self.count, reps * self.count)
        c = self.count
        self._picks = [itemgetter(*flat[j * c:(j + 1) * c]) for j in range(reps)]
        self._per_hand: list[float] | None = None      # each resample's hands, made once

    def sums(self, xs: Sequence[float]) -> list[float]:
        out = [0.0] * self.count
        for s, x in zip(self.of, xs):
            out[s] += x
        return out

    def ratio(self, xs: Sequence[float], per: Sequence[float] | None = None
              ) -> dict[str, Any]:
        """sum(xs) / sum(per) (per: 1 a hand when None) with its 95% bootstrap interval."""
        num = self.sums(xs)
        den = self.sums(per) if per is not None else self.sums([1.0] * len(self.of))
        total = math.fsum(den)
        value = math.fsum(num) / total if total else 0.0
        if per is None:
            if self._per_hand is None:
                self._per_hand = self._resampled(den)
            dens = self._per_hand
        else:
            dens = self._resampled(den)
        got = [a / d for a, d in zip(self._resampled(num), dens) if d]
        if not got:
            return {"value": _r(value), "low": _r(value), "high": _r(value)}
        got.sort()
        return {"value": _r(value), "low": _r(quantile(got, 0.025)),
                "high": _r(quantile(got, 0.975))}


    def _resampled(self, sums: list[float]) -> list[float]:
        """Each resample's exact sum of the sessions' `sums` (`math.fsum` is correctly
        rounded, so the order of the picked sums does not matter)."""
        fsum = math.fsum
        return [fsum(pick(sums)) for pick in self._picks]


WORD_BITS = 32


def draws(rng: random.Random, n: int, count: int) -> list[int]:
    """`[rng.randrange(n) for _ in range(count)]`, the same numbers, drawn in bulk.

    CPython's `randrange(n)` takes `k = n.bit_length()` bits a try, a try of at most 32 bits
    being the top `k` bits of one 32-bit word of the generator, and tries again while the
    value is `n` or more; `getrandbits(32 * m)` is `m` such words in order, the first the
    lowest. So the words of one big draw, each shifted, give the same tries in the same
    order (tests/test_stats_draws.py compares them with `randrange` itself). Words left over
    at the end are drawn but unused: the generator is this object's own."""
    k = n.bit_length()
    if count <= 0 or not 0 < k <= WORD_BITS:        # not a one-word try: one at a time
        return [rng.randrange(n) for _ in range(max(0, count))]
    out: list[int] = []
    while len(out) < count:
        want = count - len(out)
        words = want + want // 2 + 16               # a try is kept with odds over 1/2
        raw = rng.getrandbits(WORD_BITS * words).to_bytes(4 * words, "little")
        out.extend(_tries(raw, k, n))
    del out[count:]
    return out


def _tries(raw: bytes, k: int, n: int) -> list[int]:
    """The kept tries of `k` bits below `n` of the little-endian 32-bit words `raw`."""
    shift = WORD_BITS - k
    if k <= 8:                      # each word's top byte, shifted and sifted by C loops
        table = bytes(b >> (8 - k) for b in range(256))
        rejected = bytes(b for b in range(256) if b >> (8 - k) >= n)
        return list(raw[3::4].translate(table, rejected))
    words = array("I")                      # 32 bits on every platform CPython builds for
    words.frombytes(raw)
    if sys.byteorder == "big":              # the words were written lowest byte first
        words.byteswap()
    limit = n << shift
    return [w >> shift for w in words if w < limit]


def quantile(sorted_xs: Sequence[float], q: float) -> float:
    """The q-quantile of sorted values, interpolated linearly."""
    if not sorted_xs:
        return 0.0
    pos = q * (len(sorted_xs) - 1)
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(sorted_xs) - 1)
    return sorted_xs[lo] + (sorted_xs[hi] - sorted_xs[lo]) * (pos - lo)


QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def spread(xs: Sequence[float]) -> dict[str, Any]:
    """A distribution in a few numbers: worst, quantiles, best."""
    s = sorted(xs)
    return {"worst": _r(s[0]) if s else 0.0, "best": _r(s[-1]) if s else 0.0,
            "quantiles": {f"{int(q * 100)}%": _r(quantile(s, q)) for q in QUANTILES}}


def _r(x: float) -> float:
    y = round(x, 6)
    return 0.0 if y == 0 else y            # never -0.0


def num(x: float, digits: int = 3) -> str:
    """A number for people: fixed digits, never `-0.000`."""
    text = f"{x:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def signed(x: float, digits: int = 3) -> str:
    """A difference for people: `+0.125`, `-0.031`, `0.000`."""
    text = num(x, digits)
    return "+" + text if float(text) > 0 else text


def shown(ci: dict[str, Any], pct: bool = False, sign: bool = False) -> str:
    """`0.412 [0.398, 0.426]`, or as percentages; `sign` marks a difference with + or -."""
    if pct:
        return (f"{num(100 * ci['value'], 2)}% [{num(100 * ci['low'], 2)}, "
                f"{num(100 * ci['high'], 2)}]")
    head = signed(ci["value"]) if sign else num(ci["value"])
    return f"{head} [{num(ci['low'])}, {num(ci['high'])}]"
