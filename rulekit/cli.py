"""The `rulekit` command: parse arguments, call the library, print. No rules in here.

Exit codes: 0 done (a hand that does not win is not an error), 1 some `--jsonl` lines or
`rulekit test` cases failed, 2 bad input (one line on stderr naming the problem).
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, Iterable, NoReturn, Sequence, TextIO

from rulekit import api, report
from rulekit.errors import RulekitError, RulesetError
from rulekit.ruleset import resolve
from rulekit.ruleset.model import Ruleset


class UsageError(RulekitError):
    """Bad command-line arguments or unreadable input files."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def _ruleset_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ruleset", "-r", default=api.DEFAULT_RULESET,
                   help="a built-in name (see `rulekit rulesets`) or a YAML path")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rulekit", description="Tianjin mahjong house rules as data.")
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
    s.add_argument("--win-by", default="self_draw",
                   help="self_draw (default), kong_draw, discard, last_draw")
    s.add_argument("--heavenly", action="store_true", help="天和: the dealer's first 14 tiles")
    s.add_argument("--discarded-hun", action="store_true", help="this player discarded a hun")
    s.add_argument("--json", metavar="FILE", help="one hand document (JSON), - for stdin")
    s.add_argument("--jsonl", metavar="FILE", help="one hand document per line, - for stdin")
    s.add_argument("--format", choices=["text", "json"], default=None,
                   help="output format for the human form (default text)")

    w = sub.add_parser("waits", help="which tiles complete a 13-tile hand")
    _ruleset_arg(w)
    w.add_argument("hand")
    w.add_argument("--indicator", required=True)
    w.add_argument("--pung", action="append", default=[])
    w.add_argument("--kong", action="append", default=[])
    w.add_argument("--concealed-kong", action="append", default=[])

    st = sub.add_parser("settle", help="payments for settle documents")
    _ruleset_arg(st)
    st.add_argument("--json", metavar="FILE", help="one settle document, - for stdin")
    st.add_argument("--jsonl", metavar="FILE", help="one settle document per line")

    se = sub.add_parser("session", help="settle a sequence of hands, carrying the dealer")
    _ruleset_arg(se)
    se.add_argument("--jsonl", metavar="FILE", required=True, help="settle documents in order")
    se.add_argument("--json", action="store_true", help="print JSON instead of a table")

    v = sub.add_parser("validate", help="check ruleset files; every problem at once")
    v.add_argument("paths", nargs="+")

    sub.add_parser("rulesets", help="list the built-in rulesets")
    sh = sub.add_parser("show", help="print a ruleset fully resolved (after extends)")
    sh.add_argument("ruleset")
    sub.add_parser("schema", help="print the ruleset JSON Schema")

    t = sub.add_parser("test", help="run golden case files (every built-in's by default)")
    t.add_argument("targets", nargs="*", metavar="NAME|PATH",
                   help="a built-in ruleset name, a case file, or a ruleset file "
                        "(its cases/NAME.yaml beside it)")
    t.add_argument("--ruleset", "-r", help="run the cases under this ruleset instead of the "
                                           "one each case file names")
    t.add_argument("--update", action="store_true",
                   help="rewrite failing expectations to what comes out, showing each change")

    c = sub.add_parser("corpus", help="seeded random winning hand documents, as JSON lines")
    c.add_argument("--count", "-n", type=int, required=True)
    c.add_argument("--seed", "-s", type=int, default=0)
    c.add_argument("--hun-kinds", type=int, choices=[1, 2], default=2,
                   help="hun kinds per indicator, as in the ruleset the corpus is for")

    d = sub.add_parser("diff", help="score a corpus under two rulesets; report what changed")
    d.add_argument("old", help="a built-in name, a path, or REV:path (a git revision)")
    d.add_argument("new", help="a built-in name, a path, or REV:path")
    d.add_argument("--corpus", required=True, metavar="FILE",
                   help="hand and settle documents, one JSON per line (- for stdin)")
    d.add_argument("--json", action="store_true", help="print the report as JSON")
    d.add_argument("--fail-on-change", action="store_true", help="exit 1 if anything changed")
    d.add_argument("--jobs", "-j", type=int, default=None,
                   help="worker processes (default: one per core)")
    d.add_argument("--top", type=int, default=10, help="how many largest changes to list")

    sv = sub.add_parser("serve", help="the HTTP JSON API and web calculator (extra: serve)")
    sv.add_argument("--host", default="127.0.0.1", help="address to bind (default loopback)")
    sv.add_argument("--port", type=int, default=8000)
    sv.add_argument("--rulesets", metavar="DIR", help="also serve the *.yaml rulesets here")
    for flag, help_ in (("--max-body", "bytes of one request body"),
                        ("--max-ruleset", "bytes of one inline ruleset_yaml"),
                        ("--max-batch", "documents in one batch"),
                        ("--timeout", "seconds of scoring per request"),
                        ("--max-work", "static work budget of an inline ruleset's patterns"),
                        ("--workers", "scoring threads")):
        sv.add_argument(flag, type=float if flag == "--timeout" else int, help=help_)

    sht = sub.add_parser("sheet", help="a ruleset as a printable HTML rule sheet")
    sht.add_argument("ruleset", help="a built-in name or a YAML path")
    return parser


