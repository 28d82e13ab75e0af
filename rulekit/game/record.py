"""A hand record (one line of `simulate --log`) as a document: its shape checked field by
field, sealed with a digest, and proved against the hand its seed and players give
(docs/game.md, "Logs", "Replay"; issue 18 item 8).

Three checks, each naming the first field that is wrong:
- `check`: the shape (types, ranges, sizes), like any document a user hands us; a crafted
  `result` or `payments` is refused here, before anything computes with it.
- `edited`: format 2 records carry `digest`: SHA-256 of the canonical JSON (sorted keys, no
  spaces, UTF-8) of each other field (but `seal`) and of the whole record. It is an
  integrity check against edits, not a signature: anyone can recompute it after an edit.
  Per field, so the field edited is named even where nothing else could tell (the seed,
  the players). The keyed `seal` (rulekit.game.sealing) is what makes a record authentic.
- `derive` and `first_difference`: the hand played again from the record's seed, dealer,
  players and ruleset, as `simulate` played it; every derived field (the dice, the wall,
  the indicator, each event, the result) must be what the record says.
"""
from __future__ import annotations

import hashlib
import json
from json.encoder import encode_basestring    # a str's JSON text, as canonical writes it
import re
from typing import Any, Mapping

from rulekit.errors import RulekitError
from rulekit.game.players import PLAYERS

FORMAT = 2
"""Format 2 adds `format` and `digest`; records without them (format 1, before) are read
with a warning: the re-played hand still proves every derived field, but an edit of the
seed, the dealer or the players then shows only as the fields it changes."""

INPUTS = ("hand", "ruleset", "players", "seed", "dealer")
"""Fields a record is played from; every other field (but format and digest) derives."""
MATCH_INPUTS = ("deal", "rotation")
"""Inputs only a duplicate match writes (`rulekit match --duplicate`, docs/bots.md)."""
DEALT = ("dice", "hun_dice", "indicator", "wall")
"""The derived fields the seed and dealer give whoever plays: all a record with a bot
(`cmd:` player, never run again by a replay) can be re-derived to; its moves are checked
by re-playing them (`replay.replay`: legal), its fields by the digest, and that they are
the moves made by the seal (rulekit.game.sealing)."""
DERIVED = ("dice", "hun_dice", "indicator", "wall", "events", "result", "dealer_sits",
           "pulls")
FIELDS = ("format",) + INPUTS + DERIVED

MAX_EVENTS = 2000
MAX_TEXT = 400
MAX_MONEY = 2 ** 53
_TILE = re.compile(r"[1-9][mps]|[1-7]z|[1-8]f")
_NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")               # a pattern id (the schema's)
_LABEL = re.compile(r"[^\x00-\x1f\x7f]{1,64}")           # a ruleset's name: any label
_HEX = re.compile(r"[0-9a-f]{64}")
_KEY_ID = re.compile(r"[0-9a-f]{16}")
_TAG = re.compile(r"[0-9a-f]{32}")
_WORD = re.compile(r"[a-z_]{1,20}")                     # an event's action, a win_by
_BOT = re.compile(r"cmd:[^\x00-\x1f\x7f]{1,400}")      # a `rulekit match` bot's seat spec
SEATED = ("human", "remote")
"""A person or a remote bot at a `rulekit serve` table (docs/serve.md, "Tables"): like a
`cmd:` bot, a seat whose moves a replay re-plays but cannot derive: only the record's
seal (rulekit.game.sealing) says they are the moves made."""


class RecordError(RulekitError):
    """A log record that is not one this program wrote: a shape it cannot have."""


_CANONICAL = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"),
                              allow_nan=False)
"""The encoder `json.dumps` would make for `canonical`'s options, made once (a log digests
each field of every hand it writes)."""


def canonical(value: Any) -> bytes:
    return _CANONICAL.encode(value).encode("utf-8")


UNDIGESTED = ("digest", "seal")
"""What the digest leaves out: itself, and the seal (an HMAC of what the digest covers)."""


def digest_of(rec: Mapping[str, Any]) -> dict[str, Any]:
    """The `digest` field of `rec` (which may hold one already, and a seal: both are left
    out)."""
    body = {k: v for k, v in rec.items() if k not in UNDIGESTED}
    parts = {k: canonical(v) for k, v in body.items()}
    return {"record": hashlib.sha256(joined(parts) if all(type(k) is str for k in parts)
                                     else canonical(body)).hexdigest(),
            "fields": {k: hashlib.sha256(p).hexdigest() for k, p in parts.items()}}


def joined(parts: Mapping[str, bytes]) -> bytes:
    """`canonical` of the object whose fields' canonical texts are `parts` (string keys):
    the same bytes, as the encoder writes an object with sorted keys, without encoding each
    field a second time (`simulate --log` digests every hand it writes)."""
    return b"{" + b",".join([encode_basestring(k).encode("utf-8") + b":" + parts[k]
                             for k in sorted(parts)]) + b"}"


