"""`rulekit match`: four seats (built-in players or bot commands) play hands through the bot
protocol; the report gives each bot's money and fan per hand and names every bot that
failed (docs/bots.md). rulekit.cli registers the subcommand through `add_parser` and `run`.
"""
from __future__ import annotations

import argparse
import json
import math
from typing import Any, Sequence, TextIO

from rulekit.errors import RulekitError

MAX_THINK_TIME = 600.0


class MatchUsageError(RulekitError):
    """Bad `rulekit match` arguments."""


def add_parser(sub: Any) -> None:
    m = sub.add_parser("match", help="built-in players and bot programs (cmd:COMMAND), one "
                                     "per seat, play hands; each bot's results")
    m.add_argument("--ruleset", "-r", default=None,
                   help="a built-in name (see `rulekit rulesets`) or a YAML path")
    m.add_argument("--hands", "-n", type=int, required=True,
                   help="hands to play (with --duplicate: deals, each played once per seat)")
    m.add_argument("--seed", "-s", type=int, default=0,
                   help="the master seed: hand i is dealt as simulate's hand i (default 0)")
    m.add_argument("--seat", action="append", default=[], metavar="PLAYER|cmd:COMMAND",
                   help="one per seat, in seat order: random, greedy, value, or cmd:COMMAND "
                        "(a bot program speaking docs/bots.md's protocol; run without a shell)")
    m.add_argument("--think-time", type=float, default=1.0, metavar="SECONDS",
                   help="seconds a bot may take per decision (default 1)")
    m.add_argument("--duplicate", action="store_true",
                   help="play each deal once per rotation of the seats (the same walls): "
                        "4 times with 4 players")
    m.add_argument("--log", metavar="FILE", help="one JSON line per hand (rulekit replay)")
    m.add_argument("--session-hands", type=int, default=16,
                   help="hands per session (the dealer carries within one; not --duplicate; "
                        "default 16)")
    m.add_argument("--json", action="store_true", help="the same as --format json")
    m.add_argument("--format", choices=["text", "json"], default="text",
                   help="text for people or json for programs (default: text)")


def _check(args: argparse.Namespace, players: int) -> None:
    from rulekit.game.match import check_spec
    if len(args.seat) != players:
        raise MatchUsageError(f"match: give --seat once per seat ({players}), got "
                              f"{len(args.seat)}")
    for spec in args.seat:
        why = check_spec(spec)
        if why is not None:
            raise MatchUsageError(f"match: --seat {spec!r}: {why}")
    if args.hands < 0 or args.session_hands < 1:
        raise MatchUsageError("match: --hands must be 0 or more, --session-hands 1 or more")
    if not (math.isfinite(args.think_time) and 0 < args.think_time <= MAX_THINK_TIME):
        raise MatchUsageError(f"match: --think-time must be more than 0 and at most "
                              f"{MAX_THINK_TIME:g} seconds, got {args.think_time}")


def run(args: argparse.Namespace, out: TextIO) -> int:
    from rulekit import api
    from rulekit.game.logfile import HandLog
    from rulekit.game.match import MatchConfig, run_match
    from rulekit.progress import Progress
    rs = api.load_ruleset(args.ruleset or api.DEFAULT_RULESET)
    _check(args, rs.players)
    cfg = MatchConfig(tuple(args.seat), args.hands, args.seed, args.duplicate,
                      args.think_time, args.session_hands)
    log = HandLog(args.log) if args.log else None     # each hand on disk as it ends
    total = args.hands * rs.players if args.duplicate else args.hands
    try:
        with Progress(total, "match") as bar:
            res = run_match(rs, cfg, log, bar.advance)
    finally:
        if log is not None:
            log.close()
    rep = report(rs.name, cfg, res.outcomes, [f.to_dict() for f in res.faults])
    rep["answers"] = res.answers
    if args.json or args.format == "json":
        out.write(json.dumps(rep, ensure_ascii=False) + "\n")
    else:
        out.write(text(rep))
    return 0


def report(name: str, cfg: Any, outcomes: Sequence[dict[str, Any]],
           faults: Sequence[dict[str, Any]]) -> dict[str, Any]:
    from rulekit.game.match import FALLBACK
    from rulekit.game.match_stats import difference, per_bot
    specs = list(dict.fromkeys(cfg.specs))
    rep: dict[str, Any] = {
        "ruleset": name, "seed": cfg.seed, "seats": list(cfg.specs),
        "duplicate": cfg.duplicate, "hands": len(outcomes),
        "deals": len({o["deal"] for o in outcomes}),
        "rotations": len(cfg.specs) if cfg.duplicate else 1,
        "interval": (f"95%, Student t over deals (each deal's mean over its "
                     f"{len(cfg.specs)} rotations)" if cfg.duplicate
                     else "95%, normal over hands"),
        "bots": per_bot(outcomes, cfg.specs, cfg.duplicate),
        "fallback": FALLBACK, "faults": list(faults)}
    if len(specs) == 2:
        a, b = specs
        rep["difference"] = {"bots": [a, b],
                             "money": difference(outcomes, a, b, cfg.duplicate)}
    return rep


def text(rep: dict[str, Any]) -> str:
    from rulekit.game.stats import shown
    head = f"{rep['hands']} hands of {rep['ruleset']}, seed {rep['seed']}"
    if rep["duplicate"]:
        head += f", duplicate: {rep['deals']} deals x {rep['rotations']} rotations"
    lines = [head, f"{'bot':<34} {'seat-hands':>10}  {'money per hand':<28} "
                   f"{'fan per hand':<28} wins"]
    for spec, b in rep["bots"].items():
        lines.append(f"{_cut(spec, 34):<34} {b['seat_hands']:>10}  {shown(b['money']):<28} "
                     f"{shown(b['fan']):<28} {b['wins']}")
    if "difference" in rep:
        a, b = rep["difference"]["bots"]
        lines.append(f"{_cut(a, 20)} - {_cut(b, 20)} money per hand (paired): "
                     f"{shown(rep['difference']['money'])}")
    lines.append(f"intervals: {rep['interval']}")
    for a in rep.get("answers", []):
        lines.append(f"--seat {a['participant'] + 1} {_cut(a['spec'], 40)!r}: {a['answers']} "
                     f"answers, {a['mean_ms']:.2f} ms each on average")
    if not rep["faults"]:
        lines.append("faults: none")
    for f in rep["faults"]:
        when = "at the start" if f["hand"] < 0 else f"seat {f['seat']}, hand {f['hand']}"
        lines.append(f"FAULT --seat {f['participant'] + 1} {f['spec']!r}: {when}, after "
                     f"{f['decision']} answers: {f['kind']}: {f['detail']}")
        if f["sent"]:
            lines.append(f"  it sent: {f['sent']}")
        if f["stderr"]:
            lines.append(f"  its stderr ended: {f['stderr']}")
        lines.append(f"  played by {rep['fallback']} from then on")
    return "\n".join(lines) + "\n"


def _cut(s: str, n: int) -> str:
    return s if len(s) <= n else s[:n - 3] + "..."
