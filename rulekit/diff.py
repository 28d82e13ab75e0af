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
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import IO, Any, Iterable, Iterator, Mapping, Sequence

from rulekit import jsonio, limits, workers
from rulekit.errors import RulekitError
from rulekit.money import json_number
from rulekit.progress import Progress
from rulekit.workers import WorkerError as WorkerError      # re-exported for callers
from rulekit.revision import RevisionError as RevisionError      # re-exported for callers
from rulekit.revision import RulesetSpec as RulesetSpec
from rulekit.revision import spec_for as spec_for
from rulekit.ruleset.model import Ruleset
from rulekit.scoring import score_document
from rulekit.settlement import settle_document

CHUNK = 250                      # documents per task: small enough to balance two workers
SETTLE_KEYS = frozenset({"dealer", "winner", "pulls", "kongs", "chan", "dealer_sits", "stake"})


class DiffError(RulekitError):
    """A corpus that cannot be read (a ruleset reference that cannot be found is a
    `RevisionError` or a `RulesetError`)."""


# --- rulesets, wherever they come from --------------------------------------------------------

def _loaded(spec: RulesetSpec) -> Ruleset:
    """Per process: a worker compiles each ruleset once, however many chunks it scores.

    Files go through the API's cache (checked against every file of the `extends` chain, so
    an edited file is read again); a revision's files never change, so it is cached here.
    """
    return spec.load() if spec.text is None else _from_text(spec)


@lru_cache(maxsize=8)
def _from_text(spec: RulesetSpec) -> Ruleset:
    return spec.load()


def shipped(spec: RulesetSpec, rs: Ruleset) -> RulesetSpec:
    """A spec a worker on another machine can load: the merged ruleset as text (JSON is
    YAML), with no `extends` left to resolve and no file of ours to read. Key order is kept:
    the order of `scoring` entries is the order patterns are listed in results."""
    name = f"{Path(spec.path).stem or 'ruleset'}.yaml"
    return RulesetSpec(spec.shown, name, json.dumps(dict(rs.data), ensure_ascii=False),
                       rel=name)


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
        """For ranking: a change of win first, then the largest amount; a document that
        became valid or invalid has no amount and comes after every change of fan or money
        (it is listed in its own group, `error`)."""
        o, n = self.old, self.new
        if o.error is not None or n.error is not None:
            return (-1, 0.0)
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
    features: Counter[str] = field(default_factory=Counter)    # see `exercises`

    def merge(self, other: "_Tally") -> None:
        if other.bad is not None:
            raise DiffError(other.bad)
        self.documents += other.documents
        self.kinds.update(other.kinds)
        self.by_combination.update(other.by_combination)
        self.changed.extend(other.changed)
        self.features.update(other.features)


Task = tuple[RulesetSpec, RulesetSpec, str, tuple[tuple[int, str], ...]]


def _run_chunk(task: Task) -> _Tally:
    """Parse and score one chunk of corpus lines (parsing here keeps the parent light)."""
    old_spec, new_spec, name, lines = task
    old, new = _loaded(old_spec), _loaded(new_spec)
    t = _Tally()
    for line, raw in lines:
        try:    # the loader every document goes through (no NaN, no duplicate key)
            doc = jsonio.read_document(raw.rstrip("\r\n"))
        except jsonio.JsonError as err:
            at = f" at column {err.column}" if err.line == 1 else ""
            t.bad = f"{name}:{line}: {err.message}{at}"
            return t
        if not isinstance(doc, dict):
            t.bad = f"{name}:{line}: expected a hand or settle document (a JSON object)"
            return t
        a, b = evaluate(doc, old), evaluate(doc, new)
        t.documents += 1
        t.features.update(exercises(doc, a.kind))
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


# --- what a corpus cannot see ----------------------------------------------------------------

# Ruleset keys (section, or section.key) that only some documents exercise: the feature a
# corpus needs (see `exercises`) and what the corpus lacks without it.
NEEDS: Mapping[str, tuple[str, str]] = {
    "players": ("settle", "no settle documents"),
    "settlement": ("settle", "no settle documents"),
    "settlement.dealer_on_draw": ("draw", "no settle document of a draw"),
    "settlement.discard_payer": ("discard", "no settle document of a win on a discard"),
    "chan": ("chan", "no settle document with chan: true"),
}
META_KEYS = frozenset({"name", "description", "extends", "$schema"})


def exercises(doc: Mapping[str, Any], kind: str) -> list[str]:
    """What of a ruleset a document can show beyond its hand: the features `NEEDS` names."""
    if kind != "settle":
        return ["hand"]
    out = ["settle"]
    if doc.get("chan") is True:
        out.append("chan")
    if doc.get("winner") is None:
        out.append("draw")
    hand = doc.get("hand")
    if isinstance(hand, Mapping) and hand.get("win_by") == "discard":
        out.append("discard")
    return out


