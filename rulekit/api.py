"""The library's entry points; the CLI, a game server or an HTTP service call these."""
from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Iterable, Mapping

from rulekit.waits import Wait, scored_waits as _scored_waits_of, waits as _waits_of
from rulekit.hand import Hand
from rulekit import resources
from rulekit.ruleset import resolve
from rulekit.ruleset.model import Ruleset, load
from rulekit.scoring import ScoreResult, score_document, score_hand

if TYPE_CHECKING:
    from rulekit.settlement import SettleResult

DEFAULT_RULESET = "tianjin"
RulesetRef = str | Path | Ruleset

# One file of a ruleset's `extends` chain as it was read: path, mtime_ns, size, sha256.
Stamp = tuple[str, int, int, bytes]
CACHE_SIZE: Final = 64
# A file modified within this long before it was read may be modified again within the
# same timestamp tick (coarse clocks, 1-2 s on some filesystems): its content is compared.
RACY_NS: Final = 2_000_000_000
_CACHE: Final[dict[tuple[str, bool], tuple[Ruleset, tuple[Stamp, ...], int]]] = {}
# A built-in name (`tianjin`) → its `_CACHE` key and when its files are next checked: a call
# by name skips locating and resolving the file, and stats the chain at most once per
# NAME_RECHECK_NS (an edited built-in is seen within that time). Only names whose whole chain
# lies among the built-ins are kept, so the `extends` permission cannot change what they load.
NAME_RECHECK_NS: Final = 100_000_000
_NAMED: Final[dict[str, tuple[tuple[str, bool], int]]] = {}


def load_ruleset(ref: RulesetRef = DEFAULT_RULESET, *,
                 allow_outside: bool | None = None) -> Ruleset:
    """A built-in name or a YAML path → a compiled `Ruleset` (raises `RulesetError`).

    Loads are cached per file; the cache entry is checked against every file of the
    `extends` chain (an edited parent reaches its child), so a server may call this per
    request. `allow_outside` lets `extends` leave a file's directory tree (default: the
    RULEKIT_ALLOW_EXTENDS_OUTSIDE environment variable); it is part of the cache key, so a
    ruleset loaded with the permission is never served to a load without it.
    """
    if isinstance(ref, Ruleset):
        return ref
    if isinstance(ref, str) and ref in _NAMED:
        by_name = _by_name(ref)
        if by_name is not None:
            return by_name
    outside = resolve.allow_outside_default(allow_outside)
    path = resolve.locate(str(ref)) if not isinstance(ref, Path) else ref
    key = (str(path.resolve()), outside)
    cached = _cached(key)
    if cached is None:
        now = time.time_ns()
        read: list[tuple[Path, bytes]] = []
        cached = load(path, allow_outside=outside, read=read)
        stamps = tuple(_stamp_read(p, digest) for p, digest in read)
        _CACHE.pop(key, None)
        if len(_CACHE) >= CACHE_SIZE:
            del _CACHE[next(iter(_CACHE))]
        _CACHE[key] = (cached, stamps, now)
    if isinstance(ref, str) and len(_NAMED) < CACHE_SIZE and _is_builtin_name(ref, path) \
            and _all_builtin(_CACHE[key][1]):
        _NAMED[ref] = (key, time.monotonic_ns() + NAME_RECHECK_NS)
    return cached


def _by_name(ref: str) -> Ruleset | None:
    """The ruleset a built-in name last loaded, its files checked if NAME_RECHECK_NS passed;
    None if they changed (or it left the cache): the caller loads it afresh."""
    key, next_check = _NAMED[ref]
    now = time.monotonic_ns()
    if now < next_check:
        entry = _CACHE.get(key)
        return entry[0] if entry is not None else None
    cached = _cached(key)
    if cached is not None:
        _NAMED[ref] = (key, now + NAME_RECHECK_NS)
    return cached


def _all_builtin(stamps: tuple[Stamp, ...]) -> bool:
    builtins = str(resources.rulesets_dir().resolve())
    return all(os.path.dirname(name) == builtins for name, _, _, _ in stamps)


