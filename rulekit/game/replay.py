"""Re-playing a logged hand from its record: the wall in dealing order, the hun dice, the
dealer and each recorded move (docs/game.md, "Replay"). Under the record's own ruleset the
replay must give the same events and result; under another it shows what changes.

Before that a record proves itself (`proof`): its digest names an edited field, and the hand
played again from its seed, dealer and players (`derive`, as `simulate` played it) must give
every other field as recorded, down to the first differing event or tile."""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Iterator, Mapping

from rulekit.game import record
from rulekit.game.players import PLAYERS, ReplayMismatch, Script, ScriptedPlayer
from rulekit.game.procedure import Event, IllegalMove, event_dict
from rulekit.game.record import RecordError as RecordError      # re-exported for callers
from rulekit.game.rules import game_rules
from rulekit.game.table import play_hand
from rulekit.ruleset.model import Ruleset
from rulekit.game.wall import tile_set
from rulekit.tiles import NUM_ALL_KINDS, TILE_NAMES

_KIND = {TILE_NAMES[k]: k for k in range(NUM_ALL_KINDS)}


def parse_wall(text: object) -> list[int]:
    if not isinstance(text, str) or len(text) % 2:
        raise RecordError("wall: expected a tile string like 1m5p7z...")
    out = []
    for i in range(0, len(text), 2):
        k = _KIND.get(text[i:i + 2])
        if k is None:
            raise RecordError(f"wall: {text[i:i + 2]!r} at position {i} is not a tile")
        out.append(k)
    return out


def _events(rec: Mapping[str, Any]) -> list[Event]:
    out: list[Event] = []
    for i, e in enumerate(rec.get("events") or []):
        try:
            tile = -1 if e["tile"] is None else _KIND[e["tile"]]
            out.append((int(e["seat"]), str(e["action"]), tile, str(e.get("rule", ""))))
        except (KeyError, TypeError, ValueError):
            raise RecordError(f"events[{i}]: not a recorded event: {str(e)[:80]}") from None
    return out


def replay(rec: Mapping[str, Any], rs: Ruleset) -> dict[str, Any]:
    """Re-play one record under `rs`: {"same", "mismatch", "result", "events"}."""
    try:
        order = parse_wall(rec["wall"])
        hun_dice = tuple(int(x) for x in rec["hun_dice"])
        dealer = int(rec["dealer"])
    except (KeyError, TypeError, ValueError) as err:
        raise RecordError(f"a record needs wall, hun_dice and dealer ({err})") from None
    rules = game_rules(rs)
    if sorted(order) != tile_set(rules.flowers):
        raise RecordError(f"wall: not a permutation of the {len(tile_set(rules.flowers))} "
                          "tiles of this ruleset")
    if len(hun_dice) != 2 or not all(1 <= d <= 6 for d in hun_dice):
        raise RecordError(f"hun_dice: two dice from 1 to 6, not {list(hun_dice)}")
    if not 0 <= dealer < rs.players:
        raise RecordError(f"dealer: a seat from 0 to {rs.players - 1}, not {dealer}")
    seed = rec.get("seed")
    if seed is not None and not isinstance(seed, int):
        raise RecordError("seed: a whole number or null")
    if not isinstance(rec.get("events"), list):
        raise RecordError("events: a list of {seat, action, tile}")
    script = Script(_events(rec))
    pulls = rec.get("pulls") or [0]
    if not isinstance(pulls, list) or not all(isinstance(p, int) and 0 <= p <= 4 for p in pulls):
        raise RecordError("pulls: a list of whole numbers from 0 to 4")
    rules = replace(rules, dealer_sits=rec.get("dealer_sits") is True,   # if not asked
                    pulls=max(pulls, default=0))
    sits = rec.get("dealer_sits") is True
    players = [ScriptedPlayer(script, sits, pulls) for _ in range(rules.players)]
    try:
        got = play_hand(rs, players, seed=seed, dealer=dealer, rules=rules,
                        order=order, hun_dice=hun_dice, observer=script.observe)
    except (ReplayMismatch, IllegalMove) as err:
        return {"same": False, "mismatch": str(err), "result": None}
    events = [event_dict(e) for e in got.events]
    same = events == rec.get("events") and got.result == rec.get("result")
    mismatch = None
    if not same:
        mismatch = _first_difference(events, list(rec.get("events") or []))
    return {"same": same, "mismatch": mismatch, "result": got.result}


