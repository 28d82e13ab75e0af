"""Sealed records (issue 18 item 8): a log whose seats' moves no re-play can derive (a
`cmd:` bot, a person, a remote bot) proves itself by its seal, an HMAC under the
installation's key; any edit, its digest recomputed, is caught; the key file is kept
private and never shown (docs/game.md, "Sealed records")."""
from __future__ import annotations

import copy
import io
import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rulekit import api, cli
from rulekit.game import record, recordkey, sealing
from rulekit.game.replay import field_of, replay as scripted
from rulekit.tiles import NUM_ALL_KINDS, TILE_NAMES
from conftest import examples
from test_replay_tamper import edit, leaves

ROOT = Path(__file__).resolve().parents[1]
BOT = f"cmd:{sys.executable} {ROOT / 'examples' / 'bot_greedyish.py'}"
TILES = [TILE_NAMES[k] for k in range(NUM_ALL_KINDS)]


@pytest.fixture(scope="module")
def matched(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """Three hands of `rulekit match` with a bot process at seat 0, as its log keeps them."""
    log = tmp_path_factory.mktemp("seal") / "match.jsonl"
    argv = ["match", "--seat", BOT, "--seat", "greedy", "--seat", "value", "--seat",
            "greedy", "--hands", "3", "--seed", "11", "--log", str(log)]
    assert cli.main(argv, out=io.StringIO()) == 0
    return [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]


def this_key() -> recordkey.RecordKey:
    key = recordkey.load()
    assert key is not None          # the test run's key (tests/conftest.py)
    return key


def as_remote(rec: dict[str, Any]) -> dict[str, Any]:
    """The record as a table with a remote bot at seat 0 would have sealed it."""
    relabelled = record.seal({**copy.deepcopy(rec), "players": ["remote"] + rec["players"][1:]})
    return sealing.sealed(relabelled, this_key())


def run(tmp_path: Path, recs: list[dict[str, Any]], *flags: str
        ) -> tuple[int, str, str]:
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs),
                    encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    old, sys.stderr = sys.stderr, err
    try:
        code = cli.main(["replay", str(path), *flags], out=out)
    finally:
        sys.stderr = old
    return code, out.getvalue(), err.getvalue()


def test_a_match_log_is_sealed_and_replays_authentic(matched: list[dict[str, Any]],
                                                     tmp_path: Path) -> None:
    key = this_key()
    assert all(r["players"][0] == BOT and list(r)[-1] == "seal" for r in matched)
    for r in matched:
        tags = {k: v[:32] for k, v in r["digest"]["fields"].items()}
        assert r["seal"] == {"alg": "hmac-sha256", "key": key.id, "fields": tags,
                             "mac": sealing.mac(key.secret, key.id, tags)}
        assert list(tags) == [k for k in r if k not in ("digest", "seal")]
    assert run(tmp_path, matched) == (0, "3 hands, 3 reproduced exactly, 3 authentic\n", "")
    code, out, err = run(tmp_path, matched, "--format", "json")
    rep = json.loads(out)
    assert (code, rep["authentic"], rep["unauthenticated"], rep["key"], err) == \
        (0, 3, [], key.id, "")


def test_the_seal_line_is_the_sealed_record(matched: list[dict[str, Any]]) -> None:
    rec = {k: v for k, v in matched[0].items() if k != "seal"}
    line = json.dumps(rec, ensure_ascii=False, separators=(",", ":"))
    assert json.loads(sealing.seal_line(line, this_key())) == matched[0]
    with pytest.raises(ValueError):
        sealing.seal_line('{"hand":0}', this_key())


def legal_other_discard(rec: dict[str, Any]) -> dict[str, Any]:
    """The record with one of the bot's (seat 0's) discards changed to another tile such
    that the hand still replays exactly: the edit the digest and the re-play cannot see
    once the digest is recomputed."""
    rs = api.load_ruleset(rec["ruleset"])
    discards = [i for i, e in enumerate(rec["events"])
                if e["seat"] == 0 and e["action"] == "discard"]
    for i in reversed(discards):
        for tile in TILES:
            if tile == rec["events"][i]["tile"]:
                continue
            edited = copy.deepcopy(rec)
            edited["events"][i]["tile"] = tile
            if scripted(edited, rs)["same"]:
                return record.seal(edited)          # the digest recomputed; seal kept
    raise AssertionError("no legal other discard in this hand")


