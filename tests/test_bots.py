"""The bot protocol's messages and answers (rulekit.game.protocol) and a bot process
(rulekit.game.bots): every way a bot can fail comes out as one BotFault naming it, within
the think time, and the process group is gone afterwards."""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from rulekit.game import protocol
from rulekit.game.bots import BotFault, SubprocessBot, command_argv
from rulekit.game.protocol import ProtocolError, parse_answer

BAD = Path(__file__).parent / "data" / "bad_bot.py"
LEGAL = [{"action": "discard", "tile": "5m"}, {"action": "discard", "tile": "7z"},
         {"action": "pull", "count": 1}, {"action": "pass"}]
REQ = protocol.request(2, {"seat": 2, "hand": "5m7z"}, LEGAL)


def bot(mode: str, after: int = 0, think: float = 3.0) -> SubprocessBot:
    """A bad_bot; a fault other than a timeout comes at once, whatever the think time."""
    b = SubprocessBot(f"{sys.executable} {BAD} {mode} {after}", think_time=think)
    b.launch()
    return b


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


# -- answers ----------------------------------------------------------------------------------

def test_an_answer_is_the_legal_element_it_spells() -> None:
    got = parse_answer(b' {"tile": "7z", "action": "discard"}\n', LEGAL)
    assert got is LEGAL[1]
    assert parse_answer('{"action":"pull","count":1}', LEGAL) is LEGAL[2]


@pytest.mark.parametrize("line, kind", [
    (b'{"action": "pull", "count": true}', "illegal"),       # True == 1 in Python, not here
    (b'{"action": "pull", "count": 1.0}', "illegal"),
    (b'{"action": "discard", "tile": "9x"}', "illegal"),
    (b'{"action": "discard"}', "illegal"),
    (b'["pass"]', "garbage"),
    (b'"pass"', "garbage"),
    (b'pass', "garbage"),
    (b'\xff\xfe', "garbage"),
    (b'', "garbage"),
    (b'[' * 40 + b']' * 40, "garbage"),
    (b'{"a":' * 100000, "too_long"),
])
def test_anything_else_is_refused_with_its_kind(line: bytes, kind: str) -> None:
    with pytest.raises(ProtocolError) as err:
        parse_answer(line, LEGAL)
    assert err.value.kind == kind
    assert len(str(err.value)) < 1000


@given(st.binary(max_size=300))
def test_no_bytes_crash_the_parser(data: bytes) -> None:
    try:
        got = parse_answer(data, LEGAL)
    except ProtocolError as err:
        assert err.kind in ("garbage", "illegal", "too_long")
    else:
        assert got in LEGAL


def test_messages_are_one_line_of_json_with_the_version() -> None:
    start = protocol.start(1, {"name": "tianjin"}, players=4, hands=3, think_time=0.5)
    line = protocol.encode(start)
    assert "\n" not in line and json.loads(line) == start
    assert start["protocol"] == "rulekit-bot/1" and start["seat"] == 1
    assert json.loads(protocol.encode(REQ)) == {"type": "request", "seat": 2,
                                                "observation": {"seat": 2, "hand": "5m7z"},
                                                "legal": LEGAL}
    assert protocol.event(0, 3, 7, {"seat": 1, "action": "draw", "tile": None}) == {
        "type": "event", "seat": 0, "hand": 3, "index": 7,
        "event": {"seat": 1, "action": "draw", "tile": None}}
    assert protocol.end(0, 3, {"winner": None})["type"] == "end"


# -- processes --------------------------------------------------------------------------------

def test_a_good_bot_answers_every_request() -> None:
    b = bot("good")
    try:
        for _ in range(20):
            b.send(protocol.event(2, 0, 0, {"seat": 0, "action": "draw", "tile": None}))
            assert b.ask(REQ, LEGAL) is LEGAL[0]
        assert b.decisions == 20
    finally:
        code = b.close()
    assert code == 0                 # it read EOF and exited by itself


