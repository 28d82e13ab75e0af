"""Ruleset references for `rulekit diff`: a built-in name, a path, or a file at a git revision.

`REV:path` reads the file and every file of its `extends` chain from that revision, so that
a diff against HEAD shows every edit since. Git is only ever given a validated commit and
`COMMIT:path` arguments, never anything that could be read as an option.
"""
from __future__ import annotations

import posixpath
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rulekit import api, limits
from rulekit.errors import RulekitError, RulesetError
from rulekit.limits import excerpt
from rulekit.ruleset import resolve, yamlmarks
from rulekit.ruleset.model import Ruleset, load_text


class RevisionError(RulekitError):
    """A `REV:path` that git cannot resolve, or whose `extends` chain cannot be pinned."""


@dataclass(frozen=True, slots=True)
class RulesetSpec:
    """How any process loads a ruleset: a file on disk, or a file's text at a git revision.

    Compiled rulesets hold functions and do not cross process boundaries; a spec does. A
    revision's spec carries the text of every file of its `extends` chain at that revision.
    """

    shown: str
    path: str                    # the file, or where the revision's file sits in the repo
    text: str | None = None
    rel: str = ""                # a revision's file: its path in the repository
    parents: tuple[tuple[str, str], ...] = ()   # (path in the repository, text) at the revision

    def load(self) -> Ruleset:
        if self.text is None:
            return api.load_ruleset(Path(self.path))
        return _load_revision(self)


def _load_revision(spec: RulesetSpec) -> Ruleset:
    """Lay the revision's chain out in a private temporary directory and load it there, so
    that `extends` resolves exactly as it does in the repository; messages name REV:path."""
    assert spec.text is not None
    rel = spec.rel or Path(spec.path).name
    rev = spec.shown.partition(":")[0]
    with tempfile.TemporaryDirectory(prefix="rulekit-rev-") as tmp:
        for name, body in spec.parents:
            target = Path(tmp, name)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(body, encoding="utf-8")
        try:
            return load_text(spec.text, Path(tmp, rel), spec.shown)
        except RulesetError as err:
            raise RulesetError([p.replace(tmp + "/", f"{rev}:") for p in err.problems]) \
                from None


def spec_for(ref: str, cwd: Path | None = None) -> RulesetSpec:
    """A built-in name, a path, or `REV:path` (e.g. `HEAD:rulesets/x.yaml`, read with git).

    A revision's `extends` parents are read from the same revision (a built-in name stays the
    installed built-in).
    """
    cwd = cwd or Path.cwd()
    path = Path(ref) if Path(ref).is_absolute() else cwd / ref
    if path.is_file():
        return RulesetSpec(ref, str(path))
    if ":" in ref and ref not in resolve.builtin_names():
        rev, _, rel = ref.partition(":")
        if rev and rel:
            return _revision_spec(ref, rev, rel, cwd)
    return RulesetSpec(ref, str(resolve.locate(ref)))


def _revision_spec(ref: str, rev: str, rel: str, cwd: Path) -> RulesetSpec:
    commit = _commit(rev, cwd, ref)
    root = Path(_git(cwd, "rev-parse", "--show-toplevel").strip())
    prefix = _git(cwd, "rev-parse", "--show-prefix").strip()
    name = _in_repo(posixpath.join(prefix, rel) if rel.startswith(("./", "../")) else rel,
                    ref)
    text = _blob(cwd, commit, name, ref)
    parents: list[tuple[str, str]] = []
    seen = {name}
    current, body = name, text
    while True:
        parent = _extends_path(body, current, ref)
        if parent is None:
            break
        if parent in seen or len(seen) >= limits.EXTENDS_DEPTH:
            raise RevisionError(f"{ref}: extends: a cycle or a chain longer than "
                            f"{limits.EXTENDS_DEPTH} files at {rev} (at {parent})")
        seen.add(parent)
        body = _blob(cwd, commit, parent, f"{rev}:{parent} (extended by {current})")
        parents.append((parent, body))
        current = parent
    return RulesetSpec(ref, str(root / name), text, name, tuple(parents))


