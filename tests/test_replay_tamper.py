"""A log proves itself (issue 18 item 8): any single-field edit of a record is caught and the
field named; crafted results never reach arithmetic or JSON; a record reads no file it names;
simulate's own log of a file ruleset replays."""
from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rulekit import cli
from rulekit.game import record
from rulekit.tiles import NUM_ALL_KINDS, TILE_NAMES
from conftest import examples

TILES = [TILE_NAMES[k] for k in range(NUM_ALL_KINDS)]


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """Three hands of a real log (a win, with value and random players among them)."""
    log = tmp_path_factory.mktemp("tamper") / "log.jsonl"
    assert cli.main(["simulate", "--hands", "3", "--seed", "4", "--players",
                     "greedy,value,random,greedy", "--log", str(log)], out=io.StringIO()) == 0
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in leaves(v, path + (k,))]
    if isinstance(value, list) and value:
        return [p for i, v in enumerate(value) for p in leaves(v, path + (i,))]
    return [path]


def edit(rec: dict[str, Any], path: tuple[Any, ...], draw: Any) -> bool:
    """Change the leaf of `rec` at `path` to another value `other` draws; False when the draw
    gave the same value back (nothing was edited)."""
    target: Any = rec
    for key in path[:-1]:
        target = target[key]
    new = other(target[path[-1]], draw, path)
    if new == target[path[-1]] and type(new) is type(target[path[-1]]):
        return False
    target[path[-1]] = new
    return True


