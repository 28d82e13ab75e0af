"""The `rulekit` command: parse arguments, call the library, print. No rules in here.

Exit codes: 0 done (a hand that does not win is not an error), 1 some `--jsonl` lines or
`rulekit test` cases failed, 2 bad input (one line on stderr naming the problem), 3 a worker
process of `diff`, `score --jobs` or `simulate --workers` died or an output could not be
written (a full disk), 130 Ctrl-C, 143 SIGTERM (workers stopped, one line on stderr).
"""
from __future__ import annotations

import argparse
import atexit
import contextlib
import gc
import io
import json
import os
import sys
from typing import IO, TYPE_CHECKING, Any, Callable, Iterable, NoReturn, Sequence, TextIO, cast

from rulekit import api, jsonio, report
from rulekit.batch import one_line as _one_line, result_line
from rulekit.errors import RulekitError, RulesetError
from rulekit.ruleset import resolve
from rulekit.ruleset.model import Ruleset

if TYPE_CHECKING:
    from rulekit.casefile import CaseFile


class UsageError(RulekitError):
    """Bad command-line arguments or unreadable input files."""


class _Help(argparse.HelpFormatter):
    """Help that shows each option's default unless its text already says it."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        d = action.default
        quiet = d is None or d is False or d == [] or d is argparse.SUPPRESS   # 0 is shown
        if "default" in text or not action.option_strings or quiet:
            return text
        return text + " (default: %(default)s)"


class _Parser(argparse.ArgumentParser):
    """argparse's conventions: the usage line, then `PROG: error: ...`, exit 2 (via main).
    Every error of a command reads `rulekit CMD: error: ...` (`error_line`)."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        kw.setdefault("formatter_class", _Help)
        super().__init__(*args, **kw)

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:   # blame the subcommand whose options these are not, with its usage line
            sub = self._subparsers_by_name().get(getattr(parsed, "command", None) or "")
            (sub or self).error(f"unrecognized arguments: {' '.join(extra)}")
        if isinstance(getattr(parsed, "json", None), bool):   # the older --json of session, diff
            parsed.json = parsed.json or parsed.format == "json"
            parsed.format = "json" if parsed.json else parsed.format
        return parsed

    def _subparsers_by_name(self) -> dict[str, argparse.ArgumentParser]:
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                return dict(action.choices)
        return {}

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {_one_line(message)}\n")