def test_a_bots_discard_changed_to_another_legal_tile_is_caught(
        matched: list[dict[str, Any]], tmp_path: Path) -> None:
    forged = legal_other_discard(matched[0])
    assert forged["seal"] == matched[0]["seal"] and record.edited(forged) is None
    code, out, err = run(tmp_path, [forged])
    assert (code, err) == (1, "")
    assert out == ("1 hands, 0 reproduced exactly\n  line 1: not authentic: events: changed "
                   "since this key sealed the record (the seal's hash of it differs)\n")
    # without the seal it would pass: that is what the key is for
    code, out, err = run(tmp_path, [{k: v for k, v in forged.items() if k != "seal"}])
    assert (code, out) == (0, "1 hands, 1 reproduced exactly\n  line 1: not authenticated: "
                              "not sealed (seats 0: their moves are proved legal only)\n")
    assert err.count("\n") == 1 and "1 record(s) not authenticated (not sealed)" in err
    code, out, err = run(tmp_path, [{k: v for k, v in forged.items() if k != "seal"}],
                         "--require-seal")
    assert code == 1 and "line 1: not authentic: seal: not sealed (--require-seal)" in out


def test_an_edit_the_digest_sees_is_named_even_when_sealed(
        matched: list[dict[str, Any]], tmp_path: Path) -> None:
    rec = copy.deepcopy(matched[1])
    rec["hand"] += 7                         # the digest not recomputed: the field is named
    code, out, _ = run(tmp_path, [rec])
    assert code == 1 and "line 1: not authentic: hand: edited since the record was " \
        "written (its digest does not match)" in out


