"""`rulekit simulate` and `rulekit replay`: arguments in, the game package called, a report
out. Imported by rulekit.cli only when one of them runs."""
from __future__ import annotations

import argparse
import json
from contextlib import closing
from typing import TYPE_CHECKING, Any, TextIO

from rulekit import api
from rulekit.errors import RulekitError
from rulekit.game import across, parallel, simulate as sim, summary
from rulekit.game.players import PLAYERS
from rulekit.game.stats import mean
from rulekit.ruleset.model import Ruleset

if TYPE_CHECKING:       # `replay`'s, imported when it runs: a simulate never needs them
    from rulekit.game.recordkey import RecordKey


class GameUsageError(RulekitError):
    """Bad simulate or replay arguments."""


def _players(text: str | None, seats: int) -> list[str]:
    names = [p.strip() for p in text.split(",")] if text else ["greedy"] * seats
    if len(names) != seats:
        raise GameUsageError(f"simulate: --players needs {seats} names (one per seat), "
                             f"got {len(names)}")
    for n in names:
        if n not in PLAYERS:
            raise GameUsageError(f"simulate: unknown player {n!r}; built-in players: "
                                 + ", ".join(PLAYERS))
    return names


def simulate(args: argparse.Namespace, out: TextIO) -> int:
    if args.hands < 0 or args.workers < 1 or args.session_hands < 1:
        raise GameUsageError("simulate: --hands must be 0 or more, --workers and "
                             "--session-hands 1 or more")
    rs = api.load_ruleset(args.ruleset)
    other = api.load_ruleset(args.versus) if args.versus else None
    if other is not None and other.players != rs.players:
        raise GameUsageError(f"simulate: --versus {other.name} seats {other.players} players, "
                             f"{rs.name} {rs.players}")
    if getattr(args, "across_players", False):
        return _across(args, rs, other, out)
    players = _players(args.players, rs.players)
    outs = _play(args, rs, other, players, args.log)
    report = (summary.versus(outs, rs, other, players, args.session_hands, args.seed)
              if other is not None
              else summary.summarise(outs, rs, players, args.session_hands, args.seed))
    report["seed"] = args.seed
    _write_html(args, report)
    if args.json or args.format == "json":
        out.write(json.dumps(report, ensure_ascii=False) + "\n")
    else:
        out.write(summary.versus_text(report) if other is not None else summary.text(report))
    return 0