def seal(rec: dict[str, Any]) -> dict[str, Any]:
    """`rec` as format 2: `format` first, `digest` last (what `simulate --log` writes; the
    writer then adds the keyed seal, `sealing.seal_line`). A `seal` already in `rec` is
    kept as it is."""
    out = {"format": FORMAT, **{k: v for k, v in rec.items() if k not in ("format", "digest")}}
    out["digest"] = digest_of(out)
    return out


def where(path: tuple[str | int, ...]) -> str:
    """`events[12].tile`: a path in a record, as messages name it."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out


def _fail(path: tuple[str | int, ...], what: str) -> RecordError:
    return RecordError(f"{where(path)}: {what}")


def _int(v: Any, path: tuple[str | int, ...], lo: int, hi: int) -> None:
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise _fail(path, f"a whole number from {lo} to {hi}, not {shown(v)}")


def _text(v: Any, path: tuple[str | int, ...], pattern: re.Pattern[str] | None = None) -> None:
    if not isinstance(v, str) or len(v) > MAX_TEXT or \
            (pattern is not None and not pattern.fullmatch(v)):
        raise _fail(path, f"not a valid value: {shown(v)}")


def _list(v: Any, path: tuple[str | int, ...], lo: int, hi: int) -> list[Any]:
    if not isinstance(v, list) or not lo <= len(v) <= hi:
        raise _fail(path, f"a list of {lo} to {hi} items, not {shown(v)}")
    return v


def shown(v: Any) -> str:
    text = json.dumps(v, ensure_ascii=False) if not isinstance(v, float) else repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def check(rec: Any, players: int | None = None) -> str:
    """Refuse a record whose shape this program cannot have written (`RecordError` naming
    the field); its format's warning, or "" for a sealed record. `players`: the seats of
    the ruleset it will be played under, when known."""
    if not isinstance(rec, dict):
        raise RecordError("not a hand record (a JSON object)")
    fmt = rec.get("format", 1)
    if fmt not in (1, FORMAT) or isinstance(fmt, bool):
        raise _fail(("format",), f"{shown(fmt)} is not a record format this version reads "
                    f"(1 or {FORMAT})")
    if fmt == 1 and "digest" in rec:
        raise _fail(("format",), f"a record with a digest is format {FORMAT}, not 1")
    allowed = set(FIELDS) | set(MATCH_INPUTS) | (set(UNDIGESTED) if fmt == FORMAT else set())
    for key in rec:
        if key not in allowed:
            raise _fail((str(key)[:40],), "not a field of a hand record")
    for key in FIELDS[1:] + (("digest",) if fmt == FORMAT else ()):
        if key not in rec:
            raise _fail((key,), "missing")
    seats = _check_inputs(rec, players)
    _check_deal(rec)
    _check_events(rec["events"], seats)
    _check_result(rec["result"], seats)
    if not isinstance(rec["dealer_sits"], bool):
        raise _fail(("dealer_sits",), f"true or false, not {shown(rec['dealer_sits'])}")
    for i, p in enumerate(_list(rec["pulls"], ("pulls",), 0, seats)):
        _int(p, ("pulls", i), 0, 4)
    if fmt == FORMAT:
        _check_digest(rec["digest"])
        if "seal" in rec:
            _check_seal(rec["seal"])
        return ""
    return "written before format 2 (no digest): its seed, dealer and players are not sealed"


def _check_inputs(rec: dict[str, Any], players: int | None) -> int:
    _int(rec["hand"], ("hand",), 0, 2 ** 63)
    _text(rec["ruleset"], ("ruleset",), _LABEL)
    names = _list(rec["players"], ("players",), 2, 4)
    if players is not None and len(names) != players:
        raise _fail(("players",), f"{players} players for this ruleset, not {len(names)}")
    for i, n in enumerate(names):
        if not isinstance(n, str) or (n not in PLAYERS and n not in SEATED
                                      and not _BOT.fullmatch(n)):
            raise _fail(("players", i), "not a built-in player, a cmd: bot, human or "
                        f"remote: {shown(n)}")
    if "deal" in rec or "rotation" in rec:
        _int(rec.get("deal"), ("deal",), 0, 2 ** 63)
        _int(rec.get("rotation"), ("rotation",), 0, len(names) - 1)
    if rec["seed"] is not None or rec.get("format", 1) == FORMAT:
        _int(rec["seed"], ("seed",), 0, 2 ** 64 - 1)
    _int(rec["dealer"], ("dealer",), 0, len(names) - 1)
    return len(names)


def has_bots(rec: Mapping[str, Any]) -> bool:
    """Whether a seat of `rec` was played by a bot (whose moves no re-play can derive)."""
    return any(p not in PLAYERS for p in rec["players"])


def underived_seats(rec: Mapping[str, Any]) -> list[int]:
    """The seats whose moves no re-play can derive (`cmd:` bots, people, remote bots):
    only the record's seal says they are the moves made."""
    return [s for s, p in enumerate(rec["players"]) if p not in PLAYERS]


