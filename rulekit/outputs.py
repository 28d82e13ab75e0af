"""Writing results where the user asked: a failed write (a full disk, an I/O error) is the
output's problem, named as such, never blamed on the input nor shown as an internal error.

`Guarded` wraps a text stream (stdout, a `--log` file) and turns an `OSError` from `write`
or `flush` into `OutputError` naming the output; the CLI prints it as one line and exits 3
(the run could not be completed; nothing the user gave was wrong). A closed pipe stays a
`BrokenPipeError`: the reader left, which is not a failure (exit 0, as before).
"""
from __future__ import annotations

from typing import TextIO, cast


class OutputError(Exception):
    """An output could not be written. Not a `RulekitError` (exit 2 means bad input): the
    CLI exits 3 on it."""


class Guarded:
    """`stream`, whose write errors are `OutputError`s naming `name`. Only what the CLI's
    writers use (write, flush, isatty, fileno); closing it is the owner's business."""

    def __init__(self, stream: TextIO, name: str) -> None:
        self.stream = stream
        self.name = name

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as err:
            raise self.error(err) from None

    def flush(self) -> None:
        try:
            self.stream.flush()
        except BrokenPipeError:
            raise
        except OSError as err:
            raise self.error(err) from None
        except ValueError:          # already closed: nothing left to write
            pass

    def error(self, err: OSError) -> OutputError:
        return OutputError(f"{self.name}: cannot write: {err.strerror or err}")

    def isatty(self) -> bool:
        try:
            return self.stream.isatty()
        except (AttributeError, ValueError):
            return False

    def fileno(self) -> int:
        return self.stream.fileno()


def guarded(stream: TextIO, name: str) -> TextIO:
    """`stream` with its write errors named (`Guarded`), typed as the text stream it is."""
    return cast(TextIO, Guarded(stream, name))
