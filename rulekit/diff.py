"""Two rulesets over one corpus: which documents change win or fan, and how.

A rule edit's reach is hard to see from the YAML; scoring a large corpus under the old and
the new ruleset and grouping the changed hands by pattern combination shows it directly
(and `--fail-on-change` turns it into a CI gate). Hand documents are compared by win and
fan, settle documents by payments. The work is split into chunks over worker processes; each
worker loads the two rulesets once.
"""
from __future__ import annotations

import gc
import json
import multiprocessing
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from rulekit import api
from rulekit.errors import RulekitError
from rulekit.money import json_number
from rulekit.progress import Progress
from rulekit.ruleset import resolve
from rulekit.ruleset.model import Ruleset, load_text
from rulekit.scoring import score_document
from rulekit.settlement import settle_document

CHUNK = 250                      # documents per task: small enough to balance two workers
SETTLE_KEYS = frozenset({"dealer", "winner", "pulls", "kongs", "chan", "dealer_sits", "stake"})


class DiffError(RulekitError):
    """A corpus that cannot be read, or a ruleset reference that cannot be found."""


# --- rulesets, wherever they come from --------------------------------------------------------

@dataclass(frozen=True, slots=True)
class RulesetSpec:
    """How any process loads a ruleset: a file on disk, or a file's text at a git revision.

    Compiled rulesets hold functions and do not cross process boundaries; a spec does.
    """

    shown: str
    path: str                    # the file, or where the revision's file sits (for extends)
    text: str | None = None

    def load(self) -> Ruleset:
        if self.text is None:
            return api.load_ruleset(Path(self.path))
        return load_text(self.text, Path(self.path), self.shown)


def spec_for(ref: str, cwd: Path | None = None) -> RulesetSpec:
    """A built-in name, a path, or `REV:path` (e.g. `HEAD:rulesets/x.yaml`, read with git).

    A revision's `extends` parents are read from the working tree, so the diff shows the
    change in that one file.
    """
    cwd = cwd or Path.cwd()
    path = Path(ref) if Path(ref).is_absolute() else cwd / ref
    if path.is_file():
        return RulesetSpec(ref, str(path))
    if ":" in ref and ref not in resolve.builtin_names():
        rev, _, rel = ref.partition(":")
        if rev and rel:
            text = _git(cwd, "show", ref)
            root = Path(_git(cwd, "rev-parse", "--show-toplevel").strip())
            base = cwd if rel.startswith(("./", "../")) else root
            return RulesetSpec(ref, str(base / rel), text)
    return RulesetSpec(ref, str(resolve.locate(ref)))


def _git(cwd: Path, *args: str) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                              check=False)
    except OSError as err:
        raise DiffError(f"git {' '.join(args)}: cannot run git: {err.strerror}") from None
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or ["failed"])[0]
        raise DiffError(f"git {' '.join(args)}: {first}")
    return done.stdout


def _loaded(spec: RulesetSpec) -> Ruleset:
    """Per process: a worker compiles each ruleset once, however many chunks it scores.

    Files go through the API's cache (keyed by modification time, so an edited file is read
    again); a revision's text never changes, so it is cached here.
    """
    return spec.load() if spec.text is None else _from_text(spec)


@lru_cache(maxsize=8)
def _from_text(spec: RulesetSpec) -> Ruleset:
    return spec.load()


# --- one document under one ruleset -----------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Result:
    """What a ruleset made of a document: the values a diff compares, and the patterns."""

    kind: str                                # hand | settle
    error: str | None = None
    win: bool | None = None
    hand_fan: float = 0
    kong_fan: float = 0
    total_fan: float = 0
    patterns: tuple[str, ...] = ()
    payments: tuple[float, ...] = ()

    @property
    def compared(self) -> tuple[Any, ...]:
        if self.kind == "settle":
            return (self.error, self.payments)
        return (self.error, self.win, self.hand_fan, self.kong_fan, self.total_fan)

    def to_dict(self) -> dict[str, Any]:
        if self.error is not None:
            return {"error": self.error}
        if self.kind == "settle":
            return {"payments": list(self.payments), "patterns": list(self.patterns)}
        return {"win": self.win, "hand_fan": self.hand_fan, "kong_fan": self.kong_fan,
                "total_fan": self.total_fan, "patterns": list(self.patterns)}


