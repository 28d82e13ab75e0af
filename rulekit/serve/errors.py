"""The one error shape of the API: `{"error": {"field": ..., "message": ...}}` and a status."""
from __future__ import annotations

import re

from rulekit.limits import excerpt


class ApiError(Exception):
    """A request the server refuses; `status` is 400, 404, 413, 422 or 503."""

    def __init__(self, status: int, field: str, message: str,
                 problems: list[str] | None = None) -> None:
        super().__init__(f"{field}: {message}")
        self.status = status
        self.field = field
        self.message = excerpt(message, 2000)
        self.problems = problems or []

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