# -- input helpers ------------------------------------------------------------------------

def _open(name: str) -> TextIO:
    if name == "-":
        return sys.stdin
    try:
        return open(name, encoding="utf-8")
    except OSError as err:
        raise UsageError(f"{name}: cannot open: {err.strerror}") from None


def _load_json_one(name: str) -> Any:
    with _open(name) if name != "-" else _nullctx(sys.stdin) as fh:
        text = fh.read()
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise UsageError(f"{'stdin' if name == '-' else name}:{err.lineno}:{err.colno}: "
                         f"invalid JSON: {err.msg}") from None


class _nullctx:
    def __init__(self, fh: TextIO) -> None:
        self.fh = fh

    def __enter__(self) -> TextIO:
        return self.fh

    def __exit__(self, *exc: Any) -> None:
        return None


def _jsonl(name: str) -> Iterable[tuple[int, Any, str | None]]:
    """(line number, document or None, error or None) for each non-blank line."""
    fh = _open(name)
    try:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                yield n, json.loads(line), None
            except json.JSONDecodeError as err:
                yield n, None, f"line {n}: invalid JSON: {err.msg} at column {err.colno}"
    finally:
        if fh is not sys.stdin:
            fh.close()


def _emit(obj: Any, out: TextIO) -> None:
    out.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _batch(name: str, fn: Callable[[Any], dict[str, Any]], out: TextIO) -> int:
    failed = 0
    for n, doc, err in _jsonl(name):
        if err is None:
            try:
                result = fn(doc)
            except RulekitError as exc:
                err = f"line {n}: {exc}"
        if err is not None:
            failed += 1
            _emit({"error": err}, out)
        else:
            _emit(result, out)
    return 1 if failed else 0


def _hand_doc(args: argparse.Namespace, with_win: bool = True) -> dict[str, Any]:
    if not args.hand or not args.indicator or (with_win and not args.win):
        raise UsageError("score: give HAND with --win and --indicator, or --json/--jsonl")
    melds = ([{"kind": "pung", "tiles": t} for t in args.pung]
             + [{"kind": "kong", "tiles": t, "concealed": False} for t in args.kong]
             + [{"kind": "kong", "tiles": t, "concealed": True} for t in args.concealed_kong])
    doc: dict[str, Any] = {"indicator": args.indicator, "hand": args.hand, "melds": melds}
    if with_win:
        doc.update({"win_tile": args.win, "win_by": args.win_by, "heavenly": args.heavenly,
                    "discarded_hun": args.discarded_hun})
    return doc


# -- commands -------------------------------------------------------------------------------