class _Version(argparse.Action):
    """argparse's version action, but the version is read only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: Any = argparse.SUPPRESS, help: str = "print the version and exit"
                 ) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        import rulekit
        sys.stdout.write(f"rulekit {rulekit.__version__}\n")
        parser.exit()


def _ruleset_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ruleset", "-r", default=api.DEFAULT_RULESET,
                   help="a built-in name (see `rulekit rulesets`) or a YAML path")


def _format_arg(p: argparse.ArgumentParser, default: str | None = "text") -> None:
    shown = default or "json for --json input, else text"
    p.add_argument("--format", choices=["text", "json"], default=default,
                   help=f"text for people or json for programs (default: {shown})")


def _hand_flags(p: argparse.ArgumentParser) -> None:
    """The hand document's optional fields (docs/api.md), named as the document names them."""
    p.add_argument("--win-by", default="self_draw",
                   help="self_draw (default), kong_draw, discard, last_draw")
    p.add_argument("--discarded-hun", action="store_true", help="this player discarded a hun")
    p.add_argument("--flowers", help='flower tiles shown, e.g. 1358f (field "flowers")')
    p.add_argument("--earthly", action="store_true",
                   help='地和: a non-dealer wins on the first draw (field "earthly")')
    p.add_argument("--ready-declared", action="store_true",
                   help='天聽: declared ready at the start (field "ready_declared")')


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rulekit", description="Tianjin mahjong house rules as data.")
    parser.add_argument("--allow-extends-outside", action="store_true",
                        help="let a ruleset's `extends` name a file outside its own directory")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    s = sub.add_parser("score", help="score hands")
    _ruleset_arg(s)
    s.add_argument("hand", nargs="?", help='concealed tiles without the winning tile, e.g. '
                                           '"46m 123456789s 22z"')
    s.add_argument("--win", help="the winning tile, e.g. 5m")
    s.add_argument("--indicator", help="the indicator tile turned up on the wall, e.g. 7p")
    s.add_argument("--pung", action="append", default=[], help="an exposed pung, e.g. 555p")
    s.add_argument("--kong", action="append", default=[], help="an exposed kong, e.g. 2222z")
    s.add_argument("--concealed-kong", action="append", default=[],
                   help="a concealed kong (a 金杠 if it is four hun)")
    _hand_flags(s)
    s.add_argument("--heavenly", action="store_true", help="天和: the dealer's first 14 tiles")
    s.add_argument("--json", metavar="FILE", help="one hand document (JSON), - for stdin")
    s.add_argument("--jsonl", metavar="FILE", help="one hand document per line, - for stdin")
    s.add_argument("--jobs", "-j", type=int, default=1,
                   help="worker processes for --jsonl (default 1: this process); the "
                        "output is the same, in input order")
    _format_arg(s, default=None)

    w = sub.add_parser("waits", help="which tiles complete a 13-tile hand")
    _ruleset_arg(w)
    w.add_argument("hand", help="13 concealed tiles, e.g. \"46m 123456789s 1z 7p\"")
    w.add_argument("--indicator", required=True,
                   help="the indicator tile turned up on the wall, e.g. 7p")
    w.add_argument("--pung", action="append", default=[], help="an exposed pung, e.g. 555p")
    w.add_argument("--kong", action="append", default=[], help="an exposed kong, e.g. 2222z")
    w.add_argument("--concealed-kong", action="append", default=[],
                   help="a concealed kong (a 金杠 if it is four hun)")
    _hand_flags(w)
    _format_arg(w)

    st = sub.add_parser("settle", help="payments for settle documents")
    _ruleset_arg(st)
    st.add_argument("--json", metavar="FILE", help="one settle document, - for stdin")
    st.add_argument("--jsonl", metavar="FILE", help="one settle document per line")
    _format_arg(st, default=None)

    se = sub.add_parser("session", help="settle a sequence of hands, carrying the dealer")
    _ruleset_arg(se)
    se.add_argument("--jsonl", metavar="FILE", required=True, help="settle documents in order")
    se.add_argument("--json", action="store_true", help="the same as --format json")
    _format_arg(se)

    v = sub.add_parser("validate", help="check ruleset files; every problem at once")
    v.add_argument("paths", nargs="+", metavar="PATH", help="a ruleset file, - for stdin")
    _format_arg(v)

    _format_arg(sub.add_parser("rulesets", help="list the built-in rulesets"))
    sh = sub.add_parser("show", help="print a ruleset fully resolved (after extends)")
    sh.add_argument("ruleset", help="a built-in name or a YAML path")
    _format_arg(sh)
    sc = sub.add_parser("schema", help="print the ruleset JSON Schema")
    sc.add_argument("--overlay", action="store_true",
                    help="the schema of a file that `extends` another (no key required, "
                         "null removes a key)")

    t = sub.add_parser("test", help="run golden case files (every built-in's by default)")
    t.add_argument("targets", nargs="*", metavar="NAME|PATH",
                   help="a built-in ruleset name, a case file, or a ruleset file "
                        "(its cases/NAME.yaml beside it)")
    t.add_argument("--ruleset", "-r", help="run the cases under this ruleset instead of the "
                                           "one each case file names")
    t.add_argument("--update", action="store_true",
                   help="rewrite failing expectations to what comes out, showing each change")
    _format_arg(t)

    c = sub.add_parser("corpus", help="seeded random winning hand documents, as JSON lines")
    c.add_argument("--count", "-n", type=int, required=True, help="how many documents")
    c.add_argument("--seed", "-s", type=int, default=0,
                   help="the same seed always gives the same corpus")
    c.add_argument("--hun-kinds", type=int, choices=[1, 2], default=2,
                   help="hun kinds per indicator, as in the ruleset the corpus is for")
    c.add_argument("--settle", nargs="?", type=float, const=0.25, default=0.0, metavar="SHARE",
                   help="make this share of the documents settle documents (default 0.25), "
                        "so that a diff sees settlement and 鏟 edits")

    d = sub.add_parser("diff", help="score a corpus under two rulesets; report what changed")
    d.add_argument("old", help="a built-in name, a path, or REV:path (a git revision)")
    d.add_argument("new", help="a built-in name, a path, or REV:path")
    d.add_argument("--corpus", required=True, metavar="FILE",
                   help="hand and settle documents, one JSON per line (- for stdin)")
    d.add_argument("--json", action="store_true", help="the same as --format json")
    _format_arg(d)
    d.add_argument("--fail-on-change", action="store_true", help="exit 1 if anything changed")
    d.add_argument("--cluster", metavar="ADDRESS|local",
                   help="score on a Dask cluster (local: a LocalCluster on this machine; "
                        'pip install "rulekit[dask]"); workers get the merged ruleset text')
    d.add_argument("--jobs", "-j", type=int, default=None,
                   help="worker processes (default: one per core)")
    d.add_argument("--top", type=int, default=10, help="how many largest changes to list")

    sv = sub.add_parser("serve", help="the HTTP JSON API and web calculator (extra: serve)")
    sv.add_argument("--host", default="127.0.0.1", help="address to bind (default loopback)")
    sv.add_argument("--port", type=int, default=8000, help="TCP port to listen on")
    sv.add_argument("--rulesets", metavar="DIR", help="also serve the *.yaml rulesets here")
    from rulekit.serve.limits import ServeLimits       # plain data: no server imported
    lim = ServeLimits()
    for flag, help_ in (("--max-body", f"bytes of one request body (default {lim.body_bytes})"),
                        ("--max-ruleset", "bytes of one inline ruleset_yaml (default "
                                          f"{lim.ruleset_bytes})"),
                        ("--max-batch", f"documents in one batch (default {lim.batch})"),
                        ("--timeout", f"seconds of scoring per request (default {lim.seconds:g})"),
                        ("--max-work", "steps one pattern of an inline ruleset may take "
                                       f"(default and most: the library budget, {lim.work})"),
                        ("--threads", "scoring threads (named rulesets) per server process "
                                      f"(default {lim.threads})"),
                        ("--workers", "server processes (uvicorn workers; default 1)"),
                        ("--processes", "worker processes for inline overlays "
                                        f"(default {lim.processes})"),
                        ("--read-timeout", "seconds for a request's headers, and for its body "
                                           f"(default {lim.header_seconds:g})"),
                        ("--max-connections", f"open connections (default {lim.connections})")):
        sv.add_argument(flag, type=float if "timeout" in flag else int, help=help_)
    sv.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                    help="a name clients reach this server by (repeatable; '*' any); "
                         "loopback names and --host are allowed")
    sv.add_argument("--db", metavar="PATH", help="the live tables' SQLite file (default "
                    "$XDG_DATA_HOME/rulekit/tables.db; ':memory:' keeps nothing)")
    sv.add_argument("--max-tables", type=int, help="tables in play at once (default 100)")
    sv.add_argument("--key-file", metavar="PATH",
                    help="the key that seals the tables' hand records (default "
                         "$RULEKIT_KEY_FILE, else ~/.config/rulekit/record.key; made if "
                         "missing, mode 0600)")
    sv.add_argument("--think-time", type=float,
                    help="a person's default seconds per decision at a table (default 120)")
    sv.add_argument("--bot-time", type=float,
                    help="a bot's seconds per decision at a table, a remote one or built-in; "
                         "then its seat's fallback plays (default 10)")

    sht = sub.add_parser("sheet", help="a ruleset as a printable HTML rule sheet")
    sht.add_argument("ruleset", help="a built-in name or a YAML path")
    g = sub.add_parser("simulate", help="play hands under a ruleset; rates, fan, money (95%% CI)")
    _ruleset_arg(g)
    g.add_argument("--hands", "-n", type=int, required=True, help="how many hands to play")
    g.add_argument("--seed", "-s", type=int, default=0,
                   help="the master seed: the same seed plays the same hands")
    g.add_argument("--players", default=None,
                   help="one built-in player per seat: random, greedy, value (default greedy)")
    g.add_argument("--workers", "-j", type=int, default=1, help="local worker processes")
    g.add_argument("--cluster", metavar="ADDRESS|local",
                   help="run on a Dask cluster (local: a LocalCluster on this machine)")
    g.add_argument("--log", metavar="FILE", help="write one JSON line per hand")
    g.add_argument("--versus", metavar="OTHER",
                   help="play the same deals under OTHER too; report which rules differ, "
                        "whether they fired, and the differences (this ruleset minus OTHER)")
    g.add_argument("--across-players", action="store_true",
                   help="with --versus: repeat the comparison with all greedy, all value and "
                        "mixed players; say which conclusions depend on the players")
    g.add_argument("--html", metavar="FILE",
                   help="also write the report as one self-contained HTML page")
    g.add_argument("--session-hands", type=int, default=16,
                   help="hands per session (the dealer carries within one)")
    g.add_argument("--json", action="store_true", help="the same as --format json")
    _format_arg(g)

    rp = sub.add_parser("replay", help="re-play a --log file; with --ruleset, under another")
    rp.add_argument("log", metavar="FILE.jsonl", help="a log written by simulate --log")
    rp.add_argument("--ruleset", "-r", default=None,
                    help="re-score and re-settle the same play under this ruleset")
    rp.add_argument("--key-file", metavar="PATH", default=None,
                    help="the record key to check seals with (default $RULEKIT_KEY_FILE, "
                         "else ~/.config/rulekit/record.key; never made by replay)")
    rp.add_argument("--require-seal", action="store_true",
                    help="a record this key did not seal is not authentic (exit 1)")
    _format_arg(rp)
    from rulekit.game import match_cli      # rulekit match (docs/bots.md)
    match_cli.add_parser(sub)
    return parser