def differing_keys(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """Where two merged rulesets differ: `section.key` for mapping sections, else `section`."""
    out: list[str] = []
    for section in sorted(set(old) | set(new), key=str):
        a, b = old.get(section), new.get(section)
        if section in META_KEYS or a == b:
            continue
        if isinstance(a, Mapping) and isinstance(b, Mapping):
            out += [f"{section}.{k}" for k in sorted(set(a) | set(b), key=str)
                    if a.get(k) != b.get(k)]
        else:
            out.append(str(section))
    return out


def blind_spots(old: Ruleset, new: Ruleset, features: Mapping[str, int]) -> tuple[str, ...]:
    """One warning per missing feature, naming the differing keys the corpus cannot see."""
    unseen: dict[str, list[str]] = {}
    for key in differing_keys(old.data, new.data):
        need = NEEDS.get(key) or NEEDS.get(key.split(".", 1)[0])
        if need is not None and not features.get(need[0]):
            unseen.setdefault(need[1], []).append(key)
    hint = " (`rulekit corpus --settle` writes settle documents)"
    return tuple(f"the rulesets differ in {', '.join(keys)}, which this corpus cannot "
                 f"exercise: it has {lack}{hint if 'settle' in lack else ''}"
                 for lack, keys in unseen.items())


# --- the report -------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Group:
    combination: str                         # under OLD
    documents: int                           # documents with it under OLD
    changed: int
    how: tuple[tuple[str, int], ...]         # (what changed, how many), most common first
    example: DocChange
    new_combination: str = ""                # under NEW, when the patterns changed (a new
                                             # pattern is named here)


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
    warnings: tuple[str, ...] = ()           # differing keys the corpus cannot exercise
    top: int = 10                            # groups and changes the text lists (--top)

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
            "groups": [{"combination": g.combination.split(" "),
                        "new_combination": (g.new_combination or g.combination).split(" "),
                        "documents": g.documents,
                        "changed": g.changed, "how": [{"change": h, "count": n}
                                                      for h, n in g.how],
                        "example": _change_dict(g.example)} for g in self.groups],
            "largest": [_change_dict(c) for c in self.largest],
            "changed_lines": [c.line for c in self.changed],
            "warnings": list(self.warnings),
        }


def _change_dict(c: DocChange) -> dict[str, Any]:
    return {"line": c.line, "id": c.id, "change": c.detail, "old": c.old.to_dict(),
            "new": c.new.to_dict(), "doc": dict(c.doc)}


def report(old: str, new: str, corpus_name: str, tally: _Tally, names: Mapping[str, str],
           top: int = 10, warnings: Sequence[str] = ()) -> DiffReport:
    changed = sorted(tally.changed, key=lambda c: c.line)
    by_group: dict[tuple[str, str], list[DocChange]] = {}
    for c in changed:
        by_group.setdefault(_group_key(c), []).append(c)
    groups = [Group(k, tally.by_combination[k], len(cs), tuple(Counter(c.how for c in cs)
                                                              .most_common()), cs[0], kn)
              for (k, kn), cs in by_group.items()]
    groups.sort(key=lambda g: (-g.changed, g.combination, g.new_combination))
    largest = sorted(changed, key=lambda c: (-c.size[0], -c.size[1], c.line))[:top]
    return DiffReport(old, new, corpus_name, tally.documents, dict(tally.kinds),
                      tuple(changed), tuple(groups), tuple(largest), names,
                      tuple(warnings), top)


def _group_key(c: DocChange) -> tuple[str, str]:
    """A changed document's group: its combination under OLD, and under NEW when that
    differs (so that a pattern only NEW has is named)."""
    old, new = combination(c.old), combination(c.new)
    return old, ("" if new == old or c.new.error is not None else new)