def cmd_score(args: argparse.Namespace, out: TextIO) -> int:
    rs = api.load_ruleset(args.ruleset)
    if args.jsonl:
        return _batch(args.jsonl, lambda d: api.score(d, rs).to_dict(), out)
    if args.json:
        _emit(api.score(_load_json_one(args.json), rs).to_dict(), out)
        return 0
    doc = _hand_doc(args)
    result = api.score(doc, rs)
    if args.format == "json":
        _emit(result.to_dict(), out)
    else:
        out.write(report.score_text(doc, result, rs))
    return 0


def cmd_waits(args: argparse.Namespace, out: TextIO) -> int:
    rs = api.load_ruleset(args.ruleset)
    tiles = api.waits(_hand_doc(args, with_win=False), rs)
    out.write((" ".join(tiles) if tiles else "no tile completes this hand") + "\n")
    return 0


def cmd_settle(args: argparse.Namespace, out: TextIO) -> int:
    rs = api.load_ruleset(args.ruleset)
    if args.jsonl:
        return _batch(args.jsonl, lambda d: api.settle(d, rs).to_dict(), out)
    if not args.json:
        raise UsageError("settle: give --json FILE or --jsonl FILE (- for stdin)")
    _emit(api.settle(_load_json_one(args.json), rs).to_dict(), out)
    return 0


def cmd_session(args: argparse.Namespace, out: TextIO) -> int:
    from rulekit.session import run_session
    rs = api.load_ruleset(args.ruleset)
    docs = []
    for n, doc, err in _jsonl(args.jsonl):
        if err is not None:
            raise UsageError(f"{args.jsonl}: {err}")
        docs.append(doc)
    result = run_session(docs, rs)
    if args.json:
        _emit(result.to_dict(), out)
    else:
        out.write(result.table() + "\n")
    return 0


def cmd_validate(args: argparse.Namespace, out: TextIO) -> int:
    bad = 0
    for p in args.paths:
        try:
            rs = api.load_ruleset(p)
            out.write(f"{rs.source}: ok ({rs.name}, {len(rs.patterns)} patterns)\n")
        except RulesetError as err:
            bad += 1
            for line in err.problems:
                sys.stderr.write(line + "\n")
    return 2 if bad else 0


def cmd_rulesets(args: argparse.Namespace, out: TextIO) -> int:
    for name in resolve.builtin_names():
        try:
            rs = api.load_ruleset(name)
            first = rs.description.splitlines()[0] if rs.description else ""
            out.write(f"{name:<18} {first}\n")
        except RulesetError as err:
            out.write(f"{name:<18} (broken: {err.problems[0]})\n")
    return 0


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    rs = api.load_ruleset(args.ruleset)
    out.write(report.ruleset_yaml(rs))
    return 0


def cmd_schema(args: argparse.Namespace, out: TextIO) -> int:
    from rulekit.ruleset.schema import schema
    out.write(json.dumps(schema(), indent=2, ensure_ascii=False) + "\n")
    return 0


def cmd_test(args: argparse.Namespace, out: TextIO) -> int:
    from rulekit import casefile as cf_
    from rulekit.progress import Progress
    override = api.load_ruleset(args.ruleset) if args.ruleset else None
    runs: list[tuple[cf_.CaseFile, Ruleset]] = []
    broken = failed = passed = updated = 0
    for target in args.targets or cf_.default_targets():
        try:
            path = cf_.find(target)
            if path is None:
                failed += 1
                out.write(f"FAIL rulesets/{target}.yaml: no case file (write "
                          f"rulesets/cases/{target}.yaml)\n")
                continue
            cf = cf_.load_casefile(path)
            rs = override or api.load_ruleset(cf.ruleset_path())
            problems = cf_.unknown_patterns(cf, rs)
            if problems:
                raise cf_.CaseFileError(problems)
            runs.append((cf, rs))
        except (cf_.CaseFileError, RulesetError) as err:
            broken += 1
            for line in err.problems:
                sys.stderr.write(f"rulekit: {line}\n")
    with Progress(sum(len(cf.cases) for cf, _ in runs), "test") as bar:
        for cf, rs in runs:
            outcomes = []
            for case in cf.cases:
                outcomes.append(cf_.run_case(case, rs))
                bar.advance()
            bad = [o for o in outcomes if not o.passed]
            passed += len(outcomes) - len(bad)
            bar.clear()
            if args.update and bad:
                text, changes = cf_.updated(cf, outcomes)
                cf.path.write_text(text, encoding="utf-8")
                updated += len(bad)
                for ch in changes:
                    out.write(f"updated {cf.shown}:{ch.case.line}: {ch.case.name}: "
                              f"{ch.text()}\n")
            else:
                failed += len(bad)
                for o in bad:
                    out.write(cf_.failure_line(cf, o) + "\n")
            missing = cf_.uncovered(cf, rs)
            if missing:
                out.write(f"note: {cf.shown}: no case expects pattern(s) {', '.join(missing)} "
                          f"of ruleset {rs.name}\n")
    summary = f"{passed} passed, {failed} failed"
    if args.update:
        summary += f", {updated} updated"
    if broken:
        summary += f", {broken} case file(s) could not run"
    out.write(summary + "\n")
    return 2 if broken else 1 if failed else 0