def _commit(rev: str, cwd: Path, ref: str) -> str:
    """The commit a revision names; never lets a revision be read as a git option."""
    if rev.startswith("-") or any(c.isspace() or ord(c) < 32 for c in rev):
        raise RevisionError(f"{excerpt(ref)}: {excerpt(rev)!r} is not a git revision")
    done = _run_git(cwd, "rev-parse", "--verify", "--quiet", "--end-of-options",
                    f"{rev}^{{commit}}")
    commit = done.stdout.decode("ascii", "replace").strip()
    if done.returncode != 0 or not re.fullmatch(r"[0-9a-f]{40,64}", commit):
        inside = _run_git(cwd, "rev-parse", "--is-inside-work-tree")
        if inside.returncode != 0:
            raise RevisionError(f"{excerpt(ref)}: {cwd} is not in a git repository (REV:PATH "
                                "reads PATH as committed at REV; outside a repository name "
                                "the file itself)")
        raise RevisionError(f"{excerpt(ref)}: {excerpt(rev)!r} is not a commit in the git "
                        f"repository at {cwd}")
    return commit


def _in_repo(name: str, ref: str) -> str:
    norm = posixpath.normpath(name)
    if norm.startswith(("../", "/")) or norm in ("..", "."):
        raise RevisionError(f"{excerpt(ref)}: the path leaves the repository")
    return norm


def _blob(cwd: Path, commit: str, name: str, what: str) -> str:
    """The file's text at `commit`: its size is asked first (`git cat-file -s`), and at most
    RULESET_BYTES + 1 bytes are read, so a huge blob costs nothing before it is refused."""
    size = _run_git(cwd, "cat-file", "-s", f"{commit}:{name}")
    if size.returncode != 0 or not size.stdout.strip().isdigit():
        raise RevisionError(f"{excerpt(what)}: no such file at that revision")
    if int(size.stdout) > limits.RULESET_BYTES:
        raise RevisionError(f"{excerpt(what)}: larger than {limits.RULESET_BYTES} bytes")
    raw = _read_git(cwd, limits.RULESET_BYTES + 1, "cat-file", "blob", f"{commit}:{name}")
    if raw is None:
        raise RevisionError(f"{excerpt(what)}: no such file at that revision")
    if len(raw) > limits.RULESET_BYTES:
        raise RevisionError(f"{excerpt(what)}: larger than {limits.RULESET_BYTES} bytes")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RevisionError(f"{excerpt(what)}: not UTF-8 text") from None


def _read_git(cwd: Path, most: int, *args: str) -> bytes | None:
    """At most `most` bytes of a git command's output (None if it fails); the command is
    stopped once that much is read."""
    try:
        proc = subprocess.Popen(["git", *args], cwd=cwd, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL)
    except OSError as err:
        raise RevisionError(f"git {args[0]}: cannot run git: {err.strerror}") from None
    assert proc.stdout is not None
    with proc:
        raw = proc.stdout.read(most)
        if len(raw) >= most:
            proc.kill()
            return raw
        code = proc.wait()
    return raw if code == 0 else None


def _extends_path(text: str, current: str, ref: str) -> str | None:
    """The repository path of the file `text` extends, or None (none, or a built-in)."""
    try:
        _, data = yamlmarks.compose(text, current)
    except RulesetError:
        return None                                   # loading reports it with its line
    parent = data.get("extends") if isinstance(data, dict) else None
    if not isinstance(parent, str) or not parent:
        return None
    looks_like_path = "/" in parent or parent.endswith((".yaml", ".yml")) or "\\" in parent
    if not looks_like_path and parent in resolve.builtin_names():
        return None
    if posixpath.isabs(parent):
        raise RevisionError(f"{excerpt(ref)}: {current} extends an absolute path, which a "
                        "revision cannot pin")
    return _in_repo(posixpath.join(posixpath.dirname(current), parent), ref)


def _run_git(cwd: Path, *args: str) -> "subprocess.CompletedProcess[bytes]":
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except OSError as err:
        raise RevisionError(f"git {args[0]}: cannot run git: {err.strerror}") from None


def _git(cwd: Path, *args: str) -> str:
    done = _run_git(cwd, *args)
    if done.returncode != 0:
        err = done.stderr.decode("utf-8", "replace")
        first = (err.strip().splitlines() or ["failed"])[0]
        raise RevisionError(f"git {' '.join(args)}: {excerpt(first)}")
    return done.stdout.decode("utf-8", "replace")
