"""`rulekit simulate --html FILE`: the report as one self-contained page (no outside assets:
inline CSS, inline SVG plots), for a house-rule author to read or pass around.

The plots are hand-made SVG (bars, intervals, session spreads): three small shapes do not
justify a plotting dependency, and the page must open offline with nothing else."""
from __future__ import annotations

from html import escape
from typing import Any, Callable, Collection, Sequence

from rulekit.game import impact
from rulekit.game.stats import num, shown, signed

COLOURS = ("#2f6fb3", "#d9822b", "#3a9a5b")          # first, other, a third series
CSS = """
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:12px;color:#222}
h1{font-size:1.35em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}
.scroll{overflow-x:auto}table{border-collapse:collapse;margin:.4em 0}
td,th{border:1px solid #ddd;padding:3px 7px;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.warning{background:#fff4d6;border-left:4px solid #d9a400;padding:5px 9px;margin:.4em 0}
.reading{font-weight:600}svg{max-width:100%;height:auto;display:block}
.plot{margin:.6em 0 1.2em}code{font-size:.92em;overflow-wrap:anywhere}
@media (max-width:640px){table.stack,table.stack tbody,table.stack tr,table.stack td{display:block}
table.stack thead{display:none}table.stack tr{border:1px solid #ccc;margin:.5em 0;padding:4px}
table.stack td{border:0;padding:2px 4px}table.stack td.n{text-align:left}
table.stack td::before{content:attr(data-label) ": ";font-weight:600;color:#555}}
"""


def page(report: dict[str, Any]) -> str:
    """The whole page for a summary, a versus or an across-players report."""
    if "across_players" in report:
        title = f"{report['first']} against {report['other']}, across players"
        body = _across(report)
    elif "rules_differ" in report:
        title = f"{report['first']} against {report['other']}"
        body = _versus(report)
    else:
        title = f"{report['ruleset']}: {report['hands']} simulated hands"
        body = _summary(report, 2)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{escape(title)}</title><style>{CSS}</style></head><body>"
            f"<h1>{escape(title)}</h1>{body}</body></html>\n")


def _table(tid: str, head: Sequence[str], rows: Sequence[Sequence[str]],
           numeric: Collection[int] = (), stack: bool = False) -> str:
    """A table; cells are already escaped HTML. A `stack` table becomes one card per row on
    a narrow screen, each cell labelled with its column."""
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    num_cls = ' class="n"'
    trs = "".join("<tr>" + "".join(
        f"<td{num_cls if i in numeric else ''} data-label=\"{escape(head[i])}\">{c}</td>"
        for i, c in enumerate(r)) + "</tr>" for r in rows)
    cls = " class=\"stack\"" if stack else ""
    return (f"<div class=\"scroll\"><table id=\"{tid}\"{cls}><thead><tr>{th}</tr></thead>"
            f"<tbody>{trs}</tbody></table></div>")


def _warnings(ws: Sequence[str]) -> str:
    return "".join(f"<p class=\"warning\">warning: {escape(w)}</p>" for w in ws)


def _versus(v: dict[str, Any], pre: str = "") -> str:
    first, other = v["first"], v["other"]
    out = [f"<p>{v['hands']} hands in {v['sessions']} sessions of {v['session_hands']}, the "
           f"same deals under both; players {escape(', '.join(v['players']))}. 95% intervals: "
           "Wilson's for rates, the bootstrap over sessions for differences.</p>",
           f"<p class=\"reading\">{escape(v['reading'][0].upper() + v['reading'][1:])}.</p>",
           "<h2>Rules that differ, and the hands where each fired</h2>", _rules(v, pre)]
    out.append(f"<h2>Effect of {escape(first)} against {escape(other)}</h2>")
    out.append(_table(pre + "effect", ["measure", f"{first} − {other}"], _effect_rows(v), {1}))
    seats = [[f"seat {s} ({escape(p)})", escape(shown(m, sign=True)), escape(shown(c, sign=True))]
             for s, (p, m, c) in enumerate(zip(v["players"], v["money_difference"],
                                                v["money_difference_per_changed_hand"]))]
    out.append("<h2>Money per seat</h2>")
    out.append(_table(pre + "money", ["seat", "per hand", "per hand whose money changed"], seats,
                      {1, 2}, stack=True))
    rows = []
    for key, name in (("first_summary", first), ("other_summary", other)):
        for s, m in enumerate(v[key]["money"]):
            rows.append((f"{name}: seat {s}", m))
    out.append(_plot(pre + "plot-money", "money per seat per hand (fan), with 95% intervals",
                     intervals(rows)))
    out.append(_plot(pre + "plot-fan", "fan of a win: how many wins scored each fan",
                     bars({first: v["first_summary"]["fan"]["distribution"],
                           other: v["other_summary"]["fan"]["distribution"]})))
    spreads = [(f"{n}: seat {s}", sp) for key, n in (("first_summary", first),
                                                     ("other_summary", other))
               for s, sp in enumerate(v[key]["money_per_session"])]
    out.append(_plot(pre + "plot-sessions", f"money per seat per session of {v['session_hands']} "
                     "hands: worst, 5%–95% (box 25%–75%, line the median), best",
                     boxes(spreads)))
    out.append(_patterns(v, pre))
    out.append(f"<h2>{escape(first)} alone</h2>" + _summary(v["first_summary"], 3, pre + "first"))
    out.append(f"<h2>{escape(other)} alone</h2>" + _summary(v["other_summary"], 3, pre + "other"))
    return "".join(out)