# -- input helpers ------------------------------------------------------------------------

def _open(name: str) -> TextIO:
    if name == "-":
        return sys.stdin
    try:
        return open(name, encoding="utf-8")
    except OSError as err:
        raise UsageError(f"{name}: cannot open: {err.strerror}") from None


def _open_bytes(name: str) -> IO[bytes]:
    """`name` (or stdin for -) as bytes: documents are decoded per line, by `jsonio`."""
    if name == "-":
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is not None:
            return cast(IO[bytes], buffer)
        return io.BytesIO(sys.stdin.read().encode("utf-8", "surrogateescape"))
    try:
        return open(name, "rb")
    except OSError as err:
        raise UsageError(f"{name}: cannot open: {err.strerror}") from None


def _load_json_one(name: str) -> Any:
    with _nullctx(_open_bytes(name), close=name != "-") as fh:
        try:
            data = jsonio.read_bounded(fh)
        except OSError as err:
            raise UsageError(f"{name}: cannot read: {err.strerror}") from None
    try:
        return jsonio.read_document(data)
    except jsonio.JsonError as err:
        raise UsageError(err.located("stdin" if name == "-" else name)) from None


class _nullctx:
    """A context for a file that is closed on exit only if `close` (never stdin)."""

    def __init__(self, fh: IO[bytes], close: bool = False) -> None:
        self.fh = fh
        self.close = close

    def __enter__(self) -> IO[bytes]:
        return self.fh

    def __exit__(self, *exc: Any) -> None:
        if self.close:
            self.fh.close()


