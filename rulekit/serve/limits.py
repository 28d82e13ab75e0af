"""What one request may cost the server: each bound is a `rulekit serve` flag.

The defaults are generous for a club's calculator and a game server's batches, and small
enough that a hostile request is refused in milliseconds while the others keep being served.
What a JSON document or a ruleset may hold (nesting, numbers, YAML) is the library's
`rulekit.limits`, the same for the CLI and the server, and is not repeated here.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rulekit import limits as lib


@dataclass(frozen=True, slots=True)
class ServeLimits:
    body_bytes: int = 1024 * 1024          # one request body (a batch included)
    ruleset_bytes: int = 64 * 1024         # one inline `ruleset_yaml` overlay
    batch: int = 1000                      # documents in one `/v1/score:batch`
    seconds: float = 5.0                   # wall time of one request's scoring
    work: int = lib.PATTERN_STEPS          # steps of one pattern of an inline overlay (the
    #                                        library's budget, dsl/walk.py and dsl/budget.py; never more)
    cache: int = 128                       # compiled inline rulesets kept (LRU)
    workers: int = 4                       # threads that score


@dataclass(frozen=True, slots=True)
class ServeConfig:
    limits: ServeLimits = ServeLimits()
    rulesets_dir: Path | None = None       # `--rulesets DIR`: more rulesets served by name