def text(r: DiffReport, examples: bool = True) -> str:
    """The report for people."""
    hands, settles = r.kinds.get("hand", 0), r.kinds.get("settle", 0)
    lines = [f"rulekit diff: {r.old} → {r.new} over {r.corpus}: {r.documents} documents "
             f"({hands} hands, {settles} settle)"]
    if not r.changed:
        lines.append("no change: every document gives the same win and fan"
                     + (" (and payments)" if settles else "") + " under both rulesets")
        lines += [f"warning: {w}" for w in r.warnings]
        return "\n".join(lines) + "\n"
    share = len(r.changed) / r.documents if r.documents else 0.0
    lines.append(f"changed: {len(r.changed)} ({share:.2%}), win changed: {r.win_changed}, "
                 f"unchanged: {r.documents - len(r.changed)}")
    shown = r.groups[:r.top]
    if shown:
        lines.append(f"by pattern combination under {r.old}, → under {r.new} where the "
                     "patterns changed (changed / documents with it):")
    for g in shown:
        how = "; ".join(f"{h} ×{n}" if len(g.how) > 1 else h for h, n in g.how[:3])
        more = f"; {len(g.how) - 3} more kinds" if len(g.how) > 3 else ""
        to = f" → {_combo_name(g.new_combination, r.names)}" if g.new_combination else ""
        lines.append(f"  {g.changed:>6} / {g.documents:<6} "
                     f"{_combo_name(g.combination, r.names)}{to}: {how}{more}")
        if examples:
            lines.append(f"  {'':>15} e.g. {_where(g.example)}: {brief(g.example.doc)}")
    if len(r.groups) > len(shown):
        lines.append(f"  ... and {len(r.groups) - len(shown)} more groups (--top "
                     f"{r.top} shows the largest; --json lists them all)")
    if r.largest:
        lines.append("largest changes:")
    for c in r.largest:
        lines.append(f"  {_where(c)}: {c.detail}  [{brief(c.doc)}]")
    lines += [f"warning: {w}" for w in r.warnings]
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

def read_corpus(lines: Iterable[str | bytes] | IO[bytes], name: str = "corpus"
                ) -> list[tuple[int, str]]:
    """(line number, text) of each non-blank line; the workers parse them.

    A line that is not UTF-8, or is longer than a document may be, stops the run
    (`DiffError`), as does a corpus over `limits.CORPUS_LINES` lines or `CORPUS_BYTES` bytes.
    A binary stream is read at most DOC_BYTES + 1 bytes at a time (`_bounded_lines`), so an
    endless line (`/dev/zero`) costs no more than that before it is refused.
    """
    out = []
    total = 0
    source = _bounded_lines(lines) if hasattr(lines, "readline") else lines
    for n, line in enumerate(source, 1):
        if len(line) > limits.DOC_BYTES:
            raise DiffError(f"{name}:{n}: longer than {limits.DOC_BYTES} bytes, the most a "
                            "document may be")
        total += len(line)
        if n > limits.CORPUS_LINES or total > limits.CORPUS_BYTES:
            raise DiffError(f"{name}:{n}: corpus too large (at most {limits.CORPUS_LINES:,} "
                            f"lines and {limits.CORPUS_BYTES:,} bytes): split it")
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError as err:
                raise DiffError(f"{name}:{n}: not UTF-8 text (byte {err.start})") from None
        if line.strip():
            out.append((n, line))
    return out


def _bounded_lines(fh: Any) -> Iterator[bytes]:
    """The lines of a binary stream, each read with `readline(DOC_BYTES + 1)`: a longer line
    comes out cut at DOC_BYTES + 1 bytes (and `read_corpus` stops there)."""
    while True:
        try:
            raw: bytes = fh.readline(limits.DOC_BYTES + 1)
        except OSError as err:
            raise DiffError(f"cannot read the corpus: {err.strerror}") from None
        if not raw:
            return
        yield raw


def run(old: RulesetSpec, new: RulesetSpec, lines: Sequence[tuple[int, str]],
        *, corpus_name: str = "corpus", jobs: int = 1, top: int = 10,
        progress: Progress | None = None, chunk: int = CHUNK,
        cluster: str | None = None) -> DiffReport:
    """Score every corpus line under both rulesets (in `jobs` processes, or on the Dask
    cluster at `cluster`, `local` for a LocalCluster); build the report.

    A line that is not a JSON object stops the run with a `DiffError` naming it; a worker
    process that dies stops it with a `WorkerError`.
    """
    old_rs, new_rs = _loaded(old), _loaded(new)     # fail here, before any worker starts
    if cluster is not None:                          # workers elsewhere have none of our files
        old, new = shipped(old, old_rs), shipped(new, new_rs)
    tasks = [(old, new, corpus_name, tuple(lines[i:i + chunk]))
             for i in range(0, len(lines), chunk)]
    total = _Tally()
    if cluster is not None:
        from rulekit.cluster import dask_map
        tallies: Iterable[_Tally] = dask_map(_run_chunk, tasks, jobs, cluster)
    elif jobs > 1 and len(tasks) > 1:
        tallies = workers.in_order(_run_chunk, tasks, min(jobs, len(tasks)),
                                   "a diff worker process died (killed, or out of memory); "
                                   "the diff is incomplete", setup=_worker_gc)
    else:
        tallies = (_run_chunk(task) for task in tasks)
    for t in tallies:
        total.merge(t)
        if progress is not None:
            progress.advance(t.documents)
    names = {**new_rs.names, **old_rs.names}
    return report(old.shown, new.shown, corpus_name, total, names, top,
                  blind_spots(old_rs, new_rs, total.features))


