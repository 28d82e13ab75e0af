"""`simulate --log FILE`: each finished hand's record is written (unbuffered) as soon as its
task's results arrive, so a run stopped early (Ctrl-C, SIGTERM, a dead worker, a full disk)
leaves a file of whole records that `rulekit replay` reads (docs/game.md, "Logs").

A failed write is an `OutputError` naming the log (exit 3); what it left of a half-written
record is cut off where the file can be truncated, so the file still ends on a whole line.

Every record is sealed here, in the writing process, with the installation's key
(rulekit.game.sealing; the key is loaded, or made, before the old file is emptied, so a bad
key file leaves it as it was): one HMAC a record, and a worker never holds the key.
"""
from __future__ import annotations

import errno
from typing import BinaryIO

from rulekit.errors import RulekitError
from rulekit.game import recordkey, sealing
from rulekit.outputs import OutputError


class LogOpenError(RulekitError):
    """The log file cannot be opened for writing (a bad path: exit 2)."""


class HandLog:
    """The log file, one record a line, each on disk (unbuffered) when `write` returns."""

    def __init__(self, path: str, key: recordkey.RecordKey | None = None) -> None:
        self.path = path
        self.key = key or recordkey.load_or_create()
        try:
            self.fh: BinaryIO = open(path, "wb", buffering=0)
        except OSError as err:
            raise LogOpenError(f"{path}: cannot write: {err.strerror}") from None
        self.good = 0           # bytes of whole records written (where a regular file is cut)

    def write(self, record: str) -> None:
        """One record (a JSON line without its newline)."""
        self.write_all([record])

    def write_all(self, records: list[str]) -> None:
        """Records that finished together (a task's session), in one write: a signal between
        them cannot leave the session half logged."""
        data = "".join(sealing.seal_line(r, self.key) + "\n" for r in records).encode("utf-8")
        try:
            done = 0
            while done < len(data):             # a raw write may take part of it
                took = self.fh.write(data[done:])
                if not took:
                    raise OSError(errno.EIO, "the log took nothing")
                done += took
        except OSError as err:
            self._cut()
            raise OutputError(f"--log {self.path}: cannot write: {err.strerror or err}") from None
        self.good += len(data)

    def close(self) -> None:
        self.fh.close()         # unbuffered: nothing left to write

    def _cut(self) -> None:
        """Drop what a failed write left of its record (a device or a pipe: nothing to do)."""
        try:
            self.fh.truncate(self.good)
            self.fh.seek(self.good)
        except OSError:
            pass
