"""95% confidence intervals: Wilson's for a rate, the normal one for a mean."""
from __future__ import annotations

import math
from typing import Any, Sequence

Z95 = 1.959963984540054


def rate(hits: int, n: int) -> dict[str, Any]:
    """A share with its Wilson 95% interval (sound near 0 and 1, where patterns live)."""
    if n == 0:
        return {"value": 0.0, "low": 0.0, "high": 0.0, "count": 0}
    p = hits / n
    d = 1 + Z95 ** 2 / n
    mid = (p + Z95 ** 2 / (2 * n)) / d
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / d
    return {"value": _r(p), "low": _r(max(0.0, mid - half)), "high": _r(min(1.0, mid + half)),
            "count": hits}


def mean(xs: Sequence[float]) -> dict[str, Any]:
    """A mean with its normal 95% interval (hands are independent draws)."""
    n = len(xs)
    if n == 0:
        return {"value": 0.0, "low": 0.0, "high": 0.0}
    m = math.fsum(xs) / n
    var = math.fsum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n)
    return {"value": _r(m), "low": _r(m - half), "high": _r(m + half)}


def _r(x: float) -> float:
    return round(x, 6)


def shown(ci: dict[str, Any], pct: bool = False) -> str:
    """`0.412 [0.398, 0.426]`, or as percentages."""
    if pct:
        return f"{100 * ci['value']:.2f}% [{100 * ci['low']:.2f}, {100 * ci['high']:.2f}]"
    return f"{ci['value']:.3f} [{ci['low']:.3f}, {ci['high']:.3f}]"