def _jsonl(name: str) -> Iterable[tuple[int, Any, str | None]]:
    """(line number, document or None, error or None) for each non-blank line."""
    with _nullctx(_open_bytes(name), close=name != "-") as fh:
        try:
            yield from jsonio.iter_lines(fh)
        except OSError as err:
            raise UsageError(f"{name}: cannot read: {err.strerror}") from None


def _emit(obj: Any, out: TextIO) -> None:
    out.write(jsonio.dumps(obj) + "\n")


def _batch(name: str, fn: Callable[[Any], dict[str, Any]], out: TextIO) -> int:
    """Each line's result or its `{"error"}` line, in order; exit 1 if any line failed."""
    failed = False
    for n, doc, err in _jsonl(name):
        text, bad = result_line(n, doc, err, fn)
        failed |= bad
        out.write(text)
    return 1 if failed else 0


def _hand_doc(args: argparse.Namespace, with_win: bool = True) -> dict[str, Any]:
    if not args.hand or not args.indicator or (with_win and not args.win):
        raise UsageError("score: give HAND with --win and --indicator, or --json/--jsonl")
    melds = ([{"kind": "pung", "tiles": t} for t in args.pung]
             + [{"kind": "kong", "tiles": t, "concealed": False} for t in args.kong]
             + [{"kind": "kong", "tiles": t, "concealed": True} for t in args.concealed_kong])
    doc: dict[str, Any] = {"indicator": args.indicator, "hand": args.hand, "melds": melds}
    if with_win:
        doc.update({"win_tile": args.win, "heavenly": args.heavenly})
    if args.flowers:
        doc["flowers"] = args.flowers
    doc.update({"win_by": args.win_by, "discarded_hun": args.discarded_hun,
                "earthly": args.earthly, "ready_declared": args.ready_declared})
    return doc


def _one_format(args: argparse.Namespace, command: str) -> None:
    if args.jsonl and args.format == "text":
        raise UsageError(f"{command}: --jsonl writes one JSON result per line; "
                         f"--format text is for one document")


# -- commands -------------------------------------------------------------------------------

def cmd_score(args: argparse.Namespace, out: TextIO) -> int:
    _one_format(args, "score")
    if args.jsonl:
        return _score_jsonl(args, out)
    rs = api.load_ruleset(args.ruleset)
    if args.json:
        doc = _load_json_one(args.json)
        if args.format != "text":
            _emit(api.score(doc, rs).to_dict(), out)
            return 0
        out.write(report.score_text(doc, api.score(doc, rs), rs))
        return 0
    doc = _hand_doc(args)
    result = api.score(doc, rs)
    from rulekit import flags
    for warning in flags.unread([f for f in flags.FIELDS if doc.get(f)], rs):
        sys.stderr.write(f"rulekit score: warning: {warning}\n")
    if args.format == "json":
        _emit(result.to_dict(), out)
    else:
        out.write(report.score_text(doc, result, rs))
    return 0