def kind_of(doc: Mapping[str, Any]) -> str:
    """Settle documents name seats (or carry the hand as an object); hand documents do not."""
    if isinstance(doc.get("hand"), Mapping) or SETTLE_KEYS & doc.keys():
        return "settle"
    return "hand"


def evaluate(doc: Mapping[str, Any], rs: Ruleset) -> Result:
    kind = kind_of(doc)
    try:
        if kind == "hand":
            r = score_document(doc, rs)
            return Result(kind, None, r.win, r.hand_fan, r.kong_fan, r.total_fan, r.patterns)
        s = settle_document(doc, rs)
        pats = s.score.patterns if s.score is not None else ()
        return Result(kind, None, patterns=pats, payments=tuple(map(json_number, s.payments)))
    except RulekitError as err:
        return Result(kind, str(err))


def combination(r: Result) -> str:
    """The group a document falls in: its pattern combination under the old ruleset."""
    if r.error is not None:
        return "error"
    pats = " ".join(r.patterns)
    if r.kind == "settle":
        return f"settle {pats or 'draw'}"
    return pats or "none"


@dataclass(frozen=True, slots=True)
class DocChange:
    line: int
    id: str | None
    doc: Mapping[str, Any]
    old: Result
    new: Result

    @property
    def how(self) -> str:
        """What changed, without the values: documents changed alike share it."""
        return ", ".join(_delta_parts(self.old, self.new, values=False))

    @property
    def detail(self) -> str:
        return ", ".join(_delta_parts(self.old, self.new, values=True))

    @property
    def size(self) -> tuple[int, float]:
        """For ranking: a change of win or validity first, then the largest amount."""
        o, n = self.old, self.new
        if (o.error is None) != (n.error is None):
            return (2, 0.0)
        if o.kind == "settle":
            return (0, max((abs(a - b) for a, b in zip(o.payments, n.payments)), default=0.0))
        return (int(o.win != n.win), abs(n.total_fan - o.total_fan))


def _delta_parts(o: Result, n: Result, values: bool) -> list[str]:
    if o.error is not None or n.error is not None:
        if o.error is not None and n.error is not None:
            return [f"error {o.error!r} → {n.error!r}" if values else "error changed"]
        if o.error is not None:
            return [f"error {o.error!r} → valid" if values else "error → valid"]
        return [f"valid → error {n.error!r}" if values else "valid → error"]
    if o.kind == "settle":
        d = [_signed(b - a) for a, b in zip(o.payments, n.payments)]
        if values:
            return [f"payments {list(o.payments)} → {list(n.payments)}"]
        return [f"payments {'/'.join(d)}"]
    out = []
    if o.win != n.win:
        out.append(f"win {_b(o.win)} → {_b(n.win)}")
    for key in ("hand_fan", "kong_fan", "total_fan"):
        a, b = getattr(o, key), getattr(n, key)
        if a != b:
            out.append(f"{key} {a} → {b}" if values else f"{key} {_signed(b - a)}")
    return out


def _signed(x: float) -> str:
    x = int(x) if float(x).is_integer() else x
    return f"+{x}" if x > 0 else str(x)


def _b(x: bool | None) -> str:
    return "true" if x else "false"


# --- chunks -----------------------------------------------------------------------------------

@dataclass(slots=True)
class _Tally:
    """What a chunk (or the whole run) found; merged in the parent."""

    documents: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    by_combination: Counter[str] = field(default_factory=Counter)
    changed: list[DocChange] = field(default_factory=list)
    bad: str | None = None                   # the first line that is not a document

    def merge(self, other: "_Tally") -> None:
        if other.bad is not None:
            raise DiffError(other.bad)
        self.documents += other.documents
        self.kinds.update(other.kinds)
        self.by_combination.update(other.by_combination)
        self.changed.extend(other.changed)


Task = tuple[RulesetSpec, RulesetSpec, str, tuple[tuple[int, str], ...]]


