"""A ruleset as a printable rule sheet: every pattern with its value and an example hand.

The examples come from the ruleset's golden case file (rulesets/cases/NAME.yaml, or of an
ancestor it extends) and are scored again under the ruleset shown, so the sheet never states
a value the ruleset does not give. Plain HTML with its CSS inline: it prints on its own.
"""
from __future__ import annotations

import html
from pathlib import Path
from typing import Any, Iterable, Mapping

import rulekit
from rulekit import resources
from rulekit.casefile import Case, CaseFileError, load_casefile
from rulekit.errors import RulekitError
from rulekit.ruleset.model import Ruleset
from rulekit.serve.handlers import reason_name
from rulekit.tiles import parse_tiles, tile_name, tile_zh

_CSS = """
body{font-family:system-ui,"Noto Sans CJK SC","WenQuanYi Micro Hei",sans-serif;margin:0;
  color:#1d2a22;background:#fbfaf6}
main{max-width:60rem;margin:auto;padding:1rem}
h1{margin:.2rem 0}.sub{color:#555}
table{border-collapse:collapse;width:100%;margin:1rem 0}
th,td{border-bottom:1px solid #ddd;padding:.45rem;text-align:left;vertical-align:top}
th{background:#eef3ee}
code{font-size:.85em;white-space:pre-wrap;word-break:break-word}
.t{display:inline-block;min-width:1.6em;padding:.1em .15em;margin:1px;border:1px solid #9aa;
  border-radius:4px;background:#fff;text-align:center;font-size:.9em;line-height:1.2}
.t.m{color:#a01818}.t.p{color:#1a4f9c}.t.s{color:#17703a}.t.z{color:#333}.t.win{
  background:#ffe9a8}
.t.pic{border:0;padding:0;background:none;width:1.7em;min-width:0;aspect-ratio:3/4;
  vertical-align:middle}.t.pic svg{width:100%;height:100%;display:block}
.t.pic.win{outline:2px solid #e0b000;border-radius:4px}
.val{font-weight:700;white-space:nowrap}.none{color:#888}
@media print{body{background:#fff}a{color:inherit;text-decoration:none}}
@media (max-width:600px){td,th{padding:.3rem;font-size:.9em}.when{display:none}
  table.patterns tr:first-child{display:none}
  table.patterns tr{display:grid;grid-template-columns:1fr auto;border-bottom:1px solid #ccc}
  table.patterns td{border:0}table.patterns td.ex{grid-column:1/-1}}
"""


def tiles_html(text: str, win: bool = False) -> str:
    """Tile notation as small labelled tiles (五萬 ...); text that is not tiles, escaped."""
    try:
        kinds = parse_tiles(text)
    except RulekitError:
        return html.escape(text)
    cls = " win" if win else ""
    return "".join(f'<span class="t {tile_name(k)[-1]}{cls}" title="{tile_name(k)}">'
                   f"{html.escape(tile_zh(k))}</span>" for k in kinds)


def values(rs: Ruleset) -> dict[str, str]:
    """What each pattern is worth under the ruleset's fan algebra, in words."""
    alg = rs.algebra
    out: dict[str, list[str]] = {}
    if alg.base:
        out.setdefault(alg.base[0], []).append(f"base {_num(alg.base[1])}")
    for pid, v in alg.add:
        out.setdefault(pid, []).append(f"+{_num(v)}")
    for pid, v in alg.multiply:
        out.setdefault(pid, []).append(f"×{_num(v)}")
    for c in alg.combinations:
        together = " + ".join(rs.pattern_name(p) for p in sorted(c.patterns))
        for pid in c.patterns:
            out.setdefault(pid, []).append(f"{together} together: {_num(c.value)}")
    return {pid: ", ".join(v) for pid, v in out.items()}


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def case_files(rs: Ruleset, extra: Iterable[Path] = ()) -> list[Path]:
    """The case files of the ruleset and of each ruleset it extends, nearest first."""
    out = [p for p in extra if p.is_file()]
    for shown in rs.chain:
        p = resources.cases_dir() / f"{Path(shown).stem}.yaml"
        if p.is_file() and p not in out:
            out.append(p)
    return out


def examples(rs: Ruleset, files: Iterable[Path]) -> dict[str, Case]:
    """For each pattern, a hand case that expects it: from the nearest case file that has one,
    and there the case with the fewest other patterns."""
    best: dict[str, Case] = {}
    for path in files:
        try:
            cf = load_casefile(path)
        except CaseFileError:
            continue
        found: dict[str, Case] = {}
        for case in cf.cases:
            expected = case.expect.get("patterns")
            if case.kind != "hand" or not isinstance(expected, list):
                continue
            for pid in expected:
                now = found.get(pid)
                if now is None or len(expected) < len(now.expect.get("patterns", [])):
                    found[pid] = case
        best = {**found, **best}
    return best


