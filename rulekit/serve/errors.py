"""The one error shape of the API: `{"error": {"field": ..., "message": ...}}` and a status."""
from __future__ import annotations

import re
import sys
from pathlib import Path

from rulekit.limits import excerpt

# Directories an error text must not show (the install, the served folder): each is written
# as what a client may know instead. Longest first, so a folder inside another wins.
_HIDDEN: list[tuple[str, str]] = []


def hide_paths(folder: Path, shown: str) -> None:
    """Write `folder/` as `shown` in every error text from now on (`shown` may be "")."""
    for form in {str(folder), str(folder.resolve())}:
        if len(form) > 1 and (form + "/", shown) not in _HIDDEN:
            _HIDDEN.append((form + "/", shown))
    _HIDDEN.sort(key=lambda pair: -len(pair[0]))


def scrub(text: str) -> str:
    """`text` with every hidden folder replaced (`hide_paths`)."""
    for folder, shown in _HIDDEN:
        if folder in text:
            text = text.replace(folder, shown)
    return text


def _hide_install() -> None:
    from rulekit import resources
    hide_paths(resources.rulesets_dir(), "rulesets/")
    hide_paths(Path(__file__).resolve().parent.parent.parent, "")    # the package's parent
    for prefix in {sys.prefix, sys.base_prefix, sys.exec_prefix}:
        hide_paths(Path(prefix), "")


_hide_install()


class ApiError(Exception):
    """A request the server refuses; `status` is 400, 404, 413, 422 or 503."""

    def __init__(self, status: int, field: str, message: str,
                 problems: list[str] | None = None) -> None:
        super().__init__(f"{field}: {message}")
        self.status = status
        self.field = field
        self.message = excerpt(scrub(message), 2000)
        self.problems = [scrub(p) for p in problems or []]

    def body(self) -> dict[str, object]:
        err: dict[str, object] = {"field": self.field, "message": self.message}
        if self.problems:
            err["problems"] = [problem_dict(p) for p in self.problems]
        return {"error": err}


def first_problem(problems: list[str]) -> str:
    """A one-line message for a ruleset that does not load: its first problem, and how many
    more there are (all of them go in `problems`)."""
    if not problems:
        return "the ruleset does not load"
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return problems[0] + more


_WHERE = re.compile(r"^([^:\n]*):(\d+)(?::(\d+))?: ")


def problem_dict(line: str) -> dict[str, object]:
    """`file:line[:col]: rest` → {"file", "line", "column", "message"} (line 0 if unknown)."""
    m = _WHERE.match(line)
    if m is None:
        return {"file": "", "line": 0, "column": 0, "message": excerpt(line, 1000)}
    return {"file": m.group(1), "line": int(m.group(2)), "column": int(m.group(3) or 0),
            "message": excerpt(line[m.end():], 1000)}