def _run_chunk(task: Task) -> _Tally:
    """Parse and score one chunk of corpus lines (parsing here keeps the parent light)."""
    old_spec, new_spec, name, lines = task
    old, new = _loaded(old_spec), _loaded(new_spec)
    t = _Tally()
    for line, raw in lines:
        try:
            doc = json.loads(raw)
        except json.JSONDecodeError as err:
            t.bad = f"{name}:{line}: invalid JSON: {err.msg} at column {err.colno}"
            return t
        if not isinstance(doc, dict):
            t.bad = f"{name}:{line}: expected a hand or settle document (a JSON object)"
            return t
        a, b = evaluate(doc, old), evaluate(doc, new)
        t.documents += 1
        t.kinds[a.kind] += 1
        t.by_combination[combination(a)] += 1
        if a.compared != b.compared:
            doc_id = doc.get("id")
            t.changed.append(DocChange(line, None if doc_id is None else str(doc_id), doc, a,
                                       b))
    return t


def _worker_gc() -> None:
    """Worker processes only: what they inherit from the parent is never garbage, and
    scoring allocates many short-lived containers; collecting less often saves ~10% CPU."""
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


# --- the report -------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Group:
    combination: str
    documents: int
    changed: int
    how: tuple[tuple[str, int], ...]         # (what changed, how many), most common first
    example: DocChange


@dataclass(frozen=True, slots=True)
class DiffReport:
    old: str
    new: str
    corpus: str
    documents: int
    kinds: Mapping[str, int]
    changed: tuple[DocChange, ...]           # in corpus order
    groups: tuple[Group, ...]
    largest: tuple[DocChange, ...]
    names: Mapping[str, str]                 # pattern id → name, for people

    @property
    def win_changed(self) -> int:
        return sum(1 for c in self.changed if c.old.win != c.new.win)

    def to_dict(self) -> dict[str, Any]:
        return {
            "old": self.old, "new": self.new, "corpus": self.corpus,
            "documents": self.documents, "hands": self.kinds.get("hand", 0),
            "settles": self.kinds.get("settle", 0),
            "changed": len(self.changed), "unchanged": self.documents - len(self.changed),
            "win_changed": self.win_changed,
            "groups": [{"combination": g.combination.split(" "), "documents": g.documents,
                        "changed": g.changed, "how": [{"change": h, "count": n}
                                                      for h, n in g.how],
                        "example": _change_dict(g.example)} for g in self.groups],
            "largest": [_change_dict(c) for c in self.largest],
            "changed_lines": [c.line for c in self.changed],
        }


def _change_dict(c: DocChange) -> dict[str, Any]:
    return {"line": c.line, "id": c.id, "change": c.detail, "old": c.old.to_dict(),
            "new": c.new.to_dict(), "doc": dict(c.doc)}


def report(old: str, new: str, corpus_name: str, tally: _Tally, names: Mapping[str, str],
           top: int = 10) -> DiffReport:
    changed = sorted(tally.changed, key=lambda c: c.line)
    by_group: dict[str, list[DocChange]] = {}
    for c in changed:
        by_group.setdefault(combination(c.old), []).append(c)
    groups = [Group(k, tally.by_combination[k], len(cs), tuple(Counter(c.how for c in cs)
                                                              .most_common()), cs[0])
              for k, cs in by_group.items()]
    groups.sort(key=lambda g: (-g.changed, g.combination))
    largest = sorted(changed, key=lambda c: (-c.size[0], -c.size[1], c.line))[:top]
    return DiffReport(old, new, corpus_name, tally.documents, dict(tally.kinds),
                      tuple(changed), tuple(groups), tuple(largest), names)


