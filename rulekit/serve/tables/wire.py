"""The messages a seat's WebSocket carries: the bot protocol's (`rulekit.game.protocol`,
docs/bots.md), and two more that only a table sends: `error` (an answer refused: with
`fault`, the fallback played the decision and the connection closes) and, to a client that asked for it with `&view=1`, `state` (what the table
page draws). A bot never gets `state` unless it asks, and must ignore types it does not know.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from rulekit.game.protocol import (ProtocolError, encode, end, event, parse_answer,
                                   request, start)

__all__ = ["ProtocolError", "encode", "end", "event", "parse_answer", "request", "start",
           "error", "state"]


def error(seat: int, message: str, fault: str | None = None) -> dict[str, Any]:
    """An answer the referee refused, and why; `fault` the kind (docs/bots.md) when it was
    the answer to a request, which the fallback then played."""
    out: dict[str, Any] = {"type": "error", "seat": seat, "message": message}
    if fault is not None:
        out["fault"] = fault
    return out


def state(seat: int, snapshot: Mapping[str, Any], legal: Sequence[dict[str, Any]]
          ) -> dict[str, Any]:
    """The table as the page draws it for `seat` (never another seat's concealed tiles)."""
    return {"type": "state", "seat": seat, **snapshot, "legal": list(legal)}