def _rules(v: dict[str, Any], pre: str = "") -> str:
    if not v["rules_differ"]:
        return f"<p id=\"{pre}rules\">The rulesets differ in no rule.</p>" + _warnings(v["warnings"])
    rows = [[f"<code>{escape(r['key'])}</code>", escape(r["name"]),
             escape(impact.value_text(r["first"])), escape(impact.value_text(r["other"])),
             str(r["fired_hands"]), escape(r["fired_when"])] for r in v["rules_differ"]]
    head = ["key", "rule", f"under {v['first']}", f"under {v['other']}", "fired in hands",
            "fired means"]
    return _table(pre + "rules", head, rows, {4}, stack=True) + _warnings(v["warnings"])


def _effect_rows(v: dict[str, Any]) -> list[list[str]]:
    rows = [["hands changed (result or play)",
             f"{v['changed_hands']['count']}: {escape(shown(v['changed_hands'], pct=True))}"],
            ["hands whose money changed",
             f"{v['money_changed']['count']}: {escape(shown(v['money_changed'], pct=True))}"]]
    for key, label in (("win_rate_difference", "win rate"),
                       ("draw_rate_difference", "荒莊 rate"),
                       ("hand_length_difference", "hand length (discards)"),
                       ("dealer_edge_difference", "dealer edge per hand")):
        rows.append([escape(label), escape(shown(v[key], sign=True))])
    return rows


def _patterns(v: dict[str, Any], pre: str = "") -> str:
    moved = [(pid, r) for pid, r in v["patterns"].items() if r["value"] or r["low"] or r["high"]]
    if not moved:
        return ""
    rows = [[escape(f"{r['name']} {pid}"), escape(shown(r, sign=True))] for pid, r in moved]
    return ("<h2>Pattern share differences</h2>"
            + _table(pre + "patterns-diff", ["pattern", "share of hands, difference"], rows, {1}))


def _summary(s: dict[str, Any], level: int, tid: str = "summary") -> str:
    h = f"h{level}"
    rates = [[escape(label), escape(shown(s[key], pct=True))] for key, label in (
        ("win_rate", "win rate"), ("draw_rate", "荒莊 (draw) rate"),
        ("dealer_win_rate", "dealer win rate"), ("chan_rate", "鏟 rate"),
        ("golden_kong_rate", "金杠 rate"), ("xiao_xiang_gong_rate", "小相公 rate"))]
    rates += [["mean fan of a win", escape(shown(s["fan"]["mean"]))],
              ["hand length (discards)", escape(shown(s["hand_length"]))],
              ["dealer edge per hand", escape(shown(s["dealer_edge"], sign=True))]]
    out = [_table(f"{tid}-rates", ["measure", "value [95%]"], rates, {1})]
    if s["patterns"]:
        pats = [[escape(f"{r['name']} {pid}"), escape(shown(r, pct=True))]
                for pid, r in s["patterns"].items()]
        out.append(f"<{h}>Patterns (share of hands)</{h}>"
                   + _table(f"{tid}-patterns", ["pattern", "share [95%]"], pats, {1}))
    sess = [[f"seat {i}", *(escape(signed(x, 1)) for x in
                            (sp["worst"], *sp["quantiles"].values(), sp["best"]))]
            for i, sp in enumerate(s["money_per_session"])]
    out.append(f"<{h}>Money per seat per session</{h}>" + _table(
        f"{tid}-sessions", ["seat", "worst", "5%", "25%", "50%", "75%", "95%", "best"], sess,
        frozenset(range(1, 8))))
    if level == 2:
        out.append(_plot("plot-fan", "fan of a win: how many wins scored each fan",
                         bars({s["ruleset"]: s["fan"]["distribution"]})))
        out.append(_plot("plot-money", "money per seat per hand (fan), with 95% intervals",
                         intervals([(f"seat {i}", m) for i, m in enumerate(s["money"])])))
    return "".join(out)