@pytest.mark.parametrize("mode, after, kind, says", [
    ("crash", 0, "crash", "exited with status 3"),
    ("crash", 2, "crash", "exited with status 4"),
    ("hang", 1, "timeout", "no answer within 0.5 s"),
    ("garbage", 1, "garbage", "not JSON: 'I think I will discard"),
    ("illegal", 0, "illegal", '\'{"action": "discard", "tile": "9x"}\' is not legal'),
    ("huge", 1, "too_long", "a line longer than 4096 bytes"),
    ("deep", 0, "garbage", "nested deeper than 4"),
    ("close", 1, "closed", "closed its output"),
    ("chatter", 0, "garbage", "not JSON: 'thinking...'"),
])
def test_each_failure_is_one_fault_naming_it(mode: str, after: int, kind: str,
                                             says: str) -> None:
    b = bot(mode, after, think=0.5 if mode == "hang" else 3.0)
    t = time.monotonic()
    try:
        with pytest.raises(BotFault) as err:
            for _ in range(after + 1):
                assert b.ask(REQ, LEGAL) is LEGAL[0]
        assert err.value.kind == kind, str(err.value)
        assert says in str(err.value)
    finally:
        b.close(grace=0)
    assert time.monotonic() - t < 10
    assert b.proc is not None and not alive(b.proc.pid)


def test_lines_written_ahead_are_a_fault_and_bounded() -> None:
    b = bot("flood", 0)
    try:
        assert b.ask(REQ, LEGAL) == {"action": "pass"}     # the first of its lines
        assert b.reader is not None
        b.reader.join(timeout=5)
        with pytest.raises(BotFault) as err:
            b.ask(REQ, LEGAL)
        assert err.value.kind == "garbage" and "when nothing was asked" in str(err.value)
        b.reader.join(timeout=5)                 # it stopped reading: 17 lines at most
        assert not b.reader.is_alive() and b.reader.lines.qsize() <= 17
    finally:
        b.close(grace=0)


def test_the_stderr_tail_is_kept_for_the_report() -> None:
    b = bot("crash", 1)
    try:
        b.ask(REQ, LEGAL)
        with pytest.raises(BotFault):
            b.ask(REQ, LEGAL)
    finally:
        b.close(grace=0)
    assert b.stderr_tail() == "bad_bot: crashing mid-hand\n"


def test_a_bot_that_never_reads_cannot_block_the_referee() -> None:
    b = SubprocessBot(f"{sys.executable} -c \"import time; time.sleep(60)\"", think_time=0.3,
                      startup_grace=0)
    b.launch()
    big = protocol.event(0, 0, 0, {"seat": 0, "action": "deal", "rule": "x" * 60000})
    try:
        with pytest.raises(BotFault) as err:
            for _ in range(10):           # the pipe holds 64 KiB: the second or third waits
                b.send(big)
        assert err.value.kind == "timeout"
        assert "did not read its input within 0.3 s" in str(err.value)
    finally:
        b.close(grace=0)


def test_close_kills_the_children_a_bot_started() -> None:
    b = bot("child", 0, think=0.5)
    b.startup_grace = 0
    try:
        with pytest.raises(BotFault):
            b.ask(REQ, LEGAL)
        assert b.proc is not None
        pgid = b.proc.pid
    finally:
        b.close(grace=0)
    assert group_dead(pgid)


def group_dead(pgid: int) -> bool:
    """No process of the group runs any more (zombies wait for whoever reaps orphans)."""
    for _ in range(100):
        states = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid:
                states.append(fields[0])
        if all(s in "ZX" for s in states):
            return True
        time.sleep(0.05)
    return False


def test_the_first_answer_may_take_the_startup_grace_too() -> None:
    b = SubprocessBot(f"{sys.executable} {BAD} slow 1", think_time=0.2, startup_grace=5)
    b.launch()
    try:
        assert b.ask(REQ, LEGAL) is LEGAL[0]      # after 1 s: within 0.2 + 5
        with pytest.raises(BotFault) as err:
            b.ask(REQ, LEGAL)
        assert "no answer within 0.2 s" in str(err.value)
    finally:
        b.close(grace=0)


def test_commands_are_split_not_given_to_a_shell(tmp_path: Path) -> None:
    assert command_argv("python 'my bot.py' --x \"a b\"") == ["python", "my bot.py", "--x",
                                                              "a b"]
    marker = tmp_path / "pwned"
    b = SubprocessBot(f"echo hi; touch {marker}", think_time=0.3)
    b.launch()                 # runs `echo` with the arguments "hi;", "touch", PATH
    b.close()
    assert not marker.exists()
    for bad in ("", "   ", "python 'unclosed"):
        with pytest.raises(BotFault) as err:
            SubprocessBot(bad, think_time=1).launch()
        assert err.value.kind == "start"
    with pytest.raises(BotFault) as err:
        SubprocessBot("/nonexistent/bot", think_time=1).launch()
    assert err.value.kind == "start" and "cannot start '/nonexistent/bot'" in str(err.value)
