"""Every error rulekit raises on bad input derives from `RulekitError`.

Callers (CLI, game servers, an HTTP service) catch one type and show `str(err)`: the message
already names the offending tile, field or YAML line, so no traceback needs to reach a user.
"""
from __future__ import annotations


class RulekitError(Exception):
    """Base of all input errors; `str()` is a one-line, user-facing message."""


class TileError(RulekitError):
    """A tile string that is not valid notation (names the bad tile text)."""


class HandError(RulekitError):
    """A hand document that is malformed or impossible (names the field)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class SettleError(RulekitError):
    """A settle document that is malformed or inconsistent (names the field)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class RulesetError(RulekitError):
    """One or more problems in a ruleset; each problem is a `file:line: path: message` line."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(problems[0] if len(problems) == 1 else
                         f"{len(problems)} problems:\n" + "\n".join(problems))
        self.problems = problems


class DslError(RulekitError):
    """A pattern expression that does not parse or names something unknown."""

    def __init__(self, message: str, *, source: str = "<dsl>", line: int = 1,
                 column: int = 1, text: str = "", caret: int | None = None) -> None:
        self.message = message
        self.caret = column if caret is None else caret
        self.source = source
        self.line = line
        self.column = column
        self.text = text
        super().__init__(self.render())

    def render(self) -> str:
        head = f"{self.source}:{self.line}:{self.column}: {self.message}"
        if not self.text:
            return head
        src_line = self.text.splitlines()[0] if self.text else ""
        return f"{head}\n    {src_line}\n    {' ' * max(self.caret - 1, 0)}^"