def _play(args: argparse.Namespace, rs: Ruleset, other: Ruleset | None,
          players: list[str], log_path: str | None, label: str = "simulate"
          ) -> list[dict[str, Any]]:
    """Every hand's outcome, in hand order (with `versus` under the other ruleset)."""
    from rulekit.progress import Progress
    # one session a task, so each finished session reaches the log at once (a run stopped
    # early keeps it) and the progress bar moves with one worker; a task costs a cluster a
    # few milliseconds
    chunks = max(1, -(-args.hands // args.session_hands))
    tasks = sim.tasks(rs, players, args.hands, args.seed, chunks=chunks,
                      log=bool(log_path), versus=other, session_hands=args.session_hands)
    log = None
    if log_path:                        # each session flushed as it comes
        from rulekit.game.logfile import HandLog    # with the key and the seals it needs
        log = HandLog(log_path)
    outs: list[dict[str, Any]] = []
    sim.few_collections()               # this process, and a pool's workers, only simulate
    runs = parallel.run(tasks, args.workers, args.cluster)
    try:
        with Progress(args.hands, label) as bar, closing(runs):     # workers stop on any exit
            for res in runs:
                if log is not None:              # the session's hands in one write
                    log.write_all([o.pop("log") for o in res])
                    for o in res:
                        if "versus" in o:
                            o["versus"].pop("log", None)
                outs.extend(res)
                bar.advance(len(res))
    finally:
        if log is not None:
            log.close()
    return outs


def _across(args: argparse.Namespace, rs: Ruleset, other: Ruleset | None,
            out: TextIO) -> int:
    """The comparison repeated under each standard mix of players (`--across-players`)."""
    if other is None:
        raise GameUsageError("simulate: --across-players compares two rulesets: "
                             "give --versus OTHER")
    if args.players or args.log:
        raise GameUsageError("simulate: --across-players chooses the players itself; "
                             "drop --players and --log")
    reports = []
    for mix in across.mixes(rs.players):
        outs = _play(args, rs, other, list(mix), None, f"simulate {','.join(mix)}")
        reports.append(summary.versus(outs, rs, other, list(mix), args.session_hands,
                                      args.seed))
    report = across.combine(reports)
    report["seed"] = args.seed
    _write_html(args, report)
    if args.json or args.format == "json":
        out.write(json.dumps(report, ensure_ascii=False) + "\n")
    else:
        out.write(across.text(report))
    return 0


def _write_html(args: argparse.Namespace, report: dict[str, Any]) -> None:
    path = getattr(args, "html", None)
    if not path:
        return
    from rulekit.game import html_report
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(html_report.page(report))
    except OSError as err:
        raise GameUsageError(f"{path}: cannot write: {err.strerror}") from None


def replay(args: argparse.Namespace, out: TextIO) -> int:
    """Every record proved and re-played: exact under its own ruleset, or the differences
    under --ruleset. Exit 1 if a record is not authentic or (own ruleset only) does not
    reproduce; 2 if one is not a hand record at all."""
    import sys
    from rulekit.game import recordkey
    from rulekit.game.replay import read_log, replay as replay_one
    given = api.load_ruleset(args.ruleset) if args.ruleset else None
    key = recordkey.load(getattr(args, "key_file", None))
    strict = bool(getattr(args, "require_seal", False))
    rows: list[dict[str, Any]] = []
    unsealed = 0
    own_only = True
    recorded: list[str] = []
    names: dict[str, str] = {}
    for n, rec, own, warning in read_log(args.log, given):
        unsealed += bool(warning)
        rs = own if given is None or given is own else given
        if rs is None:              # read_log refuses a record with neither
            raise GameUsageError(f"{args.log}: line {n}: no ruleset to replay it under")
        own_only = own_only and rs is own
        if len(rec["players"]) != rs.players:
            raise GameUsageError(f"{args.log}: line {n}: the hand has {len(rec['players'])} "
                                 f"seats; {rs.name} seats {rs.players}")
        if rec["ruleset"] not in recorded:
            recorded.append(rec["ruleset"])
        names.update(rs.names)
        why, seal = _authentic(rec, own, key, strict)
        got = replay_one(rec, rs) if why is None else \
            {"same": False, "mismatch": why, "result": None}
        row = _row(n, rec, got, rs.name)
        row["authentic"] = why
        row["seal"] = seal
        rows.append(row)
    if unsealed:
        sys.stderr.write(f"rulekit: warning: {args.log}: {unsealed} record(s) written before "
                         f"format 2 (no digest): an edit of their seed, dealer or players "
                         f"shows only as the fields it changes\n")
    report = _replay_report(rows, not own_only)
    report["key"] = key.id if key is not None else None
    if report["unauthenticated"]:
        sys.stderr.write(_unauthenticated_warning(args.log, report["unauthenticated"]))
    if not own_only and given is not None:
        report.update({"ruleset": given.name, "recorded_under": recorded,
                       "difference": "ruleset - recorded",
                       "reading": f"differences read {given.name} minus the recorded "
                                  f"{', '.join(recorded) or 'ruleset'}, per replayed hand"})
    if args.format == "json":
        out.write(json.dumps(report, ensure_ascii=False) + "\n")
    else:
        out.write(_replay_text(report, names))
    if report["not_authentic"]:
        return 1
    return 0 if not own_only or report["reproduced"] == report["hands"] else 1


def _authentic(rec: dict[str, Any], own: Ruleset | None, key: RecordKey | None,
               strict: bool) -> tuple[str | None, dict[str, Any]]:
    """Why `rec` is not authentic (None: it is, as far as its proof and seal go) and what
    its seal says: `{"status", "why", "seats"}`, `seats` those whose moves only the seal
    could vouch for. The seal names an edited field (its tags are trusted), the proof the
    item in it where it can; a seal this key cannot check is an error only under
    --require-seal."""
    from rulekit.game import record, sealing
    from rulekit.game import replay as replay_mod
    verdict = sealing.verify(rec, key)
    seats = record.underived_seats(rec)
    why = replay_mod.proof(rec, own)
    # the seal names the field; the proof, where it agrees, the item in it
    if verdict.edited and (why is None or replay_mod.field_of(why) != verdict.field):
        why = verdict.why
    elif why is None and strict and not verdict.authentic:
        why = f"seal: {verdict.why} (--require-seal)"
    return why, {"status": verdict.status, "why": verdict.why, "seats": seats}


def _unauthenticated_warning(log: str, rows: list[dict[str, Any]]) -> str:
    whys = sorted({r["why"] for r in rows})
    return (f"rulekit: warning: {log}: {len(rows)} record(s) not authenticated "
            f"({'; '.join(whys)[:300]}): the moves of their cmd:, human or remote seats are "
            "proved legal, not made by them; --require-seal refuses such records\n")


def _row(line: int, rec: dict[str, Any], got: dict[str, Any], name: str) -> dict[str, Any]:
    old = rec.get("result") or {}
    new = got["result"] or {}
    old_pay = [float(x) for x in old.get("payments") or []]
    new_pay = [float(x) for x in new.get("payments") or old_pay]
    return {"line": line, "hand": rec.get("hand"), "ruleset": name, "same": got["same"],
            "mismatch": got["mismatch"], "diverged": got["result"] is None,
            "old": {k: old.get(k) for k in ("winner", "patterns", "total_fan", "payments")},
            "new": {k: new.get(k) for k in ("winner", "patterns", "total_fan", "payments")},
            "delta": [b - a for a, b in zip(old_pay, new_pay)]}


def _replay_report(rows: list[dict[str, Any]], other: bool) -> dict[str, Any]:
    seats = max((len(r["delta"]) for r in rows), default=0)
    changed = [r for r in rows if r["old"] != r["new"] and not r["diverged"]]
    return {
        "hands": len(rows),
        "reproduced": sum(1 for r in rows if r["same"] and r["authentic"] is None),
        "replayed": sum(1 for r in rows if not r["diverged"] and r["authentic"] is None),
        "not_authentic": [{"line": r["line"], "why": r["authentic"]}
                          for r in rows if r["authentic"] is not None],
        "authentic": sum(1 for r in rows if r["authentic"] is None
                         and r["seal"]["status"] == "authentic"),
        "unauthenticated": [{"line": r["line"], "seats": r["seal"]["seats"],
                             "why": r["seal"]["why"]} for r in rows
                            if r["authentic"] is None and _unproved(r["seal"])],
        "diverged": [{"line": r["line"], "why": r["mismatch"]} for r in rows
                     if r["diverged"] and r["authentic"] is None],
        "changed": [{k: r[k] for k in ("line", "hand", "old", "new")} for r in changed],
        "money_difference": [mean([r["delta"][s] for r in rows if not r["diverged"]])
                             for s in range(seats)] if other else [],
        "not_reproduced": [{"line": r["line"], "why": r["mismatch"]}
                           for r in rows if not r["same"] and not other
                           and r["authentic"] is None],
    }


def _unproved(seal: dict[str, Any]) -> bool:
    """A seal that leaves something unproved: seats whose moves only it could vouch for, or
    a key that is not this one (said even where the re-play proves every move)."""
    return seal["status"] == "other_key" or \
        (seal["status"] != "authentic" and bool(seal["seats"]))


def _replay_text(rep: dict[str, Any], names: dict[str, str]) -> str:
    from rulekit.game.stats import shown
    if "ruleset" not in rep:
        lines = [f"{rep['hands']} hands, {rep['reproduced']} reproduced exactly"
                 + (f", {rep['authentic']} authentic" if rep["authentic"] else "")]
        for d in rep["unauthenticated"][:20]:
            seats = ", ".join(str(s) for s in d["seats"])
            lines.append(f"  line {d['line']}: not authenticated: {d['why']}"
                         + (f" (seats {seats}: their moves are proved legal only)"
                            if seats else ""))
        for d in rep["not_authentic"][:20]:
            lines.append(f"  line {d['line']}: not authentic: {d['why']}")
        for d in rep["not_reproduced"][:20]:
            lines.append(f"  line {d['line']}: {d['why']}")
        return "\n".join(lines) + "\n"
    lost = len(rep["diverged"])
    why = (f"{lost} could not be replayed (play {rep['ruleset']} does not allow, listed "
           "below; left out of the numbers)" if lost else "none failed")
    lines = [f"{rep['hands']} hands recorded under {', '.join(rep['recorded_under'])}, "
             f"replayed under {rep['ruleset']}: {rep['replayed']} replayed, {why}",
             f"{rep['reading'][0].upper()}{rep['reading'][1:]} (95% intervals):",
             f"  {len(rep['changed'])} of {rep['replayed']} replayed hands score or pay "
             "differently"]
    for s, m in enumerate(rep["money_difference"]):
        lines.append(f"  seat {s} per hand  {shown(m, sign=True)}")
    for c in rep["changed"][:10]:
        lines.append(f"  line {c['line']}: {_outcome(c['old'], names)} → "
                     f"{_outcome(c['new'], names)}")
    if len(rep["changed"]) > 10:
        lines.append(f"  ... and {len(rep['changed']) - 10} more (--format json lists all)")
    for d in rep["not_authentic"][:20]:
        lines.append(f"  line {d['line']}: not authentic: {d['why']}")
    for d in rep["diverged"][:10]:
        lines.append(f"  line {d['line']}: cannot be replayed: {d['why']}")
    if lost > 10:
        lines.append(f"  ... and {lost - 10} more that cannot be replayed")
    return "\n".join(lines) + "\n"


def _outcome(o: dict[str, Any], names: dict[str, str]) -> str:
    """A hand's result in words: `seat 1 wins 4 fan (混吊 提溜); pays +6 -2 -2 -2`."""
    from rulekit.game.stats import signed
    pays = " ".join(signed(float(x), 0) if float(x) else "0" for x in o.get("payments") or [])
    if o.get("winner") is None:
        return f"draw; pays {pays}"
    pats = " ".join(names.get(p, p) for p in o.get("patterns") or [])
    return f"seat {o['winner']} wins {o.get('total_fan')} fan ({pats}); pays {pays}"