def text(r: DiffReport, examples: bool = True) -> str:
    """The report for people."""
    hands, settles = r.kinds.get("hand", 0), r.kinds.get("settle", 0)
    lines = [f"rulekit diff: {r.old} → {r.new} over {r.corpus}: {r.documents} documents "
             f"({hands} hands, {settles} settle)"]
    if not r.changed:
        lines.append("no change: every document gives the same win and fan"
                     + (" (and payments)" if settles else "") + " under both rulesets")
        return "\n".join(lines) + "\n"
    share = len(r.changed) / r.documents if r.documents else 0.0
    lines.append(f"changed: {len(r.changed)} ({share:.2%}), win changed: {r.win_changed}, "
                 f"unchanged: {r.documents - len(r.changed)}")
    lines.append(f"by pattern combination under {r.old} (changed / documents with it):")
    for g in r.groups:
        how = "; ".join(f"{h} ×{n}" if len(g.how) > 1 else h for h, n in g.how[:3])
        more = f"; {len(g.how) - 3} more kinds" if len(g.how) > 3 else ""
        lines.append(f"  {g.changed:>6} / {g.documents:<6} "
                     f"{_combo_name(g.combination, r.names)}: {how}{more}")
        if examples:
            lines.append(f"  {'':>15} e.g. {_where(g.example)}: {brief(g.example.doc)}")
    lines.append("largest changes:")
    for c in r.largest:
        lines.append(f"  {_where(c)}: {c.detail}  [{brief(c.doc)}]")
    return "\n".join(lines) + "\n"


def _where(c: DocChange) -> str:
    return f"line {c.line}" + (f" ({c.id})" if c.id else "")


def _combo_name(combo: str, names: Mapping[str, str]) -> str:
    if combo in ("error", "none"):
        return combo
    words = combo.split(" ")
    zh = " ".join(names.get(w, w) for w in words if w in names)
    return f"{combo} ({zh})" if zh else combo


def brief(doc: Mapping[str, Any]) -> str:
    """A document in one short line: enough to recognise and re-score it."""
    if kind_of(doc) == "settle":
        hand = doc.get("hand")
        parts = [f"dealer {doc.get('dealer', 0)}", f"winner {doc.get('winner')}"]
        if doc.get("chan"):
            parts.append("鏟")
        if isinstance(hand, Mapping):
            parts.append(brief(hand))
        return "settle: " + ", ".join(parts)
    parts = [f"{doc.get('hand', '')} +{doc.get('win_tile', '')}",
             f"indicator {doc.get('indicator', '')}"]
    for m in doc.get("melds") or ():
        if isinstance(m, Mapping):
            shut = "concealed " if m.get("concealed") else ""
            parts.append(f"{shut}{m.get('kind')} {m.get('tiles')}")
    if doc.get("win_by", "self_draw") != "self_draw":
        parts.append(str(doc.get("win_by")))
    for flag in ("heavenly", "discarded_hun", "earthly", "ready_declared"):
        if doc.get(flag):
            parts.append(flag)
    return ", ".join(parts)


# --- running ----------------------------------------------------------------------------------

def read_corpus(lines: Iterable[str]) -> list[tuple[int, str]]:
    """(line number, text) of each non-blank line; the workers parse them."""
    return [(n, line) for n, line in enumerate(lines, 1) if line.strip()]


def run(old: RulesetSpec, new: RulesetSpec, lines: Sequence[tuple[int, str]],
        *, corpus_name: str = "corpus", jobs: int = 1, top: int = 10,
        progress: Progress | None = None, chunk: int = CHUNK) -> DiffReport:
    """Score every corpus line under both rulesets (in `jobs` processes); build the report.

    A line that is not a JSON object stops the run with a `DiffError` naming it.
    """
    old_rs, new_rs = _loaded(old), _loaded(new)     # fail here, before any worker starts
    tasks = [(old, new, corpus_name, tuple(lines[i:i + chunk]))
             for i in range(0, len(lines), chunk)]
    total = _Tally()
    if jobs > 1 and len(tasks) > 1:
        ctx = multiprocessing.get_context("fork" if "fork" in
                                          multiprocessing.get_all_start_methods() else None)
        with ctx.Pool(min(jobs, len(tasks)), initializer=_worker_gc) as pool:
            for t in pool.imap_unordered(_run_chunk, tasks):
                total.merge(t)
                if progress is not None:
                    progress.advance(t.documents)
    else:
        for task in tasks:
            t = _run_chunk(task)
            total.merge(t)
            if progress is not None:
                progress.advance(t.documents)
    names = {**new_rs.names, **old_rs.names}
    return report(old.shown, new.shown, corpus_name, total, names, top)
