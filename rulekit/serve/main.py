"""`rulekit serve`: flags → limits → uvicorn. Binds to loopback unless told otherwise."""
from __future__ import annotations

import argparse
import gc
import json
import os
import socket
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

import uvicorn

from rulekit.errors import RulekitError
from rulekit.game import recordkey
from rulekit.serve import worker
from rulekit.serve.app import create_app
from rulekit.serve.limits import LOOPBACK, ServeConfig, ServeLimits
from rulekit.serve.protocol import (guarded_protocol, quiet_logs, raise_open_files,
                                    uvicorn_options)
from rulekit.serve.tables import TablesConfig
from rulekit.serve.tables.routes import MAX_MESSAGE
from rulekit.serve.tables.store import StoreError, default_path


class ServeError(RulekitError):
    """A bad `rulekit serve` flag."""


def config_from(args: argparse.Namespace) -> ServeConfig:
    lim = ServeLimits()
    given = {"body_bytes": ("--max-body", args.max_body),
             "ruleset_bytes": ("--max-ruleset", args.max_ruleset),
             "batch": ("--max-batch", args.max_batch), "seconds": ("--timeout", args.timeout),
             "work": ("--max-work", args.max_work),
             "threads": ("--threads", getattr(args, "threads", None)),
             "processes": ("--processes", getattr(args, "processes", None)),
             "header_seconds": ("--read-timeout", getattr(args, "read_timeout", None)),
             "body_seconds": ("--read-timeout", getattr(args, "read_timeout", None)),
             "connections": ("--max-connections", getattr(args, "max_connections", None))}
    for key, (flag, value) in given.items():
        if value is not None:
            if not value > 0 or value > 1e9:
                raise ServeError(f"serve: {flag} must be positive")
            lim = replace(lim, **{key: value})
    workers = getattr(args, "workers", None)
    if workers is not None and not 0 < workers <= 64:
        raise ServeError("serve: --workers must be between 1 and 64")
    folder = None
    if args.rulesets:
        folder = Path(args.rulesets)
        if not folder.is_dir():
            raise ServeError(f"serve: --rulesets {args.rulesets}: not a directory")
    return ServeConfig(limits=lim, rulesets_dir=folder,
                       allowed_hosts=allowed_hosts(args.host, getattr(args, "allow_host", [])))


WILDCARDS = ("0.0.0.0", "::", "")


def allowed_hosts(bound: str, extra: list[str]) -> tuple[str, ...]:
    """The names a request's Host may give: loopback, the bound address, `--allow-host`s;
    bound to every address, this machine's name and the addresses it resolves to as well."""
    names = [*LOOPBACK, bound.strip("[]").lower(), *(e.strip().lower() for e in extra)]
    if bound in WILDCARDS:
        try:
            me = socket.gethostname()
            names += [me.lower(), socket.getfqdn(me).lower()]
            names += [str(info[4][0]) for info in socket.getaddrinfo(me, None)]
        except OSError:              # pragma: no cover - a machine without a name
            pass
    return tuple(dict.fromkeys(n for n in names if n and n not in WILDCARDS))


ENV = "RULEKIT_SERVE_CONFIG"
"""How `--workers N` hands the configuration to each server process (JSON, `worker.settings`)."""


def app_from_environment() -> Any:
    """The application of one server process of `--workers N` (uvicorn's factory): the
    configuration the parent wrote to the environment, the same guards."""
    config = worker.config_of(json.loads(os.environ[ENV]))
    guarded_protocol(config.limits)
    quiet_logs("uvicorn.error", "asyncio")
    raise_open_files(4 * config.limits.connections)
    # a live table lives in one process: N processes would each resume every table
    return create_app(config, TablesConfig(enabled=False))


def tables_from(args: argparse.Namespace) -> TablesConfig:
    """`--db`, `--max-tables`, `--think-time`, `--bot-time`, `--key-file`: where tables are
    kept, their bounds and the key their records are sealed with."""
    tc = TablesConfig(db=getattr(args, "db", None) or str(default_path()))
    # `--key-file`: a bad one stops the start, not the first hand's end; this process's
    # tables seal with it (records.hand_record reads $RULEKIT_KEY_FILE)
    sealer = recordkey.load_or_create(getattr(args, "key_file", None))
    os.environ[recordkey.ENV] = os.path.abspath(sealer.path)
    for key, flag in (("max_tables", "max_tables"), ("think_time", "think_time"),
                      ("bot_time", "bot_time")):
        value = getattr(args, flag, None)
        if value is not None:
            if value <= 0:
                raise ServeError(f"serve: --{flag.replace('_', '-')} must be positive")
            tc = replace(tc, **{key: value})
    return tc


def run(args: argparse.Namespace, out: TextIO) -> int:
    config = config_from(args)
    if (getattr(args, "workers", None) or 1) > 1:
        return run_processes(args, config)
    try:
        app = create_app(config, tables_from(args))
    except StoreError as err:
        raise ServeError(str(err)) from None
    n = len(app.state.registry.entries)
    sys.stderr.write(f"rulekit serve: http://{args.host}:{args.port}/ ({n} rulesets; "
                     f"API docs at /docs)\n")
    if "*" not in config.allowed_hosts:
        sys.stderr.write(f"rulekit serve: answering requests for "
                         f"{', '.join(config.allowed_hosts)} (--allow-host NAME adds one)\n")
    raise_open_files(4 * config.limits.connections)
    # under attack the log must not become the work: one line per event, a few a second
    quiet_logs("uvicorn.error", "asyncio")
    # what is loaded now (modules, the rulesets) lives as long as the server: left out of
    # every collection, a full one walks only what requests made (bench/score.py --freeze:
    # a 7-hun 天和's worst time 29-37 ms -> 9 ms, as `score --jsonl` does in batch.py)
    gc.freeze()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                access_log=False, server_header=False, ws_max_size=MAX_MESSAGE,
                **uvicorn_options(config.limits))
    return 0


def run_processes(args: argparse.Namespace, config: ServeConfig) -> int:
    """`--workers N`: N server processes on one socket (uvicorn's supervisor), each with
    its threads and its own overlay pool."""
    os.environ[ENV] = json.dumps(worker.settings(config))
    sys.stderr.write(f"rulekit serve: http://{args.host}:{args.port}/ ({args.workers} server "
                     f"processes; API docs at /docs; no live tables: a table needs one process)\n")
    quiet_logs("uvicorn.error", "asyncio")
    options = {**uvicorn_options(config.limits), "http": "rulekit.serve.protocol:Guarded"}
    uvicorn.run("rulekit.serve.main:app_from_environment", factory=True,
                workers=args.workers, host=args.host, port=args.port, log_level="warning",
                access_log=False, server_header=False, **options)
    return 0
