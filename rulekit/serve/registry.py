"""Which rulesets a server offers, by name, and the compiled inline overlays it has seen.

Requests never name files: a name is looked up among the built-ins and the `*.yaml` files of
`--rulesets DIR` (listed once, at start); anything else is a 404. An overlay is compiled once
per distinct text (its SHA-256) and kept in a bounded LRU, so a table's pasted rules cost one
compile however often its players score.
"""
from __future__ import annotations

import hashlib
import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from rulekit import api
from rulekit.dsl import budget
from rulekit.errors import RulesetError
from rulekit.ruleset import resolve
from rulekit.ruleset.model import Ruleset, load_text
from rulekit.serve import inline
from rulekit.serve.errors import ApiError, first_problem, hide_paths
from rulekit.serve.limits import ServeConfig

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
RECHECK_NS = api.NAME_RECHECK_NS       # how long a ruleset by name is served unchecked


@dataclass(frozen=True, slots=True)
class Entry:
    name: str
    origin: str          # "builtin" or "served"
    path: Path


class Registry:
    """Rulesets by name; inline overlays by content hash. Safe to share between threads."""

    def __init__(self, config: ServeConfig) -> None:
        self.limits = config.limits
        self.entries: dict[str, Entry] = {}
        for name in resolve.builtin_names():
            self.entries[name] = Entry(name, "builtin", resolve.locate(name))
        self.served: dict[str, Path] = {}
        if config.rulesets_dir is not None:
            hide_paths(config.rulesets_dir, "")          # a served file is named by its name
            for path in sorted(config.rulesets_dir.glob("*.yaml")):
                if NAME.fullmatch(path.stem) and path.stem not in self.entries:
                    self.entries[path.stem] = Entry(path.stem, "served", path)
                    self.served[path.stem] = path
        self._inline: OrderedDict[str, Ruleset] = OrderedDict()
        self._lock = threading.Lock()
        # name → its ruleset and when its files are next checked: a request by name is a
        # dict lookup (resolving and statting the chain cost 57-80 µs, more than scoring a
        # typical hand); an edited file is still seen within RECHECK_NS
        self._loaded: dict[str, tuple[Ruleset, int]] = {}

    def names(self) -> list[Entry]:
        return list(self.entries.values())

    def get(self, name: object, field: str = "ruleset") -> Ruleset:
        """A served ruleset by name: 400 for a name that could be a path, 404 if unknown."""
        if not isinstance(name, str) or not NAME.fullmatch(name):
            raise ApiError(400, field, "a ruleset name is letters, digits, '-' and '_' "
                                       "(requests never name files)")
        hit = self._loaded.get(name)
        if hit is not None and time.monotonic_ns() < hit[1]:
            return hit[0]
        entry = self.entries.get(name)
        if entry is None:
            raise ApiError(404, field, f"no ruleset named '{name}'; GET /v1/rulesets lists "
                                       f"them")
        try:
            rs = api.load_ruleset(entry.path)
        except RulesetError as err:        # a served file broken since the server started
            self._loaded.pop(name, None)
            raise ApiError(422, field, first_problem(err.problems), err.problems) from None
        self._loaded[name] = (rs, time.monotonic_ns() + RECHECK_NS)
        return rs

    def ready(self, name: object) -> Ruleset | None:
        """The ruleset `get(name)` answers when it is loaded and fresh, else None: never
        reads a file (the event loop asks it, `cheap.py`)."""
        hit = self._loaded.get(name) if isinstance(name, str) else None
        return hit[0] if hit is not None and time.monotonic_ns() < hit[1] else None

    def inline(self, text: object) -> Ruleset:
        """Compile an overlay (cached by content hash); 413/422 with its lines when refused."""
        if not isinstance(text, str):
            raise ApiError(400, inline.FIELD, "must be the text of a YAML ruleset")
        key = hashlib.sha256(text.encode("utf-8")).hexdigest()
        with self._lock:
            hit = self._inline.get(key)
            if hit is not None:
                self._inline.move_to_end(key)
                return hit
        prepared = inline.prepare(text, self.limits, [e.name for e in self.entries.values()
                                                      if e.origin == "builtin"], self.served)
        try:
            with budget.stricter(self.limits.work):      # `--max-work`, in the library's check
                rs = load_text(prepared.text, prepared.base, inline.SHOWN)
        except RulesetError as err:
            raise ApiError(422, inline.FIELD, first_problem(err.problems), err.problems) from None
        except RecursionError:
            raise ApiError(422, inline.FIELD, "the overlay nests too deeply") from None
        with self._lock:
            self._inline[key] = rs
            while len(self._inline) > self.limits.cache:
                self._inline.popitem(last=False)
        return rs

    def forget_inline(self) -> None:
        """Drop every compiled overlay (a worker's warm-up leaves none behind)."""
        with self._lock:
            self._inline.clear()

    def cached(self) -> int:
        with self._lock:
            return len(self._inline)

    def pick(self, request: dict[str, object], default: str | None = None) -> Ruleset:
        """The ruleset a request asks for: `ruleset` by name or `ruleset_yaml` inline."""
        if "ruleset_yaml" in request and request["ruleset_yaml"] is not None:
            if request.get("ruleset") is not None:
                raise ApiError(400, "ruleset", "give `ruleset` or `ruleset_yaml`, not both")
            return self.inline(request["ruleset_yaml"])
        return self.get(request.get("ruleset", default or api.DEFAULT_RULESET))
