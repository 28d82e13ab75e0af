"""A ruleset that loads in the parent loads in `simulate`'s workers too (issue 18, item 11):
they get the merged ruleset as plain data (`model.load_merged`), not as a user's file, so the
file-size limit meant for one file does not refuse a chain at the size limits, and an error
names the ruleset, never a temporary file."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulekit
from rulekit import limits
from rulekit.errors import RulesetError
from rulekit.game import simulate
from rulekit.ruleset.model import load_merged


def _wide(tmp_path: Path) -> Path:
    """110 patterns at the schema's text limits, written with backslashes that JSON doubles:
    a 660 kB file whose merged text is over limits.RULESET_BYTES."""
    bs = "\\"
    pats = "".join(f"  p{i}:\n    name: p{i}\n    description: {bs * 1990}\n"
                   f"    when: 'false # {bs * 3980}'\n" for i in range(110))
    path = tmp_path / "wide.yaml"
    path.write_text(f"extends: tianjin\nname: wide\npatterns:\n{pats}", encoding="utf-8")
    return path


def test_a_ruleset_at_the_size_limits_loads_in_a_worker(tmp_path: Path) -> None:
    rs = rulekit.load_ruleset(_wide(tmp_path))
    assert len(simulate.ruleset_text(rs)) > limits.RULESET_BYTES
    (task,) = simulate.tasks(rs, ["greedy"] * 4, 2, 7, chunks=1, log=False)
    outcomes = simulate.run_task(task)                   # what a worker runs
    assert len(outcomes) == 2
    shipped = simulate.load_shipped(task.ruleset, task.name)
    assert shipped.name == "wide" and len(shipped.patterns) == len(rs.patterns)
    assert simulate.ruleset_text(shipped) == task.ruleset


def test_the_same_hands_whether_loaded_from_the_file_or_shipped() -> None:
    rs = rulekit.load_ruleset("tianjin")
    (task,) = simulate.tasks(rs, ["greedy"] * 4, 3, 11, chunks=1, log=True)
    shipped = load_merged(task.ruleset, "tianjin")
    assert simulate.ruleset_text(shipped) == simulate.ruleset_text(rs)
    outcomes = simulate.run_task(task)                  # the shipped text, as a worker
    assert [o["payments"] for o in outcomes] == [       # the file's ruleset, hand by hand
        simulate._one(rs, task, simulate.hand_seed(11, i), o["dealer"], i)["payments"]
        for i, o in enumerate(outcomes)]


@pytest.mark.parametrize("text, message", [
    ("{\"name\": \"x\", \"patterns\": {\"p\": {\"name\": \"p\", \"when\": \"nope(\"}}}",
     "x:1:"),
    ("[1, 2]", "x: not a merged ruleset (a mapping without extends)"),
    ("{\"extends\": \"/etc/passwd\"}", "x: not a merged ruleset (a mapping without extends)"),
    ("{", "x: not a merged ruleset ("),
])
def test_a_bad_shipped_ruleset_names_the_ruleset_not_a_file(text: str, message: str) -> None:
    with pytest.raises(RulesetError) as err:
        load_merged(text, "x")
    assert all(p.startswith("x:") for p in err.value.problems), err.value.problems
    assert message in str(err.value)
    assert "/tmp" not in str(err.value) and ".yaml" not in str(err.value)


def test_a_shipped_text_past_what_a_chain_can_hold_is_refused() -> None:
    most = 2 * limits.EXTENDS_DEPTH * limits.RULESET_BYTES
    with pytest.raises(RulesetError) as err:
        load_merged(json.dumps({"description": "x" * most}), "x")
    assert str(err.value).startswith("x: merged ruleset too large (")


def test_the_parent_loads_the_shipped_text_once_and_any_other_process_checks_it() -> None:
    """`tasks` keeps the caller's ruleset under its merged text: this process and its forked
    workers use that copy (no parse and check of the text); a process without it (a spawned
    worker, a cluster's) loads the text in full, to the same hands."""
    rs = rulekit.load_ruleset("tianjin")
    (task,) = simulate.tasks(rs, ["greedy"] * 4, 3, 5, chunks=1, log=False)
    loaded = simulate._LOADED[task.ruleset]
    (again,) = simulate.tasks(rs, ["greedy"] * 4, 3, 5, chunks=1, log=False)
    assert simulate.load_shipped(again.ruleset, task.name) is loaded
    here = simulate.run_task(task)
    saved = dict(simulate._LOADED)
    simulate._LOADED.clear()
    try:
        elsewhere = simulate.run_task(task)
        fresh = simulate._LOADED[task.ruleset]
        assert fresh is not loaded and simulate.ruleset_text(fresh) == task.ruleset
    finally:
        simulate._LOADED.clear()
        simulate._LOADED.update(saved)
    assert elsewhere == here
    with pytest.raises(RulesetError):          # a changed text is never taken on trust
        simulate.load_shipped(task.ruleset.replace('"when"', '"when_"', 1), task.name)


def test_a_process_keeps_a_few_shipped_rulesets() -> None:
    rs = rulekit.load_ruleset("tianjin")
    saved = dict(simulate._LOADED)
    try:
        for i in range(simulate.LOADED_MAX + 3):
            simulate._remember(f"text {i}", rs)
        assert len(simulate._LOADED) == simulate.LOADED_MAX
        assert "text 0" not in simulate._LOADED and f"text {i}" in simulate._LOADED
    finally:
        simulate._LOADED.clear()
        simulate._LOADED.update(saved)
