"""A bot in another process, spoken to over its stdin and stdout (docs/bots.md).

The command is split with `shlex` and executed directly (never through a shell), in a
process group of its own so that a timeout or the end of the match kills it and every child
it started. A thread reads its stdout into whole lines, bounded in length and in number, so
the referee never blocks on it; another drains stderr, keeping only its tail for a report.
Whatever goes wrong (it will not start, exits, hangs past its think time, writes too much or
something that is not a legal action) comes out as one `BotFault`, and the bot is stopped.
"""
from __future__ import annotations

import os
import queue
import select
import shlex
import signal
import subprocess
import threading
import time
from typing import IO, Any, Mapping, Sequence

from rulekit.errors import RulekitError
from rulekit.game import protocol
from rulekit.game.protocol import Action, ProtocolError

MAX_WAITING_LINES = 16                   # lines a bot may write ahead of the requests
STDERR_TAIL = 2000                       # bytes of stderr kept for the report
STARTUP_GRACE = 10.0                     # seconds added to the first answer's think time
_CHUNK = 65536


class BotFault(RulekitError):
    """A bot that cannot go on. `kind`: start, crash, closed, timeout, garbage, too_long,
    too_much, illegal. `sent`: an excerpt of the line it wrote, if any."""

    def __init__(self, kind: str, message: str, sent: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.sent = sent


def command_argv(command: str) -> list[str]:
    """`cmd:COMMAND`'s COMMAND as an argument vector (shlex, POSIX rules); no shell."""
    try:
        argv = shlex.split(command)
    except ValueError as err:
        raise BotFault("start", f"cannot split the command {command!r}: {err}") from None
    if not argv:
        raise BotFault("start", "an empty command")
    return argv


class _Lines(threading.Thread):
    """Reads a bot's stdout into complete lines on a queue; ends the stream with an item
    `(kind, detail)` for EOF, a line too long, or too many lines nobody asked for yet (so
    what it holds is bounded: `max_waiting` lines of `max_line` bytes)."""

    def __init__(self, fh: IO[bytes], max_line: int, max_waiting: int) -> None:
        super().__init__(daemon=True, name="rulekit-bot-stdout")
        self.fh, self.max_line, self.max_waiting = fh, max_line, max_waiting
        self.lines: queue.Queue[tuple[str, bytes]] = queue.Queue()

    def run(self) -> None:
        buf = b""
        fd = self.fh.fileno()
        while True:
            try:
                chunk = os.read(fd, _CHUNK)
            except OSError:
                chunk = b""
            if not chunk:
                self.lines.put(("eof", buf))
                return
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                if len(line) > self.max_line:
                    self.lines.put(("too_long", line))
                    return
                if self.lines.qsize() >= self.max_waiting:
                    self.lines.put(("too_much", line))
                    return
                self.lines.put(("line", line))
            if len(buf) > self.max_line:
                self.lines.put(("too_long", buf))
                return


class _Tail(threading.Thread):
    """Drains a bot's stderr so it never blocks on a full pipe; keeps the last bytes."""

    def __init__(self, fh: IO[bytes]) -> None:
        super().__init__(daemon=True, name="rulekit-bot-stderr")
        self.fh = fh
        self.tail = b""

    def run(self) -> None:
        fd = self.fh.fileno()
        while True:
            try:
                chunk = os.read(fd, _CHUNK)
            except OSError:
                return
            if not chunk:
                return
            self.tail = (self.tail + chunk)[-STDERR_TAIL:]


class SubprocessBot:
    """One bot process for one seat; `ask` sends a request and returns its legal answer."""

    def __init__(self, command: str, *, think_time: float,
                 max_line: int = protocol.MAX_ANSWER_BYTES,
                 max_waiting: int = MAX_WAITING_LINES, cwd: str | None = None,
                 startup_grace: float = STARTUP_GRACE) -> None:
        self.command = command
        self.think_time, self.startup_grace = think_time, startup_grace
        self.max_line, self.max_waiting, self.cwd = max_line, max_waiting, cwd
        self.proc: subprocess.Popen[bytes] | None = None
        self.reader: _Lines | None = None
        self.stderr: _Tail | None = None
        self.decisions = 0
        self.seconds = 0.0                # time spent waiting for its answers

    def launch(self) -> None:
        argv = command_argv(self.command)
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, cwd=self.cwd, bufsize=0,
                                         start_new_session=True)
        except OSError as err:
            raise BotFault("start", f"cannot start {argv[0]!r}: {err.strerror or err}") \
                from None
        assert self.proc.stdout is not None and self.proc.stderr is not None
        assert self.proc.stdin is not None
        os.set_blocking(self.proc.stdin.fileno(), False)   # `send` waits with a deadline
        self.reader = _Lines(self.proc.stdout, self.max_line, self.max_waiting)
        self.stderr = _Tail(self.proc.stderr)
        self.reader.start()
        self.stderr.start()

    def send(self, message: Mapping[str, Any]) -> None:
        """One message, no answer expected; a bot that has gone is a fault."""
        proc = self.proc
        if proc is None or proc.stdin is None:
            raise BotFault("closed", "the bot is not running")
        data = (protocol.encode(message) + "\n").encode("utf-8")
        fd = proc.stdin.fileno()
        wait = self.think_time + (self.startup_grace if self.decisions == 0 else 0.0)
        deadline = time.monotonic() + wait
        view = memoryview(data)
        try:
            while view:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([], [fd], [], left)[1]:
                    raise BotFault("timeout", f"did not read its input within {wait:g} s")
                try:
                    view = view[os.write(fd, view):]
                except BlockingIOError:     # writable, but not for this much yet
                    time.sleep(0.001)
        except (BrokenPipeError, ConnectionResetError, ValueError, OSError):
            raise self._gone() from None

    def ask(self, message: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Send a request; the element of `legal` the bot answers within its think time."""
        assert self.reader is not None
        if not self.reader.lines.empty():
            kind, data = self.reader.lines.get_nowait()
            if kind == "line":
                raise BotFault("garbage", "wrote a line when nothing was asked",
                               protocol.excerpt(data))
            raise self._fault_from(kind, data)
        self.send(message)
        t = time.perf_counter()
        limit = self.think_time + (self.startup_grace if self.decisions == 0 else 0.0)
        try:
            kind, data = self.reader.lines.get(timeout=limit)
        except queue.Empty:
            raise BotFault("timeout", f"no answer within {limit:g} s") from None
        finally:
            self.seconds += time.perf_counter() - t
        self.decisions += 1
        if kind != "line":
            raise self._fault_from(kind, data)
        try:
            return protocol.parse_answer(data, legal)
        except ProtocolError as err:
            raise BotFault(err.kind, str(err), protocol.excerpt(data)) from None

    def _fault_from(self, kind: str, data: bytes) -> BotFault:
        if kind == "too_long":
            return BotFault("too_long", f"a line longer than {self.max_line} bytes",
                            protocol.excerpt(data))
        if kind == "too_much":
            return BotFault("too_much", f"more than {self.max_waiting} lines written "
                                        "ahead of the requests", protocol.excerpt(data))
        return self._gone(data)

    def _gone(self, data: bytes = b"") -> BotFault:
        """The bot closed its stdout or stdin: crashed (exited) or closed (still running)."""
        proc = self.proc
        code = None
        if proc is not None:
            try:
                code = proc.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                code = None
        sent = protocol.excerpt(data) if data else None
        if code is None:
            return BotFault("closed", "closed its output", sent)
        return BotFault("crash", f"exited with status {code}", sent)

    def stderr_tail(self) -> str:
        return self.stderr.tail.decode("utf-8", "replace") if self.stderr else ""

    def eof(self) -> None:
        """Close the bot's stdin: a well-behaved bot exits when it reads EOF."""
        proc = self.proc
        if proc is not None and proc.stdin is not None:
            try:
                proc.stdin.close()
            except OSError:
                pass

    def close(self, grace: float = 1.0) -> int | None:
        """End the bot: EOF on its stdin, `grace` seconds to exit, then SIGKILL to its whole
        process group. Its exit status (None if it had to be killed)."""
        proc = self.proc
        if proc is None:
            return None
        code: int | None = None
        self.eof()
        if grace > 0:
            try:
                code = proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                code = None
        try:
            os.killpg(proc.pid, signal.SIGKILL)     # the group: children it started too
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is not refused
            pass
        for t in (self.reader, self.stderr):
            if t is not None:
                t.join(timeout=1)
        for fh in (proc.stdout, proc.stderr):
            if fh is not None:
                fh.close()
        return code
