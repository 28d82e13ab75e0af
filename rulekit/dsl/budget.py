"""How many steps one evaluation of one pattern may take (the static work budget's limit).

`walk.cost` counts a pattern's steps; this module says how many are allowed: the library's
`limits.PATTERN_STEPS`, or less inside `stricter` (a server's `--max-work`). Kept apart from
the analyses so that a server can tighten the limit without touching how cost is counted.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from rulekit import limits

_PATTERN_STEPS: ContextVar[int] = ContextVar("pattern_steps", default=limits.PATTERN_STEPS)


def pattern_budget() -> int:
    """The most steps one evaluation of one pattern may take in this context."""
    return _PATTERN_STEPS.get()


@contextmanager
def stricter(pattern_steps: int) -> Iterator[None]:
    """Within the block (in this thread), rulesets that load are held to `pattern_steps` per
    pattern; never more than `limits.PATTERN_STEPS`."""
    token = _PATTERN_STEPS.set(min(pattern_steps, limits.PATTERN_STEPS))
    try:
        yield
    finally:
        _PATTERN_STEPS.reset(token)
