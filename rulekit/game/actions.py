"""Actions: what a seat answers when the table asks it (docs/bots.md, "Actions").

An action is a small dict of JSON values, as it travels over the bot protocol; a seat's
answer must be equal (`==`) to one of the legal actions it was offered.
"""
from __future__ import annotations

from typing import Any, Final

from rulekit.tiles import NUM_ALL_KINDS, TILE_NAMES

Action = dict[str, Any]

KIND: Final[dict[str, int]] = {TILE_NAMES[k]: k for k in range(NUM_ALL_KINDS)}
"""A tile's name to its kind."""

KONG_KINDS = ("concealed", "golden", "added")


def win() -> Action:
    return {"action": "win"}


def pass_() -> Action:
    return {"action": "pass"}


def discard(k: int) -> Action:
    return {"action": "discard", "tile": TILE_NAMES[k]}


def kong(k: int, kind: str) -> Action:
    """A kong on the seat's own turn: `kind` is "concealed", "golden" or "added"."""
    return {"action": "kong", "tile": TILE_NAMES[k], "kind": kind}


def claim(how: str) -> Action:
    """A claim of the last discard: "pung" or "kong"."""
    return {"action": how}


def sit() -> Action:
    return {"action": "sit"}


def pull(count: int) -> Action:
    return {"action": "pull", "count": count}


def ready() -> Action:
    return {"action": "ready"}


DISCARDS: Final[tuple[Action, ...]] = tuple(discard(k) for k in range(NUM_ALL_KINDS))
"""Every discard action, made once: the procedure offers these and hands out copies."""
WIN: Final[Action] = win()
PASS: Final[Action] = pass_()


def tile_of(a: Action) -> int:
    """The kind an action names (discard, own-turn kong)."""
    return KIND[a["tile"]]


def find(legal: list[Action], action: str) -> list[Action]:
    """The legal actions of one kind, in the order offered."""
    return [a for a in legal if a["action"] == action]
