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
    cache: int = 64                        # compiled inline rulesets kept (LRU, per process)
    threads: int = 4                       # threads that score named rulesets
    processes: int = 2                     # worker processes for inline overlays (pool.py)
    worker_memory: int = 512 * 1024 * 1024  # an overlay worker past this RSS is replaced
    # HTTP (http.py): a request's headers, then its body, must arrive within these; an idle
    # keep-alive connection is closed after `keep_alive`; past `connections` open, the one
    # waiting longest for its headers is closed (protocol.py)
    header_seconds: float = 10.0
    body_seconds: float = 10.0
    keep_alive: float = 5.0
    connections: int = 512


LOOPBACK = ("127.0.0.1", "localhost", "::1")


@dataclass(frozen=True, slots=True)
class ServeConfig:
    limits: ServeLimits = ServeLimits()
    rulesets_dir: Path | None = None       # `--rulesets DIR`: more rulesets served by name
    # the names a request's Host may give (port aside; "*" allows any). A name not listed is
    # a 421: a page elsewhere whose name resolves to this server (DNS rebinding) gets
    # nothing. `rulekit serve` sets loopback, --host and each --allow-host (main.py); an
    # application made in process also answers Starlette's TestClient ("testserver")
    allowed_hosts: tuple[str, ...] = (*LOOPBACK, "testserver")