def _score_jsonl(args: argparse.Namespace, out: TextIO) -> int:
    """`score --jsonl`, in this process or in `--jobs` workers (rulekit.batch); exit 3 if a
    worker dies."""
    from rulekit import batch
    if args.jobs < 1:
        raise UsageError(f"score: --jobs must be 1 or more, got {args.jobs}")
    outside = resolve.allow_outside_default(None)
    # when the process ends, its exit-time collections need not trace what the run built
    # (four full passes, ~200M instructions after 20,000 lines): freeze it first
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)
    with _nullctx(_open_bytes(args.jsonl), close=args.jsonl != "-") as fh:
        try:
            failed = batch.score_lines(fh, out, args.ruleset, outside=outside, jobs=args.jobs)
        except BrokenPipeError:
            raise
        except OSError as err:
            raise UsageError(f"{args.jsonl}: cannot read: {err.strerror}") from None
        except batch.WorkerError as err:
            sys.stderr.write(error_line("score", str(err)))
            return 3
    return 1 if failed else 0


def cmd_waits(args: argparse.Namespace, out: TextIO) -> int:
    """Each tile that completes the shape, scored as the winning tile (`win_by` as given)."""
    rs = api.load_ruleset(args.ruleset)
    doc = _hand_doc(args, with_win=False)
    rows = [w.to_dict() for w in api.scored_waits(doc, rs)]
    if args.format == "json":
        _emit(rows, out)
    else:                               # for people, each wait's patterns by name
        names = {r["tile"]: api.score(dict(doc, win_tile=r["tile"]), rs).pattern_names
                 for r in rows}
        out.write(report.waits_text(rows, rs, names))
    return 0


def cmd_settle(args: argparse.Namespace, out: TextIO) -> int:
    _one_format(args, "settle")
    rs = api.load_ruleset(args.ruleset)
    if args.jsonl:
        return _batch(args.jsonl, lambda d: api.settle(d, rs).to_dict(), out)
    if not args.json:
        raise UsageError("settle: give --json FILE or --jsonl FILE (- for stdin)")
    doc = _load_json_one(args.json)
    if args.format != "text":
        _emit(api.settle(doc, rs).to_dict(), out)
        return 0
    out.write(report.settle_text(doc, api.settle(doc, rs), rs))
    return 0


def cmd_session(args: argparse.Namespace, out: TextIO) -> int:
    from rulekit import limits
    from rulekit.session import run_session
    rs = api.load_ruleset(args.ruleset)
    docs: list[Any] = []
    for n, doc, err in _jsonl(args.jsonl):
        if err is not None:
            raise UsageError(f"{args.jsonl}: {err}")
        if len(docs) == limits.SESSION_HANDS:       # held in memory: bounded like a corpus
            raise UsageError(f"{args.jsonl}: line {n}: a session holds at most "
                             f"{limits.SESSION_HANDS:,} hands")
        docs.append(doc)
    result = run_session(docs, rs)
    if args.json:
        _emit(result.to_dict(), out)
    else:
        out.write(result.table() + "\n")
    return 0


def cmd_validate(args: argparse.Namespace, out: TextIO) -> int:
    bad = 0
    rows: list[dict[str, Any]] = []
    for p in args.paths:
        try:
            rs = _stdin_ruleset() if p == "-" else api.load_ruleset(p)
            rows.append({"path": rs.source, "ok": True, "name": rs.name,
                         "patterns": len(rs.patterns)})
            if args.format == "text":
                out.write(f"{rs.source}: ok ({rs.name}, {len(rs.patterns)} patterns)\n")
        except RulesetError as err:
            bad += 1
            rows.append({"path": "stdin" if p == "-" else p, "ok": False,
                         "problems": list(err.problems)})
            if args.format == "text":
                for line in err.problems:
                    sys.stderr.write(line + "\n")
    if args.format == "json":
        _emit(rows, out)
    return 2 if bad else 0


def _stdin_ruleset() -> Ruleset:
    """A ruleset text piped in: named `stdin`, its `extends` paths relative to the cwd."""
    from pathlib import Path
    from rulekit.ruleset.model import load_text
    return load_text(_stdin_text(RulesetError), Path.cwd() / "stdin.yaml", "stdin")


