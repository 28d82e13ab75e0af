"""Which optional hand-document fields a ruleset reads, so that `rulekit score --flowers ...`
under a ruleset that never looks at flowers says so instead of silently scoring the same
(issue 21: flags that do not apply are reported, not ignored).

A field is read when a condition that can change a result names its DSL path: a valued
pattern (in `scoring`), a pattern such a pattern names, a `forbid`, an `instant_win` or an
`adjust_total` rule. The paths are the DSL's (docs/dsl.md)."""
from __future__ import annotations

import re
from typing import Any, Iterable, Mapping

from rulekit.ruleset.model import Ruleset

# document field → (the CLI flag that sets it, the DSL path a condition reads it by)
FIELDS = {"flowers": ("--flowers", "hand.flowers"),
          "earthly": ("--earthly", "context.earthly"),
          "ready_declared": ("--ready-declared", "context.ready_declared"),
          "discarded_hun": ("--discarded-hun", "context.discarded_hun")}
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")


def _valued(scoring: Mapping[str, Any]) -> set[str]:
    ids: set[str] = set()
    for key in ("base", "add", "multiply"):
        ids |= set((scoring.get(key) or {}).keys())
    for combo in (scoring.get("combinations") or {}).values():
        ids |= set((combo or {}).get("patterns") or ())
    return ids


def conditions_that_count(rs: Ruleset) -> list[str]:
    """The `when` texts that can change a result under `rs`."""
    data = rs.data
    patterns = {pid: str((p or {}).get("when") or "") for pid, p in
                (data.get("patterns") or {}).items()}
    whens = [str((e or {}).get("when") or "") for sec in ("forbid", "instant_win")
             for e in (data.get(sec) or {}).values()]
    whens += [str((r or {}).get("when") or "")
              for r in ((data.get("scoring") or {}).get("adjust_total") or ())]
    todo = list(_valued(data.get("scoring") or {}))
    todo += [w for text in whens for w in _WORD.findall(text) if w in patterns]
    seen: set[str] = set()
    while todo:
        pid = todo.pop()
        if pid in seen or pid not in patterns:
            continue
        seen.add(pid)
        todo += [w for w in _WORD.findall(patterns[pid]) if w in patterns]
    return whens + [patterns[p] for p in sorted(seen)]


def unread(fields: Iterable[str], rs: Ruleset) -> list[str]:
    """A warning for each given field `rs` never reads."""
    texts = conditions_that_count(rs)
    out = []
    for field in fields:
        flag, path = FIELDS[field]
        if not any(re.search(rf"\b{re.escape(path)}\b", t) for t in texts):
            out.append(f"{flag}: {rs.name} does not read {field} (no valued pattern, forbid, "
                       f"instant win or total rule of it uses {path}); the score is the same "
                       "without it")
    return out
