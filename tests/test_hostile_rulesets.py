"""Hostile rulesets and patterns: each is refused with one clean error, never run or expanded.

issue 9 items 2 and 3 (ruleset side): no pickle from the shared temp dir, no YAML alias
expansion, bounded depth, size, integers and cost, `extends` kept inside its tree.
"""
from __future__ import annotations

import getpass
import hashlib
import importlib
import pickle
import sys
import tempfile
from pathlib import Path

import pytest
from lark import Lark, __version__ as lark_version
import hashlib

from rulekit import resources
dsl_parse = importlib.import_module("rulekit.dsl.parse")   # the module, not the function
from rulekit.errors import DslError

_OPTIONS = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": True}


class _Plant:
    """Unpickling this opens (creates) the marker file: stands for any code a planter runs."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (str(self.marker), "w"))


def _lark_cache_path(grammar: str) -> Path:
    """The file `Lark(grammar, cache=True, **_OPTIONS)` reads, computed as lark 1.x does."""
    options = {**_OPTIONS, "cache": True}
    options_str = "".join(k + str(v) for k, v in options.items())
    digest = hashlib.sha256((grammar + options_str + lark_version
                            + str(sys.version_info[:2])).encode("utf8")).hexdigest()
    return Path(tempfile.gettempdir()) / (
        f".lark_cache_{getpass.getuser()}_{digest}_{sys.version_info[0]}_{sys.version_info[1]}"
        ".tmp")


def test_a_planted_lark_cache_in_the_temp_dir_is_never_loaded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    grammar = resources.grammar_text("pattern.lark")
    marker = tmp_path / "pwned"
    planted = _lark_cache_path(grammar)
    digest = planted.name.split("_")[3]
    planted.write_bytes(digest.encode() + b"\n" + pickle.dumps(_Plant(marker)))
    dsl_parse._parser.cache_clear()
    try:
        assert dsl_parse.parse("some s in suits: run(s, 1)") is not None
    finally:
        dsl_parse._parser.cache_clear()
    assert not marker.exists()
    # the control: lark's own cache=True does load that very file, so the plant is real
    Lark(grammar, **_OPTIONS, cache=True)      # as rulekit called it before
    assert marker.exists()


@pytest.mark.parametrize("text, message", [
    ("not " * 500 + "true", "nested too deeply (more than 64 levels)"),
    ("1" + "+1" * 1000 + " == 1", "nested too deeply (more than 64 levels)"),
    ("some a in suits: " * 100 + "true", "nested too deeply (more than 64 levels)"),
    ("x" * 5000, "pattern too long (5000 characters; at most 4000)"),
    ("1" * 400 + " == 1", "number too long (400 digits; at most 30)"),
], ids=["not-x500", "plus-x1000", "some-x100", "5000-chars", "400-digits"])
def test_oversized_patterns_are_one_clean_dsl_error(text: str, message: str) -> None:
    with pytest.raises(DslError) as err:
        dsl_parse.parse(text)
    assert message in err.value.message
    assert len(str(err.value)) < 400
