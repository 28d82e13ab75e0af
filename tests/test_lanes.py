"""`rulekit.game.lanes`, simulate's worker processes: results in task order from every
worker, a task's exception or a dead worker ends the run, and however it ends no worker is
left (`multiprocessing.active_children()`). The CLI's signal behaviour is
tests/test_signals.py's."""
from __future__ import annotations

import multiprocessing
import os
import signal
from collections import deque
from typing import Any

import pytest

from rulekit.errors import RulekitError
from rulekit.game import lanes
from rulekit.workers import WorkerError

DIED = "a worker died"
_SET_UP: list[str] = []


class Refused(RulekitError):
    """What a task raises on purpose."""


def echo(task: int) -> tuple[int, int, list[str]]:
    return task, os.getpid(), list(_SET_UP)


def set_up() -> None:
    _SET_UP.append("ready")


def refuse_five(task: int) -> int:
    if task == 5:
        raise Refused("task 5 refused")
    return task


def die_at_three(task: int) -> int:
    if task == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return task


def unpicklable(task: int) -> Any:
    return lambda: task


def no_workers_left(before: set[Any]) -> bool:
    """No child process beyond those running before the test (other tests' may be)."""
    return set(multiprocessing.active_children()) <= before


@pytest.fixture
def before() -> set[Any]:
    return set(multiprocessing.active_children())


def test_results_come_back_in_task_order_from_every_worker(before: set[Any]) -> None:
    got = list(lanes.in_order(echo, list(range(40)), 3, DIED, setup=set_up))
    assert [t for t, _, _ in got] == list(range(40))
    pids = {pid for _, pid, _ in got}
    assert len(pids) == 3 and os.getpid() not in pids     # each worker was handed tasks
    assert all(ready == ["ready"] for _, _, ready in got)  # `setup` ran once in each
    assert no_workers_left(before)


def test_more_workers_than_tasks_and_no_tasks_at_all(before: set[Any]) -> None:
    assert [t for t, _, _ in lanes.in_order(echo, [7, 8, 9], 8, DIED)] == [7, 8, 9]
    assert list(lanes.in_order(echo, [], 4, DIED)) == []
    assert no_workers_left(before)


def test_a_task_s_exception_comes_in_its_turn(before: set[Any]) -> None:
    """Raised in the parent after the results of the tasks before it, as a pool's is."""
    got: list[int] = []
    with pytest.raises(Refused, match="task 5 refused"):
        for r in lanes.in_order(refuse_five, list(range(20)), 2, DIED):
            got.append(r)
    assert got == [0, 1, 2, 3, 4]
    assert no_workers_left(before)


def test_a_killed_worker_is_a_worker_error(before: set[Any]) -> None:
    got: list[int] = []
    with pytest.raises(WorkerError, match=DIED):
        for r in lanes.in_order(die_at_three, list(range(20)), 2, DIED):
            got.append(r)
    assert got == [0, 1, 2][:len(got)]     # in order; how many came first is a race
    assert no_workers_left(before)


def test_an_answer_that_does_not_pickle_is_an_error_not_a_hang(before: set[Any]) -> None:
    with pytest.raises(RuntimeError, match="pickle"):
        list(lanes.in_order(unpicklable, [1, 2, 3], 2, DIED))
    assert no_workers_left(before)


def test_a_run_closed_early_stops_its_workers(before: set[Any]) -> None:
    run = lanes.in_order(echo, list(range(100)), 2, DIED)
    assert [next(run)[0], next(run)[0]] == [0, 1]
    assert len(set(multiprocessing.active_children()) - before) == 2
    run.close()
    assert no_workers_left(before)


class FakeConn:
    def __init__(self) -> None:
        self.sent: list[int] = []

    def send(self, index: int) -> None:
        self.sent.append(index)


def test_workers_hold_two_tasks_until_the_last_round_then_one() -> None:
    """The tail: no worker holds a second task while the tasks left are fewer than a round
    of two a worker, so the last to finish is at most one task behind."""
    pair = [lanes._Lane(None, FakeConn()) for _ in range(2)]   # type: ignore[arg-type]
    given = lanes._feed(pair, 7, 0, DIED)
    assert given == 4 and [list(w.held) for w in pair] == [[0, 1], [2, 3]]
    pair[0].held = deque([1])                  # worker 0 answered task 0: 3 left, 4 a round
    given = lanes._feed(pair, 7, given, DIED)
    assert given == 4 and list(pair[0].held) == [1]
    pair[0].held = deque()                     # and task 1: it gets one more, not two
    given = lanes._feed(pair, 7, given, DIED)
    assert given == 5 and list(pair[0].held) == [4]
    sent = [lane.conn.sent for lane in pair]                  # type: ignore[attr-defined]
    assert sent == [[0, 1, 4], [2, 3]]
