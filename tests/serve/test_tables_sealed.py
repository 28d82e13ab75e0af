"""A table's records are sealed when each hand ends (rulekit.serve.tables.records): the
export (`hands.jsonl`, `hands/{n}`) replays authentic, a person's move changed in it does
not, and `rulekit serve --key-file` refuses a key others can read before it serves."""
from __future__ import annotations

import copy
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from rulekit import cli
from rulekit.game import record, recordkey
from serve.tables_helpers import THREE_BOTS, create, play_out, tables_client, wait_status


def replay(path: Path, *flags: str) -> tuple[int, dict[str, Any], str]:
    out, err = io.StringIO(), io.StringIO()
    old, sys.stderr = sys.stderr, err
    try:
        code = cli.main(["replay", str(path), "--format", "json", *flags], out=out)
    finally:
        sys.stderr = old
    return code, json.loads(out.getvalue()), err.getvalue()


@pytest.fixture(scope="module")
def exported() -> list[str]:
    """Two hands of a table with a person at seat 0, as `hands.jsonl` exports them."""
    with tables_client() as c:
        t = create(c, THREE_BOTS, hands=2)
        with c.websocket_connect(t["seats"][0]["ws"]) as ws:
            play_out(ws)
            play_out(ws)
        assert wait_status(c, t["id"], "finished")["status"] == "finished"
        lines: list[str] = c.get(f"/v1/tables/{t['id']}/hands.jsonl").text.splitlines()
        assert json.loads(lines[1]) == _one(c, t["id"], 1)
    return lines


def _one(c: TestClient, tid: str, n: int) -> object:
    return c.get(f"/v1/tables/{tid}/hands/{n}").json()


def test_a_tables_export_is_sealed_and_replays_authentic(exported: list[str],
                                                         tmp_path: Path) -> None:
    key = recordkey.load()
    assert key is not None
    recs = [json.loads(x) for x in exported]
    assert [r["players"][0] for r in recs] == ["human", "human"]
    assert all(r["seal"]["key"] == key.id and "settle" not in r for r in recs)
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join(exported) + "\n", encoding="utf-8")
    code, rep, err = replay(path)
    assert (code, rep["reproduced"], rep["authentic"], rep["unauthenticated"], err) == \
        (0, 2, 2, [], "")


def test_a_persons_move_edited_in_the_export_is_not_authentic(exported: list[str],
                                                              tmp_path: Path) -> None:
    rec = copy.deepcopy(json.loads(exported[0]))
    i = next(i for i, e in enumerate(rec["events"]) if e["seat"] == 0 and e["tile"])
    rec["events"][i]["tile"] = "9s" if rec["events"][i]["tile"] != "9s" else "8s"
    path = tmp_path / "hands.jsonl"
    path.write_text(json.dumps(record.seal(rec), ensure_ascii=False) + "\n", encoding="utf-8")
    code, rep, _ = replay(path)
    assert code == 1 and rep["authentic"] == 0 and rep["not_authentic"][0]["line"] == 1


def test_serve_refuses_a_key_file_others_can_read(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(recordkey.ENV, recordkey.default_path())     # restored after
    key = tmp_path / "table.key"
    key.write_text("ab" * 32 + "\n")
    key.chmod(0o644)
    assert cli.main(["serve", "--db", ":memory:", "--key-file", str(key),
                     "--port", "0"], out=io.StringIO()) == 2
    assert capsys.readouterr().err == (f"rulekit serve: error: {key}: the record key may be "
                                       "read or written by others (mode 0644); chmod 600 it\n")