def _stdin_text(error: Callable[[list[str]], RulekitError]) -> str:
    """A YAML text piped in, read bounded (limits.RULESET_BYTES) like a file: a pipe that never
    ends costs at most that much before it is one clean `error`."""
    from rulekit import limits
    from rulekit.ruleset.resolve import read_stream
    buffer: IO[bytes] | None = getattr(sys.stdin, "buffer", None)
    if buffer is None:                        # a text stream (tests): bounded the same way
        buffer = io.BytesIO(sys.stdin.read(limits.RULESET_BYTES + 1).encode(
            "utf-8", "surrogateescape"))
    try:
        return read_stream(buffer, "stdin")
    except RulesetError as err:
        raise error(err.problems) from None
    except OSError as err:
        raise error([f"stdin:1: cannot read: {err.strerror}"]) from None


def cmd_rulesets(args: argparse.Namespace, out: TextIO) -> int:
    rows: list[dict[str, Any]] = []
    for name in resolve.builtin_names():
        try:
            rs = api.load_ruleset(name)
            first = rs.description.splitlines()[0] if rs.description else ""
            rows.append({"name": name, "description": rs.description})
            line = f"{name:<18} {first}\n"
        except RulesetError as err:
            rows.append({"name": name, "error": err.problems[0]})
            line = f"{name:<18} (broken: {err.problems[0]})\n"
        if args.format == "text":
            out.write(line)
    if args.format == "json":
        _emit(rows, out)
    return 0


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    """The resolved ruleset: YAML for `text` (with its extends chain), the same data as JSON."""
    rs = api.load_ruleset(args.ruleset)
    if args.format == "json":
        _emit({"name": rs.name, "chain": list(rs.chain), "data": report.plain(rs.data)}, out)
    else:
        out.write(report.ruleset_yaml(rs))
    return 0


def cmd_schema(args: argparse.Namespace, out: TextIO) -> int:
    from rulekit.ruleset.schema import overlay_schema, schema
    chosen = overlay_schema() if args.overlay else schema()
    out.write(json.dumps(chosen, indent=2, ensure_ascii=False) + "\n")
    return 0


class _TestReport:
    """What `rulekit test` found, in the order it found it; printed as text or as JSON."""

    KINDS: dict[str, str] = {"failure": "FAIL ", "misnamed": "FAIL ", "update": "updated ",
                             "note": "note: "}

    def __init__(self) -> None:
        self.lines: list[tuple[str, str]] = []
        self.passed = self.failed = self.updated = self.broken = self.misnamed = 0

    def add(self, kind: str, text: str) -> None:
        self.lines.append((kind, text))

    def summary(self, update: bool) -> str:
        text = f"{self.passed} passed, {self.failed} failed"
        if update:
            text += f", {self.updated} updated"
        if self.misnamed:
            text += f", {self.misnamed} case file(s) name another ruleset"
        if self.broken:
            text += f", {self.broken} case file(s) could not run"
        return text

    def exit_code(self) -> int:
        return 2 if self.broken else 1 if self.failed or self.misnamed else 0

    def write(self, out: TextIO, fmt: str | None, update: bool) -> None:
        if fmt == "json":
            grouped = {kind + "s": [t for k, t in self.lines if k == kind]
                       for kind in ("failure", "update", "note")}
            _emit({"passed": self.passed, "failed": self.failed, "updated": self.updated,
                   "broken": self.broken, "misnamed": [t for k, t in self.lines
                                                        if k == "misnamed"],
                   "exit": self.exit_code(), **grouped}, out)
            return
        for kind, text in self.lines:
            out.write(self.KINDS[kind] + text + "\n")
        out.write(self.summary(update) + "\n")