def cmd_corpus(args: argparse.Namespace, out: TextIO) -> int:
    from rulekit.corpus import corpus
    from rulekit.progress import Progress
    if args.count < 0:
        raise UsageError(f"corpus: --count must be 0 or more, got {args.count}")
    with Progress(args.count, "corpus") as bar:
        for doc in corpus(args.count, args.seed, hun_kinds_count=args.hun_kinds):
            out.write(json.dumps(doc, ensure_ascii=False) + "\n")
            bar.advance()
    return 0


def cmd_diff(args: argparse.Namespace, out: TextIO) -> int:
    import os
    from rulekit import diff
    from rulekit.progress import Progress
    old, new = diff.spec_for(args.old), diff.spec_for(args.new)
    fh = _open(args.corpus)
    try:
        docs = diff.read_corpus(fh)
    finally:
        if fh is not sys.stdin:
            fh.close()
    jobs = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
    if jobs < 1 or args.top < 0:
        raise UsageError("diff: --jobs must be 1 or more and --top 0 or more")
    with Progress(len(docs), "diff") as bar:
        result = diff.run(old, new, docs, corpus_name="stdin" if args.corpus == "-"
                          else args.corpus, jobs=jobs, top=args.top, progress=bar)
    if args.json:
        _emit(result.to_dict(), out)
    else:
        out.write(diff.text(result))
    return 1 if args.fail_on_change and result.changed else 0


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    try:
        from rulekit.serve.main import run
    except ImportError as err:
        raise UsageError(f"serve: needs the serve extra (pip install \"rulekit[serve]\"): "
                         f"{err}") from None
    return run(args, out)


def cmd_sheet(args: argparse.Namespace, out: TextIO) -> int:
    from rulekit.serve.sheet import sheet_for
    out.write(sheet_for(args.ruleset))
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO], int]] = {
    "score": cmd_score, "waits": cmd_waits, "settle": cmd_settle, "session": cmd_session,
    "validate": cmd_validate, "rulesets": cmd_rulesets, "show": cmd_show, "schema": cmd_schema,
    "test": cmd_test, "corpus": cmd_corpus, "diff": cmd_diff,
    "serve": cmd_serve, "sheet": cmd_sheet,
}


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    try:
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command](args, out)
    except RulesetError as err:
        for line in err.problems:
            sys.stderr.write(f"rulekit: {line}\n")
        return 2
    except RulekitError as err:
        sys.stderr.write(f"rulekit: error: {_one_line(str(err))}\n")
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    except SystemExit as exc:          # --help
        return int(exc.code or 0)
    except Exception as exc:  # noqa: BLE001 - the last guard: no traceback reaches a user
        sys.stderr.write(f"rulekit: internal error: {type(exc).__name__}: "
                         f"{_one_line(str(exc))} (please report this)\n")
        return 3


def _one_line(text: str) -> str:
    return " | ".join(part.strip() for part in text.splitlines() if part.strip())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
