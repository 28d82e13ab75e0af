"""Live tables in `rulekit serve` (docs/serve.md, "Tables"): people and bots play hands under
the ruleset a table picked, each seat over its own WebSocket, everything kept in SQLite.

`Tables(config, registry, tables_config)` owns the store, the tables in play and their
threads; `app.py` mounts `tables.routes()` and calls `startup`/`shutdown` in its lifespan.
"""
from __future__ import annotations

from rulekit.serve.tables import routes
from rulekit.serve.tables.hall import Tables, TablesConfig

__all__ = ["Tables", "TablesConfig", "routes"]