def _test_runs(args: argparse.Namespace, report: _TestReport) -> list[tuple[Any, Ruleset]]:
    """For `rulekit test`: each case file with the ruleset it runs against; targets with no
    case file, that cannot be read, or that name another ruleset are counted in `report`."""
    from rulekit import casefile as cf_
    override = api.load_ruleset(args.ruleset) if args.ruleset else None
    runs: list[tuple[Any, Ruleset]] = []
    for target in args.targets or cf_.default_targets():
        try:
            stdin_cf = _stdin_casefile(args) if target == "-" else None
            found = cf_.find(target) if stdin_cf is None else cf_.Target(stdin_cf.path, None)
            if found.cases is None:
                report.failed += 1
                report.add("failure", f"rulesets/{target}.yaml: no case file (write "
                                      f"rulesets/cases/{target}.yaml)")
                continue
            cf = stdin_cf or cf_.load_casefile(found.cases)
            if override is not None:
                rs = override
            elif found.ruleset is not None:            # a ruleset file: test that file
                rs = api.load_ruleset(found.ruleset)
                other = cf_.other_ruleset(cf, found.ruleset)
                if other is not None:
                    report.misnamed += 1
                    report.add("misnamed", other.removeprefix("FAIL "))
            else:
                rs = api.load_ruleset(cf.ruleset_path())
            problems = cf_.unknown_patterns(cf, rs)
            if problems:
                raise cf_.CaseFileError(problems)
            runs.append((cf, rs))
        except (cf_.CaseFileError, RulesetError) as err:
            report.broken += 1
            for line in err.problems:
                sys.stderr.write(error_line("test", line))
    return runs


def cmd_test(args: argparse.Namespace, out: TextIO) -> int:
    from rulekit import casefile as cf_
    from rulekit.progress import Progress
    report = _TestReport()
    runs = _test_runs(args, report)
    with Progress(sum(len(cf.cases) for cf, _ in runs), "test") as bar:
        for cf, rs in runs:
            outcomes = []
            for case in cf.cases:
                outcomes.append(cf_.run_case(case, rs))
                bar.advance()
            bad = [o for o in outcomes if not o.passed]
            report.passed += len(outcomes) - len(bad)
            bar.clear()
            if args.update and bad:
                text, changes = cf_.updated(cf, outcomes)
                cf_.write_atomic(cf.path, text)
                report.updated += len(bad)
                for ch in changes:
                    report.add("update", f"{cf.shown}:{ch.case.line}: {ch.case.name}: "
                                         f"{ch.text()}")
            else:
                report.failed += len(bad)
                for o in bad:
                    report.add("failure", cf_.failure_line(cf, o)[len("FAIL "):])
            missing = cf_.uncovered(cf, rs)
            if missing:
                report.add("note", f"{cf.shown}: no case expects pattern(s) "
                                   f"{', '.join(missing)} of ruleset {rs.name}")
    report.write(out, args.format, args.update)
    return report.exit_code()


def _stdin_casefile(args: argparse.Namespace) -> "CaseFile":
    """A case file piped in (`rulekit test -`): its `ruleset:` path is relative to the cwd."""
    from pathlib import Path
    from rulekit import casefile as cf_
    if args.update:
        raise UsageError("test: --update rewrites case files; it cannot rewrite stdin")
    return cf_.parse_casefile(_stdin_text(cf_.CaseFileError), Path.cwd() / "stdin.yaml",
                              "stdin")


def cmd_corpus(args: argparse.Namespace, out: TextIO) -> int:
    from rulekit.corpus import corpus
    from rulekit.progress import Progress
    if args.count < 0:
        raise UsageError(f"corpus: --count must be 0 or more, got {args.count}")
    if not 0 <= args.settle <= 1:
        raise UsageError(f"corpus: --settle must be a share from 0 to 1, got {args.settle}")
    with Progress(args.count, "corpus") as bar:
        for doc in corpus(args.count, args.seed, hun_kinds_count=args.hun_kinds,
                          settle_share=args.settle):
            out.write(json.dumps(doc, ensure_ascii=False) + "\n")
            bar.advance()
    return 0


def cmd_diff(args: argparse.Namespace, out: TextIO) -> int:
    import os
    from rulekit import diff
    from rulekit.progress import Progress
    old, new = diff.spec_for(args.old), diff.spec_for(args.new)
    name = "stdin" if args.corpus == "-" else args.corpus
    try:
        fh = sys.stdin.buffer if args.corpus == "-" else open(args.corpus, "rb")
    except OSError as err:
        raise UsageError(f"{args.corpus}: cannot open: {err.strerror}") from None
    try:
        docs = diff.read_corpus(fh, name)
    finally:
        if args.corpus != "-":
            fh.close()
    jobs = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
    if jobs < 1 or args.top < 0:
        raise UsageError("diff: --jobs must be 1 or more and --top 0 or more")
    try:
        with Progress(len(docs), "diff") as bar:
            result = diff.run(old, new, docs, corpus_name=name, jobs=jobs, top=args.top,
                              cluster=args.cluster,
                              progress=bar)
    except diff.WorkerError as err:
        sys.stderr.write(error_line("diff", str(err)))
        return 3
    if args.json:
        _emit(result.to_dict(), out)
    else:
        out.write(diff.text(result))
    return 1 if args.fail_on_change and result.changed else 0


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    try:
        from rulekit.serve.main import run
        from rulekit.serve.startup import check_rulesets_dir
    except ImportError as err:
        raise UsageError(f"serve: needs the serve extra (pip install \"rulekit[serve]\"): "
                         f"{err}") from None
    if args.rulesets and os.path.isdir(args.rulesets):
        from pathlib import Path
        check_rulesets_dir(Path(args.rulesets))
    return run(args, out)


