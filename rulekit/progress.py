"""A one-line progress bar on stderr for long runs (`rulekit test`, `corpus`, `diff`).

It draws only on a terminal and only once a run has lasted a second, so pipes, CI logs and
quick runs stay byte-for-byte clean. Small enough not to need a dependency.
"""
from __future__ import annotations

import sys
import time
from typing import Callable, TextIO


class Progress:
    """Counts work done out of `total`; redraws at most ten times a second."""

    __slots__ = ("total", "label", "done", "_stream", "_start", "_delay", "_clock", "_drawn",
                 "_last", "_enabled")

    def __init__(self, total: int, label: str, *, stream: TextIO | None = None,
                 delay: float = 1.0, enabled: bool | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.total = max(total, 0)
        self.label = label
        self.done = 0
        self._stream = stream if stream is not None else sys.stderr
        self._clock = clock
        self._start = clock()
        self._delay = delay
        self._drawn = False
        self._last = 0.0
        self._enabled = _is_tty(self._stream) if enabled is None else enabled

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def advance(self, n: int = 1) -> None:
        self.done += n
        if not self._enabled:
            return
        now = self._clock()
        if now - self._start < self._delay or (self._drawn and now - self._last < 0.1
                                                and self.done < self.total):
            return
        self._last = now
        self._draw(now)

    def clear(self) -> None:
        """Erase the bar before other output goes to the terminal; the next advance redraws."""
        if self._drawn:
            self._stream.write("\r\x1b[K")
            self._stream.flush()
            self._drawn = False

    def close(self) -> None:
        """Leave the finished bar on its own line (only if it was ever drawn)."""
        if self._drawn:
            self._draw(self._clock())
            self._stream.write("\n")
            self._stream.flush()
            self._drawn = False

    def _draw(self, now: float) -> None:
        self._stream.write("\r" + render(self.label, self.done, self.total, now - self._start))
        self._stream.flush()
        self._drawn = True


def render(label: str, done: int, total: int, elapsed: float, width: int = 24) -> str:
    """`label [#####-----] done/total pct elapsed, eta` as one line."""
    frac = min(done / total, 1.0) if total else 1.0
    filled = int(frac * width)
    eta = elapsed * (1 - frac) / frac if frac > 0 else 0.0
    return (f"{label} [{'#' * filled}{'-' * (width - filled)}] {done}/{total} "
            f"{frac:4.0%} {elapsed:.0f}s, {eta:.0f}s left")


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