def _check_deal(rec: dict[str, Any]) -> None:
    for i, d in enumerate(_list(rec["dice"], ("dice",), 0, 4)):
        _int(d, ("dice", i), 1, 6)
    for i, d in enumerate(_list(rec["hun_dice"], ("hun_dice",), 2, 2)):
        _int(d, ("hun_dice", i), 1, 6)
    _text(rec["indicator"], ("indicator",), _TILE)
    wall = rec["wall"]
    if not isinstance(wall, str) or len(wall) > 2 * 144 or len(wall) % 2 or \
            not all(_TILE.fullmatch(wall[i:i + 2]) for i in range(0, len(wall), 2)):
        raise _fail(("wall",), "a tile string like 1m5p7z..., two characters a tile")


def _check_events(events: Any, seats: int) -> None:
    for i, e in enumerate(_list(events, ("events",), 1, MAX_EVENTS)):
        path: tuple[str | int, ...] = ("events", i)
        if not isinstance(e, dict) or not {"seat", "action", "tile"} <= set(e) or \
                not set(e) <= {"seat", "action", "tile", "rule"}:
            raise _fail(path, "an event is {seat, action, tile, rule}")
        _int(e["seat"], path + ("seat",), 0, seats - 1)
        _text(e["action"], path + ("action",), _WORD)
        if e["tile"] is not None:
            _text(e["tile"], path + ("tile",), _TILE)
        if "rule" in e:
            _text(e["rule"], path + ("rule",))


def _check_result(res: Any, seats: int) -> None:
    base = ("result",)
    keys = {"winner", "win_by", "patterns", "total_fan", "kongs", "chan", "payments",
            "next_dealer", "hand"}
    if not isinstance(res, dict) or set(res) != keys:
        raise _fail(base, "the result is {" + ", ".join(sorted(keys)) + "}")
    if res["winner"] is not None:
        _int(res["winner"], base + ("winner",), 0, seats - 1)
    if res["win_by"] is not None:
        _text(res["win_by"], base + ("win_by",), _WORD)
    for i, p in enumerate(_list(res["patterns"], base + ("patterns",), 0, 100)):
        _text(p, base + ("patterns", i), _NAME)
    _int(res["total_fan"], base + ("total_fan",), -10 ** 6, 10 ** 6)
    for i, k in enumerate(_list(res["kongs"], base + ("kongs",), seats, seats)):
        for j, name in enumerate(_list(k, base + ("kongs", i), 0, 8)):
            _text(name, base + ("kongs", i, j))
    if not isinstance(res["chan"], bool):
        raise _fail(base + ("chan",), f"true or false, not {shown(res['chan'])}")
    for i, m in enumerate(_list(res["payments"], base + ("payments",), seats, seats)):
        if isinstance(m, bool) or not isinstance(m, (int, float)) or not abs(m) <= MAX_MONEY:
            raise _fail(base + ("payments", i), f"an amount of at most 2^53, not {shown(m)}")
    _int(res["next_dealer"], base + ("next_dealer",), 0, seats - 1)
    if res["hand"] is not None and not isinstance(res["hand"], dict):
        raise _fail(base + ("hand",), "the winner's hand document or null")


def _check_digest(d: Any) -> None:
    if not isinstance(d, dict) or set(d) != {"record", "fields"} or \
            not isinstance(d["fields"], dict):
        raise _fail(("digest",), "{record, fields}")
    _text(d["record"], ("digest", "record"), _HEX)
    for k, v in d["fields"].items():
        _text(v, ("digest", "fields", str(k)[:40]), _HEX)


def _check_seal(s: Any) -> None:
    if not isinstance(s, dict) or set(s) != {"alg", "key", "fields", "mac"}:
        raise _fail(("seal",), "{alg, key, fields, mac}")
    if s["alg"] != "hmac-sha256":
        raise _fail(("seal", "alg"), f"{shown(s['alg'])} is not a seal this version checks "
                    "(hmac-sha256)")
    _text(s["key"], ("seal", "key"), _KEY_ID)
    if not isinstance(s["fields"], dict) or len(s["fields"]) > 2 * len(FIELDS):
        raise _fail(("seal", "fields"), "{field: its hash's first 32 hex digits}")
    for k, v in s["fields"].items():
        _text(v, ("seal", "fields", str(k)[:40]), _TAG)
    _text(s["mac"], ("seal", "mac"), _HEX)


def edited(rec: Mapping[str, Any]) -> str | None:
    """The field a sealed record's digest says was edited (None: none was). One edit is
    named exactly: a field (its digest and the whole record's differ), an entry of
    `digest.fields` (only it differs: the record is intact) or `digest.record` (only it)."""
    if rec.get("format", 1) != FORMAT:
        return None
    want, have = digest_of(rec), rec["digest"]
    intact = have["record"] == want["record"]
    for k in list(want["fields"]) + [k for k in have["fields"] if k not in want["fields"]]:
        if have["fields"].get(k) != want["fields"].get(k):
            return where(("digest", "fields", k)) if intact else k
    return None if intact else where(("digest", "record"))