@settings(max_examples=examples(120), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_single_field_edit_of_a_sealed_record_is_caught(
        matched: list[dict[str, Any]], tmp_path: Path, data: st.DataObject) -> None:
    """A record with a cmd: or a remote seat: any one field changed, the digest recomputed
    (anyone can), is refused (exit 1 naming the field or the seal, or exit 2 naming it)."""
    rec = copy.deepcopy(data.draw(st.sampled_from(matched)))
    if data.draw(st.booleans()):
        rec = as_remote(rec)
    before = copy.deepcopy(rec)
    path = data.draw(st.sampled_from([p for p in leaves(rec) if p[0] not in ("digest",)]))
    if not edit(rec, path, data.draw):
        return
    rec = record.seal(rec)              # the digest recomputed (`format` is set to 2 again)
    if rec == before:
        return
    code, out, err = run(tmp_path, [rec], "--format", "json")
    if path == ("seal", "key") and code == 0:       # sealed by "another key": never passed
        rep = json.loads(out)                        # as authentic, said on stderr
        assert rep["authentic"] == 0 and rep["unauthenticated"][0]["line"] == 1
        assert "not authenticated (sealed with key" in err
        return
    assert code in (1, 2), (path, out, err)
    assert "Traceback" not in out + err and "internal error" not in out + err
    if code == 1:
        rep = json.loads(out)
        assert rep["reproduced"] == 0 and rep["authentic"] == 0
        why = rep["not_authentic"][0]["why"]
    else:
        assert err.count("\n") == 1 and ": line 1: " in err
        why = err.split(": line 1: ", 1)[1]
    assert field_of(why) == path[0], (path, why)       # the field edited, named


def test_another_key_says_so_and_require_seal_refuses(
        matched: list[dict[str, Any]], tmp_path: Path) -> None:
    other_key = tmp_path / "other.key"
    made = recordkey.load_or_create(str(other_key))
    code, out, err = run(tmp_path, matched, "--key-file", str(other_key))
    assert (code, out) == (0, "3 hands, 3 reproduced exactly\n"
                              + "".join(f"  line {n}: not authenticated: sealed with key "
                                        f"{this_key().id}, not this key ({made.id}): "
                                        "rotated, or another installation's (seats 0: "
                                        "their moves are proved legal only)\n"
                                        for n in (1, 2, 3)))
    assert err == (f"rulekit: warning: {tmp_path / 'log.jsonl'}: 3 record(s) not "
                   f"authenticated (sealed with key {this_key().id}, not this key "
                   f"({made.id}): rotated, or another installation's): the moves of their "
                   "cmd:, human or remote seats are proved legal, not made by them; "
                   "--require-seal refuses such records\n")
    code, out, err = run(tmp_path, matched, "--key-file", str(other_key), "--require-seal")
    assert code == 1 and out.count("not authentic: seal: sealed with key") == 3


def test_no_key_leaves_the_bots_moves_unauthenticated_and_makes_none(
        matched: list[dict[str, Any]], tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "record.key"
    code, out, err = run(tmp_path, matched, "--key-file", str(missing), "--format", "json")
    rep = json.loads(out)
    assert (code, rep["authentic"], rep["key"]) == (0, 0, None)
    assert [u["seats"] for u in rep["unauthenticated"]] == [[0], [0], [0]]
    assert "no record key here to check it" in err and not missing.parent.exists()


def test_a_built_in_only_record_is_sealed_but_needs_no_key(tmp_path: Path) -> None:
    log = tmp_path / "sim.jsonl"
    assert cli.main(["simulate", "--hands", "2", "--seed", "2", "--log", str(log)],
                    out=io.StringIO()) == 0
    recs = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    assert all(r["seal"]["key"] == this_key().id for r in recs)
    code, out, err = run(tmp_path, recs, "--key-file", str(tmp_path / "none.key"))
    assert (code, out, err) == (0, "2 hands, 2 reproduced exactly\n", "")   # the re-play
    #                                                                 proves every move


# -- the key file ---------------------------------------------------------------------------

def test_the_key_is_made_private_on_first_need_and_never_shown(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]
                                                               ) -> None:
    home = tmp_path / "config"
    monkeypatch.delenv(recordkey.ENV)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    path = home / "rulekit" / "record.key"
    assert recordkey.default_path() == str(path)
    log = tmp_path / "sim.jsonl"
    assert cli.main(["simulate", "--hands", "1", "--log", str(log)], out=io.StringIO()) == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    key = recordkey.load()
    assert key is not None and len(key.secret) == 32 and path.read_text() == \
        key.secret.hex() + "\n"
    assert key.secret.hex() not in repr(key)
    text = log.read_text() + capsys.readouterr().out
    assert key.secret.hex() not in text and json.loads(text.splitlines()[0])["seal"]["key"] \
        == key.id == recordkey.key_id(key.secret)
    again = recordkey.load_or_create()       # made once: the next writer reads it
    assert again.secret == key.secret


def bad_key(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / "bad.key"
    if kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path, 0o600)
    else:
        text = {"garbage": "not hex\n", "short": "ab" * 16 + "\n"}.get(kind, "ab" * 32 + "\n")
        path.write_text(text)
        path.chmod({"group": 0o640, "world": 0o604, "writable": 0o620}.get(kind, 0o600))
    return path


MESSAGES = {"group": "the record key may be read or written by others (mode 0640); "
                     "chmod 600 it",
            "world": "the record key may be read or written by others (mode 0604); "
                     "chmod 600 it",
            "writable": "the record key may be read or written by others (mode 0620); "
                        "chmod 600 it",
            "directory": "the record key is not a regular file",
            "fifo": "the record key is not a regular file",
            "garbage": "not a record key (one line of 64 hex digits)",
            "short": "not a record key (one line of 64 hex digits)"}


@pytest.mark.parametrize("kind", sorted(MESSAGES))
@pytest.mark.parametrize("command", ["simulate", "match", "replay"])
def test_a_key_file_others_can_read_or_not_a_file_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        kind: str, command: str) -> None:
    path = bad_key(tmp_path, kind)
    monkeypatch.setenv(recordkey.ENV, str(path))
    log = tmp_path / "out.jsonl"
    log.write_text("kept\n")
    argv = {"simulate": ["simulate", "--hands", "1", "--log", str(log)],
            "match": ["match", "--seat", "greedy", "--seat", "greedy", "--seat", "greedy",
                      "--seat", "greedy", "--hands", "1", "--log", str(log)],
            "replay": ["replay", str(log)]}[command]
    assert cli.main(argv, out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err == f"rulekit {command}: error: {path}: {MESSAGES[kind]}\n"
    assert log.read_text() == "kept\n"          # refused before the old log was emptied
    if kind not in ("directory", "fifo"):
        assert ("ab" * 32) not in err


def test_two_writers_making_the_key_at_once_agree(tmp_path: Path) -> None:
    """The key appears whole (linked from a finished file) and is never replaced."""
    path = str(tmp_path / "k" / "record.key")
    first = recordkey.load_or_create(path)
    os.unlink(path)
    recordkey._create(path)
    second = recordkey.load(path)
    recordkey._create(path)              # a second maker finds one: it keeps it
    assert second is not None and recordkey.load(path) == second != first
    assert sorted(os.listdir(tmp_path / "k")) == ["record.key"]    # no temporary left


def test_a_seal_whose_tags_were_edited_is_named(matched: list[dict[str, Any]],
                                               tmp_path: Path) -> None:
    """Tags made to fit an edit (without the key, no mac fits them): the seal is named."""
    rec = copy.deepcopy(matched[2])
    rec["players"][1] = "value"
    rec = record.seal(rec)
    rec["seal"]["fields"]["players"] = rec["digest"]["fields"]["players"][:32]
    code, out, _ = run(tmp_path, [rec])
    assert (code, out) == (1, "1 hands, 0 reproduced exactly\n  line 1: not authentic: seal: "
                              "its mac does not match its field hashes: the seal was edited "
                              "since this key made it\n")
