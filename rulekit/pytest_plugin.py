"""rulekit's pytest plugin: golden case files as pytest items (docs/regression.md, "In pytest").

Installing rulekit registers it (the `pytest11` entry point), so `pytest rules/` runs a club's
case files where its CI already runs pytest: every case is one item named by the case's name,
and a failing case fails with the line `rulekit test` prints, so `-k`, `-x` and
`--junitxml` work as for any test.

Collected: a YAML file with top-level `ruleset:` and `cases:` lines (a rulekit case file).
Like `rulekit test`, `cases/NAME.yaml` beside `NAME.yaml` runs against that ruleset file;
any other case file against the ruleset its `ruleset:` line names. Nothing else is read, and
nothing of rulekit beyond this module is imported until such a file is met, so the plugin
costs pytest's start-up nothing. `rulekit_cases = false` (ini) or `-p no:rulekit` turns it off
(rulekit's own suite does: it runs its case files through tests/test_casefile.py).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

import pytest

if TYPE_CHECKING:
    from rulekit.casefile import CaseFile
    from rulekit.ruleset.model import Ruleset

HEAD = 64 * 1024                 # bytes read to decide whether a file is a case file
_RULESET = re.compile(rb"^ruleset:[ \t]*\S", re.M)
_CASES = re.compile(rb"^cases:", re.M)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("rulekit_cases", type="bool", default=True,
                  help="collect rulekit case files (ruleset: + cases:) as tests "
                       "(default: true)")


def looks_like_casefile(path: Path) -> bool:
    """A top-level `ruleset:` and `cases:` line in the file's first 64 KiB."""
    if path.suffix not in (".yaml", ".yml"):
        return False
    try:
        with path.open("rb") as fh:
            head = fh.read(HEAD)
    except OSError:
        return False
    return bool(_RULESET.search(head) and _CASES.search(head))


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if not parent.config.getini("rulekit_cases") or not looks_like_casefile(file_path):
        return None
    return CaseFileCollector.from_parent(parent, path=file_path)


class CaseFileError(Exception):
    """A case file or its ruleset that cannot be read: reported as rulekit reports it."""


class CaseFailed(Exception):
    """A case whose result differs from its expectation: the `rulekit test` line."""


class CaseFileCollector(pytest.File):
    """One case file: one item per case, and one for a `ruleset:` naming another file."""

    def collect(self) -> Iterator[pytest.Item]:
        from rulekit import casefile
        try:
            cf = casefile.load_casefile(self.path)
        except casefile.CaseFileError as err:
            raise CaseFileError(str(err)) from None
        under_test = self.path.parent.parent / self.path.name
        self.casefile = cf
        self.under_test = (under_test if self.path.parent.name == "cases"
                           and under_test.is_file() else None)
        self._ruleset: Ruleset | None = None
        self._problem: str | None = None
        if self.under_test is not None:
            other = casefile.other_ruleset(cf, self.under_test)
            if other is not None:
                yield MisnamedItem.from_parent(self, name=f"ruleset: {cf.ruleset}",
                                               message=other)
        else:
            cf.ruleset_path()                  # a `ruleset:` that does not resolve: an error
        for case in cf.cases:
            yield CaseItem.from_parent(self, name=case.name, index=case.index)

    def ruleset(self) -> "Ruleset":
        """The ruleset the cases run against, loaded once; its error fails every case."""
        from rulekit import api
        from rulekit.errors import RulekitError
        if self._problem is not None:
            raise CaseFailed(self._problem)
        if self._ruleset is None:
            cf: CaseFile = self.casefile
            try:
                self._ruleset = api.load_ruleset(self.under_test or cf.ruleset_path())
            except RulekitError as err:
                self._problem = f"FAIL {cf.shown}:{cf.ruleset_line}: ruleset: {err}"
                raise CaseFailed(self._problem) from None
        return self._ruleset

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        if isinstance(excinfo.value, (CaseFileError, CaseFailed)):
            return str(excinfo.value)
        from rulekit.errors import RulekitError
        if isinstance(excinfo.value, RulekitError):
            return f"{self.path}: {excinfo.value}"
        return str(super().repr_failure(excinfo))


class CaseItem(pytest.Item):
    """One case: scored or settled under the ruleset, the expected keys compared."""

    def __init__(self, *, index: int, **kw: Any) -> None:
        super().__init__(**kw)
        self.index = index

    def runtest(self) -> None:
        from rulekit import casefile
        parent = self.parent
        assert isinstance(parent, CaseFileCollector)
        cf = parent.casefile
        case = cf.cases[self.index]
        outcome = casefile.run_case(case, parent.ruleset())
        if not outcome.passed:
            raise CaseFailed(casefile.failure_line(cf, outcome))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        if isinstance(excinfo.value, CaseFailed):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        parent = self.parent
        assert isinstance(parent, CaseFileCollector)
        return self.path, parent.casefile.cases[self.index].line - 1, f"case {self.name}"


class MisnamedItem(pytest.Item):
    """`cases/NAME.yaml` whose `ruleset:` names another file than NAME.yaml beside it."""

    def __init__(self, *, message: str, **kw: Any) -> None:
        super().__init__(**kw)
        self.message = message

    def runtest(self) -> None:
        raise CaseFailed(self.message)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        return str(excinfo.value) if isinstance(excinfo.value, CaseFailed) else \
            str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, self.name