def _across(rep: dict[str, Any]) -> str:
    out = [f"<p class=\"reading\">{escape(rep['reading'][0].upper() + rep['reading'][1:])}."
           "</p>"]
    out.append("<h2>Depends on the players</h2>")
    out.append("<ul id=\"depends\">" + "".join(f"<li>{escape(d)}</li>"
                                               for d in rep["depends_on_players"]) + "</ul>"
               if rep["depends_on_players"] else "<p id=\"depends\">Nothing: every "
               "conclusion below holds under each mix.</p>")
    if rep["holds_across_players"]:
        out.append("<h2>Holds under every mix</h2><ul>" + "".join(
            f"<li>{escape(d)}</li>" for d in rep["holds_across_players"]) + "</ul>")
    out.append(_warnings(rep["warnings"]))
    for i, r in enumerate(rep["across_players"]):
        out.append(f"<h2>Players {escape(', '.join(r['players']))}</h2>"
                   + _versus(r, f"mix{i}-"))
    return "".join(out)


def _plot(pid: str, caption: str, svg: str) -> str:
    return (f"<figure class=\"plot\" id=\"{pid}\">{svg}<figcaption>{escape(caption)}"
            "</figcaption></figure>")


def _svg(width: int, height: int, body: str, label: str) -> str:
    return (f"<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" "
            f"width=\"{width}\" height=\"{height}\" role=\"img\" aria-label=\"{escape(label)}\">"
            f"<title>{escape(label)}</title>{body}</svg>")


def _text(x: float, y: float, s: str, anchor: str = "middle", fill: str = "#222") -> str:
    return (f"<text x=\"{x:.1f}\" y=\"{y:.1f}\" font-size=\"11\" fill=\"{fill}\" "
            f"text-anchor=\"{anchor}\">{escape(s)}</text>")


def bars(series: dict[str, dict[str, int]]) -> str:
    """Grouped bars: one group per fan value, one bar per series, with a legend."""
    keys = sorted({k for d in series.values() for k in d}, key=float)
    if not keys:
        return _svg(300, 40, _text(150, 24, "no wins"), "no wins")
    top = max(max(d.values(), default=0) for d in series.values()) or 1
    n = len(series)
    group = max(24, 12 * n + 8)
    w, h, left, base = max(320, 50 + group * len(keys)), 220, 40, 180
    body = [f"<line x1=\"{left}\" y1=\"{base}\" x2=\"{w - 5}\" y2=\"{base}\" stroke=\"#555\"/>",
            _text(left - 4, 24, str(top), "end"), _text(left - 4, base, "0", "end")]
    for gi, k in enumerate(keys):
        x0 = left + 6 + gi * group
        for si, d in enumerate(series.values()):
            v = d.get(k, 0)
            bh = 160 * v / top
            body.append(f"<rect x=\"{x0 + si * 12}\" y=\"{base - bh:.1f}\" width=\"10\" "
                        f"height=\"{bh:.1f}\" fill=\"{COLOURS[si % 3]}\"><title>"
                        f"{escape(list(series)[si])}: {v} wins of {escape(k)} fan</title></rect>")
        body.append(_text(x0 + 6 * n, base + 14, k))
    body.append(_text(left + (w - left) / 2, base + 32, "fan of the win"))
    body += [_text(left + 10 + i * 150, 12, f"■ {name}", "start", COLOURS[i % 3])
             for i, name in enumerate(series)]
    return _svg(w, h, "".join(body), "fan distribution")


ROWS_WIDTH, ROWS_LEFT, ROWS_RIGHT = 640, 190, 20     # a one-row-per-item chart's frame


