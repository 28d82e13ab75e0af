"""`simulate --log FILE`: each finished hand's record is written and flushed as soon as its
task's results arrive, so a run stopped early (Ctrl-C, SIGTERM, a dead worker, a full disk)
leaves a file of whole records that `rulekit replay` reads (docs/game.md, "Logs").

A failed write is an `OutputError` naming the log (exit 3); what it left of a half-written
record is cut off where the file can be truncated, so the file still ends on a whole line.
"""
from __future__ import annotations

from typing import IO

from rulekit.errors import RulekitError
from rulekit.outputs import OutputError


class LogOpenError(RulekitError):
    """The log file cannot be opened for writing (a bad path: exit 2)."""


class HandLog:
    """The log file, one record a line, each flushed when written."""

    def __init__(self, path: str) -> None:
        self.path = path
        try:
            self.fh: IO[str] = open(path, "w", encoding="utf-8", newline="\n")
        except OSError as err:
            raise LogOpenError(f"{path}: cannot write: {err.strerror}") from None
        self.good = 0           # bytes of whole records written (where a regular file is cut)

    def write(self, record: str) -> None:
        """One record (a JSON line without its newline), on disk before this returns."""
        try:
            self.fh.write(record + "\n")
            self.fh.flush()
        except OSError as err:
            self._cut()
            raise OutputError(f"--log {self.path}: cannot write: {err.strerror or err}") from None
        self.good += len(record.encode("utf-8")) + 1

    def close(self) -> None:
        try:
            self.fh.close()
        except OSError:          # what failed to flush was reported by `write`, or is cut
            self._cut()

    def _cut(self) -> None:
        try:
            self.fh.buffer.raw.truncate(self.good)      # type: ignore[attr-defined]
        except (OSError, AttributeError, ValueError):
            pass                 # a device or a pipe: nothing to cut
