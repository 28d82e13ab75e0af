"""`rulekit serve`: flags → limits → uvicorn. Binds to loopback unless told otherwise."""
from __future__ import annotations

import argparse
import gc
import sys
from dataclasses import replace
from pathlib import Path
from typing import TextIO

import uvicorn

from rulekit.errors import RulekitError
from rulekit.serve.app import create_app
from rulekit.serve.limits import ServeConfig, ServeLimits
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
             "work": ("--max-work", args.max_work), "workers": ("--workers", args.workers)}
    for key, (flag, value) in given.items():
        if value is not None:
            if value <= 0:
                raise ServeError(f"serve: {flag} must be positive")
            lim = replace(lim, **{key: value})
    folder = None
    if args.rulesets:
        folder = Path(args.rulesets)
        if not folder.is_dir():
            raise ServeError(f"serve: --rulesets {args.rulesets}: not a directory")
    return ServeConfig(limits=lim, rulesets_dir=folder)


def tables_from(args: argparse.Namespace) -> TablesConfig:
    """`--db`, `--max-tables`, `--think-time`: where tables are kept and their bounds."""
    tc = TablesConfig(db=getattr(args, "db", None) or str(default_path()))
    for key, flag in (("max_tables", "max_tables"), ("think_time", "think_time")):
        value = getattr(args, flag, None)
        if value is not None:
            if value <= 0:
                raise ServeError(f"serve: --{flag.replace('_', '-')} must be positive")
            tc = replace(tc, **{key: value})
    return tc


def run(args: argparse.Namespace, out: TextIO) -> int:
    config = config_from(args)
    try:
        app = create_app(config, tables_from(args))
    except StoreError as err:
        raise ServeError(str(err)) from None
    n = len(app.state.registry.entries)
    sys.stderr.write(f"rulekit serve: http://{args.host}:{args.port}/ ({n} rulesets; "
                     f"API docs at /docs)\n")
    # what is loaded now (modules, the rulesets) lives as long as the server: left out of
    # every collection, a full one walks only what requests made (bench/score.py --freeze:
    # a 7-hun 天和's worst time 29-37 ms -> 9 ms, as `score --jsonl` does in batch.py)
    gc.freeze()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                access_log=False, server_header=False,
                ws_max_size=MAX_MESSAGE)          # a seat's message is one small action
    return 0