def _rows_frame(lows: Sequence[float], highs: Sequence[float], rows: int, row: int,
                digits: int) -> tuple[int, Callable[[float], float], list[str]]:
    """What the one-row-per-item charts share: their height, the value axis from the lowest
    to the highest value (zero always on it), and a dashed line at zero with both ends
    labelled (`digits` as `stats.num` takes them)."""
    lo, hi = min([0.0, *lows]), max([0.0, *highs])
    span = (hi - lo) or 1.0
    h = 30 + row * rows

    def x(v: float) -> float:
        return ROWS_LEFT + (ROWS_WIDTH - ROWS_LEFT - ROWS_RIGHT) * (v - lo) / span

    body = [f"<line x1=\"{x(0):.1f}\" y1=\"4\" x2=\"{x(0):.1f}\" y2=\"{h - 18}\" "
            "stroke=\"#999\" stroke-dasharray=\"3 3\"/>",
            _text(x(lo), h - 4, num(lo, digits)), _text(x(hi), h - 4, num(hi, digits))]
    return h, x, body


def _row_colour(i: int, rows: int) -> str:
    """The first half of the rows (the first ruleset's seats) in one colour, the rest in
    the other's."""
    return COLOURS[0 if i < rows / 2 or rows < 2 else 1]


def intervals(rows: Sequence[tuple[str, dict[str, Any]]]) -> str:
    """One row per item: its value as a dot, its 95% interval as a line, zero marked."""
    row = 22
    h, x, body = _rows_frame([float(r["low"]) for _, r in rows],
                             [float(r["high"]) for _, r in rows], len(rows), row, 3)
    for i, (label, r) in enumerate(rows):
        y = 14 + i * row
        colour = _row_colour(i, len(rows))
        body.append(_text(ROWS_LEFT - 8, y + 4, label, "end"))
        body.append(f"<line x1=\"{x(r['low']):.1f}\" y1=\"{y}\" x2=\"{x(r['high']):.1f}\" "
                    f"y2=\"{y}\" stroke=\"{colour}\" stroke-width=\"2\"/>")
        body.append(f"<circle cx=\"{x(r['value']):.1f}\" cy=\"{y}\" r=\"4\" fill=\"{colour}\">"
                    f"<title>{escape(label)}: {escape(shown(r, sign=True))}</title></circle>")
    return _svg(ROWS_WIDTH, h, "".join(body), "money per seat per hand")


def boxes(rows: Sequence[tuple[str, dict[str, Any]]]) -> str:
    """One row per item: whiskers worst to best, a box 25%–75%, the median, 5%/95% ticks."""
    row = 24
    h, x, body = _rows_frame([float(sp["worst"]) for _, sp in rows],
                             [float(sp["best"]) for _, sp in rows], len(rows), row, 1)
    for i, (label, sp) in enumerate(rows):
        y = 14 + i * row
        q = sp["quantiles"]
        colour = _row_colour(i, len(rows))
        body.append(_text(ROWS_LEFT - 8, y + 4, label, "end"))
        body.append(f"<line x1=\"{x(sp['worst']):.1f}\" y1=\"{y}\" x2=\"{x(sp['best']):.1f}\" "
                    f"y2=\"{y}\" stroke=\"#777\"/>")
        for t in (q["5%"], q["95%"]):
            body.append(f"<line x1=\"{x(t):.1f}\" y1=\"{y - 5}\" x2=\"{x(t):.1f}\" "
                        f"y2=\"{y + 5}\" stroke=\"#777\"/>")
        body.append(f"<rect x=\"{x(q['25%']):.1f}\" y=\"{y - 7}\" "
                    f"width=\"{max(1.0, x(q['75%']) - x(q['25%'])):.1f}\" height=\"14\" "
                    f"fill=\"{colour}\" fill-opacity=\"0.35\" stroke=\"{colour}\"><title>"
                    f"{escape(label)}: worst {num(sp['worst'], 1)}, median "
                    f"{num(q['50%'], 1)}, best {num(sp['best'], 1)}</title></rect>")
        body.append(f"<line x1=\"{x(q['50%']):.1f}\" y1=\"{y - 7}\" x2=\"{x(q['50%']):.1f}\" "
                    f"y2=\"{y + 7}\" stroke=\"{colour}\" stroke-width=\"2\"/>")
    return _svg(ROWS_WIDTH, h, "".join(body), "money per seat per session")