def _is_builtin_name(ref: str, path: Path) -> bool:
    """`ref` is a bare name that `locate` found among the built-ins: it names the same file
    whatever the working directory, so the name alone can key the cache."""
    return (path.parent == resources.rulesets_dir() and "/" not in ref and "\\" not in ref
            and not ref.endswith((".yaml", ".yml")))


def _cached(key: tuple[str, bool]) -> Ruleset | None:
    """The cached ruleset for `key` if every file of its chain is unchanged, else None."""
    entry = _CACHE.get(key)
    if entry is None:
        return None
    checked = _recheck(entry[1], entry[2])
    if checked < 0:
        return None
    if checked != entry[2]:
        _CACHE[key] = (entry[0], entry[1], checked)
    return entry[0]


def _stat(path: str) -> tuple[int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (-1, -1)
    return (st.st_mtime_ns, st.st_size)


def _digest(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return hashlib.sha256(fh.read()).digest()
    except OSError:
        return b""


def _stamp_read(path: Path, digest: bytes) -> Stamp:
    """A chain file's stamp: stat now, and the sha256 of the bytes `load` read (one read
    and one YAML parse per file). A change between the read and this stat leaves an mtime
    inside the racy window of the load's start, so `_recheck` compares content: not missed."""
    name = str(path.resolve())
    mtime, size = _stat(name)
    return (name, mtime, size, digest)


def _recheck(stamps: tuple[Stamp, ...], checked_ns: int) -> int:
    """-1 if a file of the chain changed, else the time it is confirmed unchanged at.

    A file modified shortly before `checked_ns` is compared by content; once every such file
    is older than the racy window, the entry is confirmed as of now and stat alone serves.
    """
    now = time.time_ns()
    compared = still_racy = False
    for name, mtime, size, digest in stamps:
        if _stat(name) != (mtime, size):
            return -1
        if mtime >= checked_ns - RACY_NS:
            if _digest(name) != digest:
                return -1
            compared = True
            still_racy = still_racy or mtime >= now - RACY_NS
    return now if compared and not still_racy else checked_ns


def score(doc: Mapping[str, Any] | Hand, ruleset: RulesetRef = DEFAULT_RULESET) -> ScoreResult:
    """Score one hand document (or a parsed `Hand`); raises `HandError` on bad input."""
    rs = load_ruleset(ruleset)
    if isinstance(doc, Hand):
        return score_hand(doc, rs)
    return score_document(doc, rs)


def score_many(docs: Iterable[Mapping[str, Any] | Hand],
               ruleset: RulesetRef = DEFAULT_RULESET) -> list[ScoreResult]:
    """Score every document (or `Hand`) under one ruleset, resolved once; the results in order.

    The same as `[score(d, ruleset) for d in docs]`, raising the first bad document's
    `HandError` as that loop would; for a batch that keeps going past bad documents, call
    `score` per document (as `rulekit score --jsonl` does).
    """
    rs = load_ruleset(ruleset)
    return [score_hand(d, rs) if isinstance(d, Hand) else score_document(d, rs) for d in docs]


def settle(doc: Mapping[str, Any], ruleset: RulesetRef = DEFAULT_RULESET) -> "SettleResult":
    """Payments for one settle document; raises `SettleError` on bad input."""
    from rulekit.settlement import settle_document
    return settle_document(doc, load_ruleset(ruleset))


def waits(doc: Mapping[str, Any], ruleset: RulesetRef = DEFAULT_RULESET) -> tuple[str, ...]:
    """The tiles that complete a 13-tile hand document's shape, in kind order (no scoring:
    a few microseconds; `scored_waits` adds each tile's fan)."""
    return _waits_of(doc, load_ruleset(ruleset))


def scored_waits(doc: Mapping[str, Any], ruleset: RulesetRef = DEFAULT_RULESET
                 ) -> tuple[Wait, ...]:
    """Each tile that completes a 13-tile hand document, scored as its winning tile: a
    `Wait(tile, fan, win, reason)` per tile of `waits`, one score each."""
    return _scored_waits_of(doc, load_ruleset(ruleset))
