"""SIGTERM and Ctrl-C stop a run with workers cleanly: exit 143 (130), one line on stderr, no
process of the run left, and `simulate --log` keeps every finished hand, readable by
`rulekit replay` (issue 18 item 6).

Each test starts the CLI in its own session (its process group is the run), waits for a real
event (an output line, a logged hand, the workers' existence) and only then signals; every
wait is bounded.
"""
from __future__ import annotations

import io
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from workerprocs import HAS_PROC, workers

from rulekit import cli

ROOT = Path(__file__).resolve().parent.parent
CLI = "import sys; from rulekit.cli import main; sys.exit(main())"
pytestmark = pytest.mark.skipif(not HAS_PROC, reason="finds a run's processes through /proc")
BOUND = 120.0                       # seconds: a wait this long means the run hangs


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = io.StringIO()
    assert cli.main(["corpus", "--count", "6000", "--seed", "21"], out=out) == 0
    path = tmp_path_factory.mktemp("signals") / "corpus.jsonl"
    path.write_text(out.getvalue() * 3, encoding="utf-8")
    return path


def start(*argv: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", CLI, *argv], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def group(pgid: int) -> list[int]:
    """The live processes of process group `pgid` (zombies are gone in all but name)."""
    found = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            found.append(int(d.name))
    return found


def finish(proc: subprocess.Popen[str]) -> tuple[str, str]:
    """The run's output once it ends (bounded), and no process of its group left."""
    try:
        out, err = proc.communicate(timeout=BOUND)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    deadline = time.monotonic() + BOUND
    while group(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert group(proc.pid) == []
    return out, err


def first_output(proc: subprocess.Popen[str]) -> None:
    """Returns once the run has written to stdout (a first result is out)."""
    ready, _, _ = select.select([proc.stdout], [], [], BOUND)
    assert ready, "the run wrote nothing"


def first_logged(path: Path, proc: subprocess.Popen[str]) -> None:
    """Returns once the log holds a whole record."""
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline and proc.poll() is None:
        data = path.read_bytes() if path.exists() else b""
        if data.startswith(b'{"format"') and b"\n" in data:
            return
        time.sleep(0.02)
    pytest.fail("the run logged no hand")


def test_sigterm_stops_score_jobs_with_143(corpus: Path) -> None:
    proc = start("score", "--jsonl", str(corpus), "--jobs", "2")
    first_output(proc)
    kids = workers_of(proc)
    proc.send_signal(signal.SIGTERM)                 # the parent only, as `kill PID` does
    out, err = finish(proc)
    assert proc.returncode == 143
    assert err == "rulekit: stopped by SIGTERM\n"
    assert kids and not any(Path(f"/proc/{k}").exists() and k in group(proc.pid) for k in kids)
    lines = out.split("\n")[:-1]            # a write cut by the signal may leave half a line
    assert 0 < len(lines) < 18000
    assert all("total_fan" in json.loads(line) for line in lines)    # in order, then stop


def test_sigterm_stops_diff_jobs_with_143(corpus: Path) -> None:
    proc = start("diff", "tianjin", "tianjin-gold8", "--corpus", str(corpus), "--jobs", "2")
    workers(proc)                                    # the workers exist: the run is under way
    proc.send_signal(signal.SIGTERM)
    out, err = finish(proc)
    assert (proc.returncode, out, err) == (143, "", "rulekit: stopped by SIGTERM\n")


def test_sigterm_to_the_whole_group_stops_diff_with_143(corpus: Path) -> None:
    proc = start("diff", "tianjin", "tianjin-gold8", "--corpus", str(corpus), "--jobs", "2")
    workers(proc)
    os.killpg(proc.pid, signal.SIGTERM)              # as a service manager does
    out, err = finish(proc)
    assert (proc.returncode, out, err) == (143, "", "rulekit: stopped by SIGTERM\n")


@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT"])
def test_an_interrupted_simulate_keeps_its_finished_hands(tmp_path: Path, how: str) -> None:
    log = tmp_path / "hands.jsonl"
    log.write_text("an old log, replaced\n")
    proc = start("simulate", "--hands", "4000", "--workers", "2", "--seed", "5",
                 "--log", str(log), "-r", "tianjin-gold8")
    first_logged(log, proc)
    if how == "SIGTERM":
        proc.send_signal(signal.SIGTERM)
    else:
        os.killpg(proc.pid, signal.SIGINT)           # Ctrl-C: the terminal signals the group
    out, err = finish(proc)
    code, line = {"SIGTERM": (143, "rulekit: stopped by SIGTERM\n"),
                  "SIGINT": (130, "rulekit: interrupted\n")}[how]
    assert (proc.returncode, out, err) == (code, "", line)
    text = log.read_text(encoding="utf-8")
    hands = [json.loads(r)["hand"] for r in text.splitlines()]
    assert text.endswith("\n") and 16 <= len(hands) < 4000
    assert hands == list(range(len(hands)))          # every finished hand, in order
    replayed = io.StringIO()
    assert cli.main(["replay", str(log), "--format", "json"], out=replayed) == 0
    assert json.loads(replayed.getvalue())["reproduced"] == len(hands)


def test_sigterm_stops_a_one_process_simulate_and_keeps_its_hands(tmp_path: Path) -> None:
    log = tmp_path / "hands.jsonl"
    proc = start("simulate", "--hands", "4000", "--seed", "6", "--log", str(log))
    first_logged(log, proc)
    proc.send_signal(signal.SIGTERM)
    out, err = finish(proc)
    assert (proc.returncode, out, err) == (143, "", "rulekit: stopped by SIGTERM\n")
    hands = [json.loads(r)["hand"] for r in log.read_text(encoding="utf-8").splitlines()]
    assert 16 <= len(hands) < 4000 and hands == list(range(len(hands)))


def test_workers_die_with_a_parent_killed_outright(corpus: Path) -> None:
    proc = start("score", "--jsonl", str(corpus), "--jobs", "2")
    first_output(proc)
    assert workers_of(proc)
    proc.kill()                                      # SIGKILL: no cleanup of its own runs
    finish(proc)                                     # ... yet no worker is left (Linux)
    assert proc.returncode == -signal.SIGKILL


def test_a_killed_simulate_worker_ends_the_run_with_exit_3(tmp_path: Path) -> None:
    log = tmp_path / "hands.jsonl"
    proc = start("simulate", "--hands", "4000", "--workers", "2", "--log", str(log),
                 "-r", "tianjin-gold8")
    first_logged(log, proc)
    os.kill(workers_of(proc)[0], signal.SIGKILL)
    out, err = finish(proc)
    assert (proc.returncode, out) == (3, "")
    assert err == ("rulekit simulate: error: a simulate worker process died (killed, or out of "
                   "memory); the run is incomplete\n")
    hands = [json.loads(r)["hand"] for r in log.read_text(encoding="utf-8").splitlines()]
    assert hands == list(range(len(hands))) and len(hands) >= 16


def workers_of(proc: subprocess.Popen[str]) -> list[int]:
    return [p for p in group(proc.pid) if p != proc.pid]


# -- a full disk ------------------------------------------------------------------------------

FULL = Path("/dev/full")


@pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [
    ["score", "--jsonl", "CORPUS", "--jobs", "2"],
    ["score", "--jsonl", "CORPUS"],
    ["diff", "tianjin", "tianjin-gold8", "--corpus", "CORPUS", "--jobs", "2"],
    ["simulate", "--hands", "20", "--json"],
    ["simulate", "--hands", "20", "--workers", "2"],
])
def test_a_full_disk_on_stdout_is_one_line_naming_it(argv: list[str], tmp_path: Path) -> None:
    small = tmp_path / "small.jsonl"
    out = io.StringIO()
    assert cli.main(["corpus", "--count", "300", "--seed", "3"], out=out) == 0
    small.write_text(out.getvalue(), encoding="utf-8")
    argv = [str(small) if a == "CORPUS" else a for a in argv]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with FULL.open("w") as full:
        done = subprocess.run([sys.executable, "-c", CLI, *argv], cwd=ROOT, env=env,
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=BOUND)
    assert (done.returncode, done.stderr) == (
        3, f"rulekit {argv[0]}: error: stdout: cannot write: No space left on device\n")


@pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full")
def test_a_full_disk_under_the_log_is_one_line_naming_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["simulate", "--hands", "20", "--log", str(FULL)], out=io.StringIO()) == 3
    assert capsys.readouterr().err == ("rulekit simulate: error: --log /dev/full: cannot write: "
                                       "No space left on device\n")


def test_a_log_write_that_fails_part_way_leaves_whole_records(tmp_path: Path) -> None:
    from rulekit.game.logfile import HandLog
    from rulekit.outputs import OutputError
    from rulekit.game.sealing import seal_line
    path = tmp_path / "hands.jsonl"
    log = HandLog(str(path))
    first, second = ('{"hand":%d,"digest":{"record":"%s","fields":{}}}' % (n, str(n) * 64)
                     for n in (0, 1))
    log.write(first)
    real = log.fh

    class Filling:
        """Takes five bytes, then the disk is full."""

        calls = 0

        def write(self, data: bytes) -> int:
            Filling.calls += 1
            if Filling.calls == 1:
                return real.write(data[:5]) or 0
            raise OSError(28, "No space left on device")

        def __getattr__(self, name: str) -> object:
            return getattr(real, name)

    log.fh = Filling()  # type: ignore[assignment]
    with pytest.raises(OutputError, match=r"^--log .*hands.jsonl: cannot write: No space "
                                          r"left on device$"):
        log.write(second)
    log.close()
    assert path.read_bytes() == (seal_line(first, log.key) + "\n").encode()