def other(value: Any, draw: st.DrawFn, path: tuple[Any, ...]) -> Any:
    """Another value of the same look: a tile for a tile, a number near a number, a wall
    with two different tiles swapped (every tile still there)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + draw(st.sampled_from([-2, -1, 1, 2, 3]))
    if isinstance(value, float):
        return value + 0.5
    if value is None:
        return draw(st.sampled_from([0, "1m"]))
    if isinstance(value, list):
        return [0] if not value else value[:-1]
    assert isinstance(value, str)
    if path == ("wall",):
        tiles = [value[i:i + 2] for i in range(0, len(value), 2)]
        i = draw(st.integers(0, len(tiles) - 1))
        j = draw(st.sampled_from([j for j, t in enumerate(tiles) if t != tiles[i]]))
        tiles[i], tiles[j] = tiles[j], tiles[i]
        return "".join(tiles)
    if value in TILES:
        return draw(st.sampled_from([t for t in TILES if t != value]))
    if len(value) == 64 and all(c in "0123456789abcdef" for c in value):
        return ("0" if value[0] != "0" else "1") + value[1:]
    return draw(st.sampled_from([value + "x", value[:-1] or "x", "tianjin-gold8"]))


def replay(rec: dict[str, Any], path: Path, capsys: pytest.CaptureFixture[str]
           ) -> tuple[int, str]:
    path.write_text(json.dumps(rec, ensure_ascii=False) + "\n", encoding="utf-8")
    out = io.StringIO()
    code = cli.main(["replay", str(path), "--format", "json"], out=out)
    return code, out.getvalue() + capsys.readouterr().err


@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_single_field_edit_is_caught_and_named(
        records: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        data: st.DataObject) -> None:
    rec = copy.deepcopy(data.draw(st.sampled_from(records)))
    path = data.draw(st.sampled_from(leaves(rec)))
    if not edit(rec, path, data.draw):
        return
    code, text = replay(rec, tmp_path / "edited.jsonl", capsys)
    if path == ("seal", "key") and code == 0:   # another key's seal cannot be checked:
        assert "not authenticated (sealed with key " in text      # said, not an error here
        assert f"not this key ({record_key_id()})" in text
        return
    assert code in (1, 2), text
    assert "Traceback" not in text and "internal error" not in text
    if code == 1:
        report = json.loads(text.splitlines()[0])
        assert report["reproduced"] == 0
        why = report["not_authentic"][0]["why"]
    else:
        why = text.split(": line 1: ", 1)[1]
    # the edited field is named: the path itself (or the bad item in a list put there), or
    # the field it is in where only the digest can tell (the inputs: seed, players...)
    named = why.split(":")[0]
    full = record.where(path)
    assert named.split("[")[0].split(".")[0] == str(path[0]), (full, why)
    assert full.startswith(named) or named.startswith(full), (full, why)
    if path[0] in record.DERIVED + ("digest",):
        assert named.startswith(full), (full, why)


def test_the_log_replays_untouched(records: list[dict[str, Any]], tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    out = io.StringIO()
    assert cli.main(["replay", str(log)], out=out) == 0
    assert out.getvalue() == "3 hands, 3 reproduced exactly, 3 authentic\n"
    assert all(r["format"] == 2 and list(r)[-2:] == ["digest", "seal"] for r in records)


@pytest.mark.parametrize("payments", [[1e308, -1e308, 1e308, -1e308], ["1", 2, 3, 4],
                                      [True, 0, 0, 0], [1, 2, 3], {"a": 1}])
def test_crafted_payments_are_refused_naming_them(
        records: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        payments: Any) -> None:
    rec = copy.deepcopy(records[0])
    rec["result"]["payments"] = payments
    code, text = replay(rec, tmp_path / "crafted.jsonl", capsys)
    assert code == 2 and text.count("\n") == 1 and ": line 1: result.payments" in text
    assert "Infinity" not in text and "NaN" not in text


@pytest.mark.parametrize("result", [None, [], {"winner": 0}, "won"])
def test_a_crafted_result_is_refused_naming_it(
        records: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        result: Any) -> None:
    rec = copy.deepcopy(records[0])
    rec["result"] = result
    code, text = replay(rec, tmp_path / "crafted.jsonl", capsys)
    assert code == 2 and text.endswith(": line 1: result: the result is {chan, hand, kongs, "
                                       "next_dealer, patterns, payments, total_fan, win_by, "
                                       "winner}\n")


@pytest.mark.parametrize("name", ["/etc/passwd", "../rulesets/tianjin.yaml", "my.yaml",
                                  "nosuchruleset"])
def test_a_record_never_names_a_file_to_read(
        records: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "nosuchruleset").write_text("extends: tianjin\nname: nosuchruleset\n")
    rec = record.seal({**copy.deepcopy(records[0]), "ruleset": name})
    code, text = replay(rec, tmp_path / "named.jsonl", capsys)
    assert code == 2 and text.count("\n") == 1 and ": line 1: ruleset: " in text
    assert "root:" not in text


def test_simulates_own_log_of_a_file_ruleset_replays(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    rules = tmp_path / "house.yaml"
    rules.write_text("extends: tianjin\nname: Our house 我家\n", encoding="utf-8")
    log = tmp_path / "log.jsonl"
    assert cli.main(["simulate", "-r", str(rules), "--hands", "4", "--log", str(log)],
                    out=io.StringIO()) == 0
    out = io.StringIO()
    assert cli.main(["replay", str(log), "--ruleset", str(rules)], out=out) == 0
    assert out.getvalue() == "4 hands, 4 reproduced exactly, 4 authentic\n"
    assert cli.main(["replay", str(log)], out=io.StringIO()) == 2
    assert capsys.readouterr().err.endswith(
        "line 1: ruleset: 'Our house 我家' is not a built-in ruleset; pass its file with "
        "--ruleset (a record never names a file to read)\n")


def test_a_record_before_format_2_is_read_with_one_warning(
        records: list[dict[str, Any]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    old = [{k: v for k, v in copy.deepcopy(r).items()
            if k not in ("format", "digest", "seal")} for r in records]
    old[1]["events"][5]["seat"] = (old[1]["events"][5]["seat"] + 1) % 4
    log = tmp_path / "old.jsonl"
    log.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in old))
    out = io.StringIO()
    assert cli.main(["replay", str(log), "--format", "json"], out=out) == 1
    report = json.loads(out.getvalue())
    assert report["reproduced"] == 2
    assert report["not_authentic"][0]["why"].startswith("events[5].seat: recorded ")
    assert capsys.readouterr().err == (
        f"rulekit: warning: {log}: 3 record(s) written before format 2 (no digest): an edit "
        "of their seed, dealer or players shows only as the fields it changes\n")


def record_key_id() -> str:
    from rulekit.game import recordkey
    key = recordkey.load()
    assert key is not None
    return key.id


def unused_wall_swap(rec: dict[str, Any]) -> tuple[str, int]:
    """The wall with two tiles swapped that the hand never drew (the scripted replay still
    reproduces it exactly: only the seed tells), and the first position changed."""
    from rulekit import api
    from rulekit.game.replay import replay as scripted
    rs = api.load_ruleset(rec["ruleset"])
    tiles = [rec["wall"][i:i + 2] for i in range(0, len(rec["wall"]), 2)]
    for i in range(len(tiles) // 2, len(tiles) - 1):
        if tiles[i] != tiles[i + 1]:
            swapped = tiles[:i] + [tiles[i + 1], tiles[i]] + tiles[i + 2:]
            if scripted({**rec, "wall": "".join(swapped)}, rs)["same"]:
                return "".join(swapped), i
    pytest.fail("no unused pair of tiles in the wall")


@pytest.mark.parametrize("field", ["seed", "dice", "indicator", "players", "unused wall tile",
                                   "a discard"])
@pytest.mark.parametrize("sealed", [True, False], ids=["format 2", "format 1"])
def test_the_issues_edits_never_reproduce(records: list[dict[str, Any]], tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str], field: str,
                                          sealed: bool) -> None:
    rec = copy.deepcopy(min(records, key=lambda r: len(r["events"])))
    named = field
    if field == "seed":
        rec["seed"] += 1
    elif field == "dice":
        rec["dice"][0] = rec["dice"][0] % 6 + 1
        named = "dice[0]"
    elif field == "indicator":
        rec["indicator"] = "1m" if rec["indicator"] != "1m" else "2m"
    elif field == "players":
        rec["players"][0] = "random" if rec["players"][0] != "random" else "greedy"
    elif field == "unused wall tile":
        rec["wall"], at = unused_wall_swap(rec)
        named = "wall"
    else:
        i = next(i for i, e in enumerate(rec["events"]) if e["action"] == "discard")
        rec["events"][i]["tile"] = "9s" if rec["events"][i]["tile"] != "9s" else "8s"
        named = f"events[{i}].tile"
    if not sealed:
        rec = {k: v for k, v in rec.items() if k not in ("format", "digest", "seal")}
    code, text = replay(rec, tmp_path / "edited.jsonl", capsys)
    assert code == 1 and "Traceback" not in text, text
    report = json.loads(text.splitlines()[0])
    why = report["not_authentic"][0]["why"]
    assert report["reproduced"] == 0
    if sealed or field not in ("seed", "players"):
        assert why.startswith(named + ":"), why
    if field == "unused wall tile":
        assert why.startswith(f"wall: tile {at} recorded ")


def test_an_edited_record_is_not_compared_under_another_ruleset(
        records: list[dict[str, Any]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    edited = copy.deepcopy(records[1])
    edited["result"]["total_fan"] += 1
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n"
                           for r in (records[0], edited, records[2])), encoding="utf-8")
    out = io.StringIO()
    assert cli.main(["replay", str(log), "--ruleset", "tianjin-gold8", "--format", "json"],
                    out=out) == 1
    report = json.loads(out.getvalue())
    assert report["not_authentic"] == [{"line": 2, "why": report["not_authentic"][0]["why"]}]
    assert report["not_authentic"][0]["why"].startswith("result.total_fan: recorded ")
    assert report["diverged"] == [] and report["hands"] == 3
