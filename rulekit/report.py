"""Text for people: a score breakdown, a resolved ruleset. Formatting only."""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any, Mapping, Sequence

from rulekit.ruleset.model import Ruleset
from rulekit.scoring import ScoreResult
from rulekit.settlement import SettleResult

_REASONS = {
    "not_a_winning_shape": "not a winning shape (four melds and a pair)",
    "below_minimum": "below the minimum fan",
}


def score_text(doc: Mapping[str, Any], result: ScoreResult, rs: Ruleset) -> str:
    lines = [f"hand: {doc.get('hand', '')} + {doc.get('win_tile', '')} "
             f"(indicator {doc.get('indicator', '')}, ruleset {rs.name})"]
    if result.arrangement:
        groups = []
        for g in result.arrangement:
            mark = "*" if g.has_win else ""
            hun = f"(混 as {g.hun_as})" if g.hun_as else ""
            kind = "" if not g.declared else (" 暗" if g.concealed and g.shape == "kong"
                                               else " 明" if g.shape != "set" else " 碰")
            groups.append(f"[{g.tiles}{mark}{hun}{kind}]")
        lines.append("arrangement: " + " ".join(groups)
                     + (f"  (winning tile {result.win_tile})" if doc.get("heavenly") else ""))
    if result.pattern_names:
        lines.append("patterns: " + ", ".join(result.pattern_names))
    lines += [f"  {step}" for step in result.explain]
    if result.win:
        lines.append(f"WIN: {result.total_fan} fan (hand {result.hand_fan}, "
                     f"kongs {result.kong_fan})")
    else:
        lines.append(f"NO WIN: {_reason(result.reason or '', rs)}")
    return "\n".join(lines) + "\n"


def ruleset_yaml(rs: Ruleset) -> str:
    """The merged ruleset as YAML; a multi-line text (a `when`) as a `|` block, as written."""
    import yaml         # here: the other reports, and `score`, never need PyYAML

    class Dumper(yaml.SafeDumper):  # type: ignore[misc]
        pass

    def text(dumper: Any, value: str) -> Any:
        clean = all(ln == ln.rstrip() for ln in value.split("\n"))
        if "\n" in value.rstrip("\n") and clean:
            return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
        if value.endswith("\n") and clean:           # a folded (`>`) description
            return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=">")
        return dumper.represent_scalar("tag:yaml.org,2002:str", value)

    Dumper.add_representer(str, text)
    header = f"# {rs.name}: resolved from " + " <- ".join(rs.chain) + "\n"
    body: str = yaml.dump(plain(rs.data), Dumper=Dumper, allow_unicode=True, sort_keys=False,
                          width=100)
    return header + body


def plain(x: Any) -> Any:
    """Mappings and sequences as dicts and lists, for YAML and JSON dumpers."""
    if isinstance(x, Mapping):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    return x


def waits_text(rows: Sequence[Mapping[str, Any]], rs: Ruleset,
               names: Mapping[str, Sequence[str]] | None = None) -> str:
    """One line per waiting tile: its fan and patterns, or why it does not win (a tile below
    the minimum completes the shape but cannot be declared)."""
    if not rows:
        return "no tile completes this hand\n"
    lines = []
    for row in rows:
        pats = ", ".join((names or {}).get(row["tile"], ()))
        if row["win"]:
            lines.append(f"{row['tile']:<3} {_amount(row['fan'])} fan"
                         + (f" ({pats})" if pats else ""))
        else:
            lines.append(f"{row['tile']:<3} no win: {_reason(str(row.get('reason') or ''), rs)}"
                         + (f" ({pats}, {_amount(row['fan'])} fan)" if pats else ""))
    return "\n".join(lines) + "\n"


def settle_text(doc: Mapping[str, Any], result: SettleResult, rs: Ruleset) -> str:
    """Who won, who pays whom and why, each seat's net, and the next dealer."""
    winner = doc.get("winner")
    if result.score is None:
        head = f"draw (ruleset {rs.name})"
    else:
        head = (f"seat {winner} wins {result.score.total_fan} fan "
                f"({', '.join(result.score.pattern_names) or 'no pattern'}; ruleset {rs.name})")
    lines = [head]
    lines += [f"  seat {t.from_seat} pays seat {t.to_seat} {_amount(t.amount)} ({t.why})"
              for t in result.transfers]
    if not result.transfers:
        lines.append("  no payments")
    lines.append("net: " + ", ".join(f"seat {s} {_signed(x)}"
                                     for s, x in enumerate(result.payments)))
    lines.append(f"next dealer: seat {result.next_dealer}")
    return "\n".join(lines) + "\n"


def _reason(reason: str, rs: Ruleset) -> str:
    return _REASONS.get(reason) or next((f.name for f in rs.forbids if f.id == reason), reason)


def _amount(x: object) -> str:
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return str(x)


def _signed(x: object) -> str:
    """A net amount with its sign: +83, -58, 0 (whatever exact number type it comes in)."""
    shown = _amount(x)
    positive = isinstance(x, (int, float, Fraction, Decimal)) and x > 0
    return f"+{shown}" if positive else shown
