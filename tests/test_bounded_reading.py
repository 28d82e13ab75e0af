"""Bounded reading everywhere (issue 18, item 7): every reader of a user's file, pipe or git
blob reads at most its limit (a document line, a ruleset file) before it refuses, so a 400 MB
line or `/dev/zero` costs kilobytes, not gigabytes. Each test feeds more than the limit and
asserts the clean refusal and how much was read."""
from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulekit import diff, limits, revision
from rulekit.cli import main

HAND = '{"indicator": "7p", "hand": "46m123456789s22z", "win_tile": "5m"}\n'


class Counting(io.RawIOBase):
    """A binary stream of `head` then `fill` forever, counting the bytes it hands out."""

    def __init__(self, head: bytes, fill: bytes) -> None:
        self.head, self.fill, self.given = head, fill, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buf: Any) -> int:
        chunk = (self.head or self.fill * (len(buf) // len(self.fill) + 1))[:len(buf)]
        self.head = self.head[len(chunk):]
        buf[:len(chunk)] = chunk
        self.given += len(chunk)
        return len(chunk)


def test_a_long_corpus_line_is_refused_after_reading_one_limit(tmp_path: Path,
                                                                capsys: Any) -> None:
    path = tmp_path / "long.jsonl"
    path.write_bytes(HAND.encode() + b"[" + b"1," * 2_000_000 + b"1]\n")    # a 4 MB line
    assert main(["diff", "tianjin", "tianjin", "--corpus", str(path)], io.StringIO()) == 2
    assert capsys.readouterr().err == (
        f"rulekit diff: error: {path}:2: longer than {limits.DOC_BYTES} bytes, the most a "
        "document may be\n")
    raw = Counting(HAND.encode(), b"0")                 # then an endless line (/dev/zero)
    with pytest.raises(diff.DiffError, match=r"^c:2: longer than 65536 bytes"):
        diff.read_corpus(io.BufferedReader(raw, 8192), "c")
    assert raw.given <= len(HAND) + limits.DOC_BYTES + 2 * 8192


def test_a_corpus_pipe_that_never_ends_is_refused_at_the_line_bound(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "CORPUS_LINES", 2_000)
    proc = subprocess.Popen(["yes", HAND.strip()], stdout=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        with pytest.raises(diff.DiffError) as err:
            diff.read_corpus(proc.stdout, "stdin")
    finally:
        proc.kill()
        proc.wait()
    assert str(err.value) == ("stdin:2001: corpus too large (at most 2,000 lines and "
                              f"{limits.CORPUS_BYTES:,} bytes): split it")


def test_a_corpus_over_the_byte_bound_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "CORPUS_BYTES", 10 * len(HAND))
    with pytest.raises(diff.DiffError, match=r"^c:11: corpus too large"):
        diff.read_corpus(io.BytesIO(HAND.encode() * 50), "c")


@pytest.mark.parametrize("command", [["validate", "-"], ["test", "-"]])
def test_yaml_from_a_pipe_that_never_ends_is_one_line(command: list[str]) -> None:
    """`validate -` and `test -` read stdin like a file: at most RULESET_BYTES + 1 bytes."""
    zeros = subprocess.Popen(["cat", "/dev/zero"], stdout=subprocess.PIPE)
    try:
        done = subprocess.run([sys.executable, "-m", "rulekit", *command], stdin=zeros.stdout,
                              capture_output=True, text=True, timeout=120)
    finally:
        zeros.kill()
        zeros.wait()
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1].endswith(
        f"stdin:1: file too large (over {limits.RULESET_BYTES} bytes)")


def _repo(tmp_path: Path, name: str, content: bytes) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
                       cwd=tmp_path, check=True, capture_output=True)
    git("init", "-q")
    (tmp_path / name).write_bytes(content)
    git("add", ".")
    git("commit", "-q", "-m", "big")


def test_a_revision_blob_over_the_limit_is_refused_by_its_size_unread(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _repo(tmp_path, "big.yaml", b"extends: tianjin\ndescription: " + b"x" * 3_000_000 + b"\n")

    def never(*args: Any) -> None:
        raise AssertionError("read a blob already known to be too large")
    monkeypatch.setattr(revision, "_read_git", never)
    with pytest.raises(revision.RevisionError) as err:
        revision.spec_for("HEAD:big.yaml", tmp_path)
    assert str(err.value) == f"HEAD:big.yaml: larger than {limits.RULESET_BYTES} bytes"


def test_a_revision_blob_within_the_limit_still_loads(tmp_path: Path) -> None:
    _repo(tmp_path, "t.yaml", b"extends: tianjin\nname: t\nwin: {minimum: 2}\n")
    rs = revision.spec_for("HEAD:t.yaml", tmp_path).load()
    assert rs.name == "t"


def test_a_session_holds_a_bounded_number_of_hands(
        monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    monkeypatch.setattr(limits, "SESSION_HANDS", 3)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(HAND.encode() * 5)))
    assert main(["session", "--jsonl", "-"], io.StringIO()) == 2
    assert capsys.readouterr().err == "rulekit session: error: -: line 4: a session holds at most 3 hands\n"