def _first_difference(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> str:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"event {i}: replayed {x}, recorded {y}"
    if len(a) != len(b):
        return f"{len(a)} events replayed, {len(b)} recorded"
    return "the result differs"


def derive(rec: Mapping[str, Any], rs: Ruleset) -> dict[str, Any]:
    """The derived fields (`record.DERIVED`) of the hand `rec`'s seed, dealer and players
    give under `rs`: played and logged by simulate's own code, so the two cannot drift.
    A bot's seat (never run again) is played by greedy: only `record.DEALT` then holds."""
    import json
    from rulekit.game import simulate as sim
    players = tuple(p if p in PLAYERS else "greedy" for p in rec["players"])
    task = sim.Task(ruleset="", name=rs.name, versus=None, versus_name=None,
                    players=players, master=0, first_hand=int(rec["hand"]),
                    hands=1, session_hands=1, log=True)
    line = sim._one(rs, task, int(rec["seed"]), int(rec["dealer"]), int(rec["hand"]))["log"]
    d = json.loads(line)
    return {k: d[k] for k in record.DERIVED}


def proof(rec: Mapping[str, Any], rs: Ruleset | None) -> str | None:
    """Why `rec` is not the record `simulate` wrote under `rs` (its own ruleset; None when
    that is not at hand: the digest alone), naming the first field that differs; None if
    it is. A record without a seed (format 1) is checked by its digest only."""
    edit = record.edited(rec)
    diff = None
    if rs is not None and rec.get("seed") is not None:
        derived = derive(rec, rs)
        fields = record.DEALT if record.has_bots(rec) else record.DERIVED
        diff = next((d for k in fields
                     if (d := first_difference(rec[k], derived[k], (k,))) is not None), None)
    if edit is not None:
        if diff is not None and field_of(diff) == edit:
            return diff                 # the edited field, down to the item that differs
        return f"{edit}: edited since the record was written (its digest does not match)"
    return diff


def field_of(why: str) -> str:
    """The record field a reason names: `events` of `events[41].tile: recorded ...`."""
    return re.split(r"[.\[:]", why, maxsplit=1)[0]


def first_difference(have: Any, want: Any, path: tuple[str | int, ...]) -> str | None:
    """`events[12].tile: recorded 5m, the seed and players give 7p`, or None if equal."""
    if have == want and type(have) is type(want):
        return None
    if isinstance(have, dict) and isinstance(want, dict):
        for k in list(want) + [k for k in have if k not in want]:
            if k not in have or k not in want:
                return f"{record.where(path + (k,))}: " + ("missing" if k not in have else
                                                            "not in the hand played")
            got = first_difference(have[k], want[k], path + (k,))
            if got is not None:
                return got
    if isinstance(have, list) and isinstance(want, list):
        for i, (a, b) in enumerate(zip(have, want)):
            got = first_difference(a, b, path + (i,))
            if got is not None:
                return got
        return f"{record.where(path)}: {len(have)} recorded, {len(want)} in the hand played"
    if path == ("wall",) and isinstance(have, str) and isinstance(want, str):
        i = next((i for i in range(0, min(len(have), len(want)), 2)
                  if have[i:i + 2] != want[i:i + 2]), min(len(have), len(want)))
        return (f"wall: tile {i // 2} recorded {have[i:i + 2] or 'missing'}, the seed "
                f"gives {want[i:i + 2] or 'none'}")
    return (f"{record.where(path)}: recorded {record.shown(have)}, the seed, dealer and "
            f"players give {record.shown(want)}")


def read_log(path: str, given: Ruleset | None
             ) -> Iterator[tuple[int, dict[str, Any], Ruleset | None, str]]:
    """Each record of the log at `path`, checked (`record.check`), with its own ruleset
    when at hand and its format's warning. A record names its ruleset: only a built-in
    name is loaded from it (never a path a log could point anywhere); a ruleset from a file
    is the user's `given` one, its own when the names agree."""
    from rulekit import jsonio
    try:
        fh = open(path, "rb")
    except OSError as err:
        raise RecordError(f"{path}: cannot open: {err.strerror}") from None
    with fh:
        for n, rec, problem in jsonio.iter_lines(fh):
            if problem is not None:
                raise RecordError(f"{path}: {problem}")
            try:
                warning = record.check(rec)
                own = own_ruleset(rec["ruleset"], given)
                which = own or given
                seats = which.players if which is not None else 0
                if len(rec["players"]) != seats:
                    raise RecordError(f"players: {len(rec['players'])} players, the ruleset "
                                      f"{rec['ruleset']} seats {seats}")
            except RecordError as err:
                raise RecordError(f"{path}: line {n}: {err}") from None
            yield n, rec, own, warning


def own_ruleset(name: str, given: Ruleset | None) -> Ruleset | None:
    """The ruleset a record names: `given` if its name, else a built-in of that name; None
    if it is neither but the user gave one to replay under."""
    from rulekit import api
    from rulekit.ruleset.resolve import builtin_names
    if given is not None and given.name == name:
        return given
    if name in builtin_names():
        return api.load_ruleset(name)
    if given is None:
        raise RecordError(f"ruleset: {name!r} is not a built-in ruleset; pass its file with "
                          "--ruleset (a record never names a file to read)")
    return None