def _example(case: Case | None, rs: Ruleset, pid: str) -> str:
    if case is None:
        return '<span class="none">no case</span>'
    doc = case.doc
    try:
        result = rulekit.score(doc, rs)
    except RulekitError as err:
        return f'<span class="none">{html.escape(str(err).splitlines()[0])}</span>'
    melds = " ".join(tiles_html(str(m.get("tiles", ""))) for m in doc.get("melds", [])
                     if isinstance(m, Mapping))
    got = (f"{_num(result.total_fan)} fan" + ("" if pid in result.patterns
                                             else " (scored otherwise here)")
           if result.win else f"no win: {(reason_name(result.reason, rs) or {}).get('en')}")
    return (f"{tiles_html(str(doc.get('hand', '')))} + {tiles_html(str(doc.get('win_tile', '')), True)}"
            f"{' | ' + melds if melds else ''}<br><small>indicator "
            f"{tiles_html(str(doc.get('indicator', '')))} · {html.escape(got)} · "
            f"{html.escape(case.name)}</small>")


def render(rs: Ruleset, name: str, extra_cases: Iterable[Path] = (), served: bool = True) -> str:
    """The whole sheet as one HTML page; `served` (by `rulekit serve`) draws its tiles as the
    calculator's pictures (static/tiles.js), the printed file of `rulekit sheet` keeps them
    as labelled text so that it stands alone."""
    vals = values(rs)
    ex = examples(rs, case_files(rs, extra_cases))
    rows = []
    for p in rs.patterns:
        when = str((rs.data.get("patterns") or {}).get(p.id, {}).get("when", ""))
        val = vals.get(p.id, "no value of its own")
        rows.append(f'<tr id="{html.escape(p.id)}"><td><b>{html.escape(p.name)}</b><br>'
                    f"<small>{html.escape(p.id)}</small></td>"
                    f'<td class="val">{html.escape(val)}</td>'
                    f'<td class="ex">{_example(ex.get(p.id), rs, p.id)}</td>'
                    f'<td class="when"><code>{html.escape(when.strip())}</code></td></tr>')
    return _page(rs, name, "".join(rows), served)


def _facts(rs: Ruleset) -> list[tuple[str, str]]:
    data: Mapping[str, Any] = rs.data
    out = [("players", str(rs.players)), ("hun kinds", str(rs.hun_kinds)),
           ("wins by", ", ".join(sorted(rs.win_by))), ("minimum", _num(rs.minimum)),
           ("kong points", ", ".join(f"{k} {_num(v)}" for k, v in rs.kong_points.items())),
           ("金杠", "allowed" if rs.golden_kong_allowed else "not allowed")]
    out += [(f"forbid: {f.name}", str((data.get("forbid") or {}).get(f.id, {}).get("when", "")))
            for f in rs.forbids]
    out += [(f"instant win: {c.name}", f"{_num(v)} fan") for c, v in rs.instant_wins]
    out += [(f"total: {t.name}", f"×{_num(t.multiply_total)} +{_num(t.add_total)}")
            for t in rs.total_rules]
    return out


SERVED_HEAD = ('<link rel="icon" href="/favicon.ico" type="image/svg+xml">'
                '<script src="/static/tiles.js" defer></script>'
                '<script src="/static/sheet.js" defer></script>')


def _page(rs: Ruleset, name: str, rows: str, served: bool = False) -> str:
    facts = "".join(f"<tr><th>{html.escape(k)}</th><td><code>{html.escape(v)}</code></td></tr>"
                    for k, v in _facts(rs))
    desc = "".join(f"<p>{html.escape(line)}</p>" for line in rs.description.splitlines()
                   if line.strip())
    return (f'<!doctype html><html lang="zh-Hant"><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<title>{html.escape(rs.name)}: rule sheet</title><style>{_CSS}</style>"
            f"{SERVED_HEAD if served else ''}<body><main>"
            f"<h1>{html.escape(rs.name)}</h1><p class=sub>rule sheet of <b>{html.escape(name)}"
            f"</b>, from {html.escape(' ← '.join(rs.chain))}</p>{desc}"
            f"<table class=facts>{facts}</table>"
            f"<h2>Patterns</h2><table class=patterns><tr><th>pattern</th><th>value</th>"
            f"<th>example (scored under this ruleset)</th><th class=when>when</th></tr>{rows}"
            f"</table></main></body></html>\n")


def sheet_for(ref: str) -> str:
    """The sheet of a built-in name or a ruleset file (its cases/NAME.yaml beside it)."""
    rs = rulekit.load_ruleset(ref)
    beside = Path(ref).parent / "cases" / Path(ref).name
    return render(rs, ref, [beside] if Path(ref).is_file() else [], served=False)