def cmd_sheet(args: argparse.Namespace, out: TextIO) -> int:
    from rulekit.serve.sheet import sheet_for
    out.write(sheet_for(args.ruleset))
    return 0
def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    from rulekit.game import cli as game_cli
    return game_cli.simulate(args, out)


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    from rulekit.game import cli as game_cli
    return game_cli.replay(args, out)


def _match_cli() -> Any:
    from rulekit.game import match_cli
    return match_cli


COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO], int]] = {
    "score": cmd_score, "waits": cmd_waits, "settle": cmd_settle, "session": cmd_session,
    "validate": cmd_validate, "rulesets": cmd_rulesets, "show": cmd_show, "schema": cmd_schema,
    "test": cmd_test, "corpus": cmd_corpus, "diff": cmd_diff,
    "serve": cmd_serve, "sheet": cmd_sheet,
    "simulate": cmd_simulate, "replay": cmd_replay,
    "match": lambda args, out: _match_cli().run(args, out),
}


def error_line(command: str | None, message: str) -> str:
    """The one form of every error: `rulekit CMD: error: MESSAGE` (argparse's own), one line;
    a message that starts with the command's name does not say it twice."""
    prog = f"rulekit {command}" if command else "rulekit"
    text = _one_line(message)
    if command and text.startswith(f"{command}: "):
        text = text[len(command) + 2:]
    return f"{prog}: error: {text}\n"


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    from rulekit import outputs, workers
    stream = out or _utf8_stdout()
    out = outputs.guarded(stream, "stdout")
    command: str | None = None
    try:
        args = build_parser().parse_args(argv)
        command = args.command
        # SIGTERM takes Ctrl-C's way out (rulekit.workers); uvicorn handles its own
        with workers.sigterm_raises() if args.command != "serve" else contextlib.nullcontext():
            code = _command(args, out)
            out.flush()
            return code
    except RulesetError as err:
        for line in err.problems:
            sys.stderr.write(error_line(command, line))
        return 2
    except RulekitError as err:
        sys.stderr.write(error_line(command, str(err)))
        return 2
    except BrokenPipeError:
        return 0
    except workers.Terminated:
        sys.stderr.write("rulekit: stopped by SIGTERM\n")
        return 143
    except KeyboardInterrupt:
        sys.stderr.write("rulekit: interrupted\n")
        return 130
    except workers.WorkerError as err:
        sys.stderr.write(error_line(command, str(err)))
        return 3
    except outputs.OutputError as err:
        sys.stderr.write(error_line(command, str(err)))
        if stream is sys.stdout:
            _discard_stdout()
        return 3
    except SystemExit as exc:          # --help
        return int(exc.code or 0)
    except Exception as exc:  # noqa: BLE001 - the last guard: no traceback reaches a user
        sys.stderr.write(error_line(command, f"internal error: {type(exc).__name__}: "
                                             f"{str(exc)} (please report this)"))
        return 3


def _command(args: argparse.Namespace, out: TextIO) -> int:
    if not args.allow_extends_outside:
        return COMMANDS[args.command](args, out)
    before = os.environ.get(resolve.ALLOW_OUTSIDE_ENV)
    os.environ[resolve.ALLOW_OUTSIDE_ENV] = "1"     # for this command only
    try:
        return COMMANDS[args.command](args, out)
    finally:
        if before is None:
            os.environ.pop(resolve.ALLOW_OUTSIDE_ENV, None)
        else:
            os.environ[resolve.ALLOW_OUTSIDE_ENV] = before


def _discard_stdout() -> None:
    """After a failed write to stdout, what is still buffered goes nowhere: else the
    interpreter's flush at exit fails again and prints its own traceback."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def _utf8_stdout() -> TextIO:
    """stdout, writing UTF-8 whatever the locale says: results hold Chinese names."""
    stream = sys.stdout
    if isinstance(stream, io.TextIOWrapper) and \
            stream.encoding.lower().replace("-", "").replace("_", "") != "utf8":
        try:
            stream.reconfigure(encoding="utf-8")
        except (ValueError, OSError):
            pass            # already written to: keep it, the locale's encoding was chosen
    return stream


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
