"""Build hook: compile the scoring hot path with mypyc when possible, else ship it as Python.

Everything else about the package lives in pyproject.toml. The compiled modules are the
ones every score runs through (tiles → hand → arrangements → facts → patterns → fan); they
are plain typed Python, checked by `mypy --strict`, so mypyc turns them into C extensions
without a second implementation to keep in step (docs/design.md, "Compiled hot path").

The compile is optional by design:
- RULEKIT_PURE_PYTHON=1 skips it (use this for editable installs you edit: a compiled
  module shadows its .py source until you rebuild);
- no mypyc, or no C compiler, leaves the same modules as pure Python, only slower.
"""
from __future__ import annotations

import os
import sys
from importlib.util import find_spec

from setuptools import Distribution, setup
from setuptools.command.build_ext import build_ext

HOT_PATH = [
    "rulekit/tiles.py",
    "rulekit/hand.py",
    "rulekit/arrange.py",
    "rulekit/facts.py",
    "rulekit/algebra.py",
    "rulekit/dsl/compile.py",
    "rulekit/dsl/abstract.py",
    "rulekit/codes.py",
    "rulekit/scoring/route.py",
    "rulekit/scoring/keys.py",
    "rulekit/scoring/result.py",
    "rulekit/scoring/plan.py",
    "rulekit/scoring/explain.py",
    "rulekit/scoring/scorer.py",
    "rulekit/scoring/search.py",
    "rulekit/scoring/ready.py",
    "rulekit/scoring/scan.py",
    "rulekit/scoring/pruned.py",
    "rulekit/scoring/places.py",
    "rulekit/scoring/abstract.py",
    "rulekit/scoring/rests.py",
    "rulekit/scoring/holding.py",
    "rulekit/scoring/reach.py",
    "rulekit/scoring/suit_reach.py",
    "rulekit/scoring/score.py",
    "rulekit/shape.py",
    "rulekit/waits.py",
    # the payments: every simulated hand is paid through `settle_document` (issue 22 item 3:
    # ~5% of a greedy hand's time interpreted)
    "rulekit/money.py",
    "rulekit/settlement.py",
    # the game's hot loop (issue 22 item 3): the procedure, what it stands on, greedy's
    # decisions, and the loop that asks them when greedy plays every seat (builtin). Not
    # players.py (`Player` is subclassed by users' classes). table.py and observation.py
    # compiled and passed the tests (Table.act takes `object` for that) but measured no
    # faster (CPU clock, interleaved): players read the observation from Python, where a
    # compiled object's attributes cost more to read than a __dict__'s
    "rulekit/game/actions.py",
    "rulekit/game/wall.py",
    "rulekit/game/state.py",
    "rulekit/game/documents.py",
    "rulekit/game/procedure.py",
    "rulekit/game/greedy.py",
    "rulekit/game/builtin.py",
    "rulekit/game/templates.py",
]
# rulekit/api.py stays Python on purpose: the public functions keep their docstrings and
# signatures (`help(rulekit.score)`), which mypyc-compiled functions lose; it only forwards
# to the compiled modules, so keeping it uncompiled costs nothing measurable.


def _wants_compile() -> bool:
    return not os.environ.get("RULEKIT_PURE_PYTHON") and find_spec("mypyc") is not None


def ext_modules() -> list:
    """mypyc's extensions for HOT_PATH; [] (pure Python) if mypyc is missing or refuses."""
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("rulekit: mypyc not available, installing pure Python", file=sys.stderr)
        return []
    # pip shows a build's output only with -v, so say it where it shows and where it is logged
    print(f"rulekit: compiling the scoring hot path ({len(HOT_PATH)} modules) with mypyc; "
          "this takes several minutes on 2 cores (RULEKIT_PURE_PYTHON=1 skips it and "
          "installs the same code as pure Python)", file=sys.stderr, flush=True)
    try:
        extensions = mypycify(HOT_PATH, opt_level="3")
    except (Exception, SystemExit) as err:   # mypyc rejected the code: install uncompiled
        print(f"rulekit: not compiled ({err!r}), installing pure Python", file=sys.stderr)
        return []
    for ext in extensions:
        ext.optional = True         # no C compiler: setuptools warns and keeps the .py files
    return extensions


# commands that only write metadata or a source archive: they look at build_ext (for its
# source list) but never compile
METADATA_ONLY = {"egg_info", "dist_info", "sdist", "check"}


class MypycBuildExt(build_ext):
    """Runs mypyc once, in the command that really builds the extensions.

    setuptools' PEP 517 backend runs this file once per hook (requirements, metadata, wheel),
    and the metadata hooks finalize build_ext too; calling `mypycify` at import, or for every
    finalize, type-checked and generated the C three times per `pip install`.
    """

    def finalize_options(self) -> None:
        if self.distribution.ext_modules is None:
            building = _wants_compile() and set(self.distribution.commands) - METADATA_ONLY
            self.distribution.ext_modules = ext_modules() if building else []
        super().finalize_options()


class RulekitDistribution(Distribution):
    """A platform wheel (its extensions are decided late, in build_ext) unless pure."""

    def has_ext_modules(self) -> bool:
        return _wants_compile() if self.ext_modules is None else bool(self.ext_modules)


setup(distclass=RulekitDistribution, cmdclass={"build_ext": MypycBuildExt})
