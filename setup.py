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

from setuptools import setup

HOT_PATH = [
    "rulekit/tiles.py",
    "rulekit/hand.py",
    "rulekit/arrange.py",
    "rulekit/facts.py",
    "rulekit/algebra.py",
    "rulekit/dsl/compile.py",
    "rulekit/scoring.py",
    "rulekit/api.py",
    "rulekit/shape.py",
]


def ext_modules() -> list:
    if os.environ.get("RULEKIT_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("rulekit: mypyc not available, installing pure Python", file=sys.stderr)
        return []
    try:
        extensions = mypycify(HOT_PATH, opt_level="3")
    except (Exception, SystemExit) as err:   # mypyc rejected the code: install uncompiled
        print(f"rulekit: not compiled ({err!r}), installing pure Python", file=sys.stderr)
        return []
    for ext in extensions:
        ext.optional = True         # no C compiler: setuptools warns and keeps the .py files
    return extensions


setup(ext_modules=ext_modules())
