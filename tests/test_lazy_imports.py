"""The package imports its public names on first use (rulekit/__init__.py, PEP 562).

`import rulekit.shape` (a bot's or a game engine's win check) must not load the ruleset
loader, YAML, JSON Schema or the DSL compiler; every public name still works as an attribute,
through `from rulekit import ...`, `*`, `dir()` and `help()`. Each check runs in a fresh
interpreter, since this test process has long imported everything.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import rulekit

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ["rulekit.api", "rulekit.ruleset.model", "rulekit.dsl.compile", "yaml", "jsonschema",
         "lark"]


def fresh(code: str) -> str:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
                          check=True, timeout=120)
    return proc.stdout.strip()


def test_import_rulekit_shape_loads_none_of_the_ruleset_machinery() -> None:
    out = fresh("import sys, json, rulekit.shape\n"
                "w = rulekit.shape.is_win([3,1,1,1,1,1,1,1,3] + [0]*25, 1)\n"
                f"print(json.dumps([w, [m for m in {HEAVY!r} if m in sys.modules]]))")
    assert json.loads(out) == [True, []]


def test_every_public_name_resolves_whatever_was_imported_first() -> None:
    # rulekit.cli imports rulekit.api, which imports the submodule rulekit.waits: the name
    # `rulekit.waits` is still the function (its waits as in test_waits_api: 5m, and the
    # hun 7p 8p)
    out = fresh("import rulekit.cli, rulekit, json\n"
                "from rulekit import waits, score\n"
                "doc = {'indicator': '7p', 'hand': '46m123456789s22z'}\n"
                "print(json.dumps([rulekit.waits(doc), waits is rulekit.waits,"
                " score is rulekit.api.score, sorted(set(rulekit.__all__) - set(dir(rulekit)))]))")
    assert json.loads(out) == [["5m", "7p", "8p"], True, True, []]


def test_star_import_and_help_see_every_name() -> None:
    out = fresh("from rulekit import *\nimport rulekit, pydoc, json\n"
                "text = pydoc.render_doc(rulekit, renderer=pydoc.plaintext)\n"
                "print(json.dumps([callable(waits), isinstance(COMPILED, bool),"
                " [n for n in ('score(doc', 'waits(doc', 'class Ruleset', 'class ScoreResult')"
                " if n not in text]]))")
    assert json.loads(out) == [True, True, []]


def test_the_names_are_the_objects_of_their_home_modules() -> None:
    from rulekit import api, errors, hand, scoring
    from rulekit.ruleset import model
    assert (rulekit.score, rulekit.load_ruleset, rulekit.waits) == (api.score, api.load_ruleset,
                                                                    api.waits)
    assert (rulekit.RulekitError, rulekit.Hand, rulekit.Ruleset, rulekit.ScoreResult) == (
        errors.RulekitError, hand.Hand, model.Ruleset, scoring.ScoreResult)
    assert rulekit.COMPILED is not rulekit.scoring.search.__file__.endswith(".py")


SIMULATE_SPARES = ["yaml", "jsonschema", "lark", "importlib.resources", "logging", "difflib",
                   "concurrent.futures.process", "multiprocessing", "rulekit.game.replay",
                   "rulekit.game.recordkey", "rulekit.game.logfile"]


def test_a_one_process_simulate_imports_only_what_it_plays_with() -> None:
    """Its start-up is serial time that `--workers` cannot share (docs/game.md, "Speed"):
    no YAML, schema or grammar for a built-in; no resources machinery, logging, pool, replay
    or record key for a run without `--log` in one process."""
    out = fresh("import sys, io, json\nfrom rulekit.cli import main\n"
                "code = main(['simulate', '--hands', '3'], out=io.StringIO())\n"
                f"print(json.dumps([code, [m for m in {SIMULATE_SPARES!r} if m in sys.modules]]))")
    assert json.loads(out) == [0, []]
