"""Built-in rulesets load from rulekit/builtin_rulesets.json: no PyYAML, no lark (prebuilt.py).

The file is generated from the repository's rulesets; these tests fail when it is stale, check
that what it gives is exactly what YAML and lark give, and that anything but a built-in's
recorded bytes still goes through YAML, lark and the schema.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulekit import api, resources
from rulekit.ruleset import model, prebuild, prebuilt, resolve, yamlmarks

ROOT = Path(__file__).resolve().parent.parent
BUILTINS = sorted(resources.rulesets_dir().glob("*.yaml"))
dsl_parse = importlib.import_module("rulekit.dsl.parse")   # the module, not the function


def test_the_shipped_file_is_what_the_ruleset_files_give_now() -> None:
    assert prebuilt.FILE.read_text(encoding="utf-8") == prebuild.generate(), (
        "a built-in ruleset changed: regenerate the file with\n"
        "    python -m rulekit.ruleset.prebuild > rulekit/builtin_rulesets.json")


def test_every_tree_is_the_one_lark_parses() -> None:
    trees = prebuilt.trees()
    assert len(trees) >= 20           # every built-in pattern text; tianjin.yaml alone has 15
    for text, tree in trees.items():
        assert tree == dsl_parse.parse(text), text    # frozen values: every field, every pos


@pytest.mark.parametrize("path", BUILTINS, ids=lambda p: p.stem)
def test_a_builtin_layer_is_what_yaml_gives_its_bytes(path: Path) -> None:
    raw = path.read_bytes()
    name = resolve.display_name(path)
    got = prebuilt.layer(path, hashlib.sha256(raw).digest(), name)
    assert got is not None
    data, origins = yamlmarks.load(raw.decode("utf-8"), name)
    assert prebuild.same(got[0], data)                    # same types too: 1 is not 1.0
    assert list(got[1].items()) == list(origins.items())   # every key's file:line:col, in order


def test_other_bytes_or_another_place_get_nothing(tmp_path: Path) -> None:
    path = resources.rulesets_dir() / "tianjin.yaml"
    raw = path.read_bytes()
    assert prebuilt.layer(path, hashlib.sha256(raw + b"\n").digest(), "x") is None
    copy = tmp_path / "tianjin.yaml"
    shutil.copyfile(path, copy)
    assert prebuilt.layer(copy, hashlib.sha256(raw).digest(), "x") is None


def test_a_fresh_layer_each_time() -> None:
    path = resources.rulesets_dir() / "tianjin.yaml"
    digest = hashlib.sha256(path.read_bytes()).digest()
    first, second = prebuilt.layer(path, digest, "x"), prebuilt.layer(path, digest, "x")
    assert first is not None and second is not None
    first[0]["patterns"].clear()          # a caller merging into what it got
    assert second[0]["patterns"]


HANDS = [  # three from `rulekit corpus --seed 1`, and pairs with the hun 7p as winning tile
    {"indicator": "5m", "hand": "1235678m77778s1z", "win_tile": "9m", "win_by": "self_draw"},
    {"indicator": "6p", "hand": "99m24p345555s", "win_tile": "7p", "win_by": "kong_draw",
     "melds": [{"kind": "kong", "tiles": "1111m", "concealed": False}]},
    {"indicator": "6p", "hand": "77788m3457p1119s", "win_tile": "9s", "win_by": "self_draw"},
    {"indicator": "6p", "hand": "1122m3344p5566s7p", "win_tile": "7p", "win_by": "self_draw"},
]


@pytest.mark.parametrize("path", BUILTINS, ids=lambda p: p.stem)
def test_a_builtin_loads_the_same_ruleset_either_way(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    fast = model.load(path)                                  # prebuilt: no YAML, no lark
    slow = model.load_text(text, path, resolve.display_name(path))   # text: YAML and lark
    assert dict(fast.data) == dict(slow.data)
    assert [(p.id, p.name, p.dep, p.tiles, p.ranks) for p in fast.patterns] == \
        [(p.id, p.name, p.dep, p.tiles, p.ranks) for p in slow.patterns]
    for doc in HANDS:
        assert api.score(doc, fast).to_dict() == api.score(doc, slow).to_dict()


DAMAGED = [
    "",                                              # emptied
    None,                                            # truncated mid-way (filled in below)
    "[1, 2]",                                        # not an object
    '{"files": {"tianjin.yaml": {"sha256": 5}}, "trees": []}',
    '{"files": [], "schema": {}, "trees": {"x": {"node": "Num"}}}',
]


@pytest.mark.parametrize("case", range(len(DAMAGED)))
def test_a_damaged_record_is_taken_as_absent(case: int, monkeypatch: pytest.MonkeyPatch
                                             ) -> None:
    """A record cut short or edited (a broken install, another version's file) costs the
    shortcut, not the load: every file is read and parsed as if nothing were shipped."""
    good = prebuilt._text()
    text = DAMAGED[case] if DAMAGED[case] is not None else good[:len(good) // 2]
    path = resources.rulesets_dir() / "tianjin.yaml"
    want = model.load_text(path.read_text(encoding="utf-8"), path, resolve.display_name(path))
    monkeypatch.setattr(prebuilt, "_text", lambda: text)
    prebuilt.digests.cache_clear()
    prebuilt.trees.cache_clear()
    try:
        assert prebuilt.layer(path, hashlib.sha256(path.read_bytes()).digest(),
                              "tianjin") is None
        assert prebuilt.trees() == {} and prebuilt.digests() == ({}, "")
        got = model.load(path)
        assert dict(got.data) == dict(want.data)
        assert api.score(HANDS[0], got).to_dict() == api.score(HANDS[0], want).to_dict()
    finally:
        prebuilt.digests.cache_clear()
        prebuilt.trees.cache_clear()


def _fresh(code: str) -> Any:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
                         check=True, timeout=120).stdout
    return json.loads(out)


def test_loading_and_scoring_builtins_imports_neither_yaml_nor_lark() -> None:
    names = [p.stem for p in BUILTINS]
    assert _fresh(
        "import sys, json; from rulekit import api\n"
        f"for n in {names!r}: api.score({HANDS[0]!r}, api.load_ruleset(n))\n"
        "print(json.dumps([m for m in ('yaml', 'lark', 'jsonschema') if m in sys.modules]))"
    ) == []


def test_a_users_ruleset_goes_through_yaml_lark_and_the_schema(tmp_path: Path) -> None:
    mine = tmp_path / "mine.yaml"
    mine.write_text("extends: tianjin\nname: mine\n", encoding="utf-8")
    copy = tmp_path / "copy.yaml"
    shutil.copyfile(resources.rulesets_dir() / "tianjin.yaml", copy)
    for path in (mine, copy):
        assert _fresh(
            "import sys, json; from rulekit import api\n"
            f"rs = api.load_ruleset({str(path)!r})\n"
            "print(json.dumps([rs.name] + [m for m in ('yaml', 'lark', 'jsonschema')"
            " if m in sys.modules]))"
        )[1:] == ["yaml", "lark", "jsonschema"]


def test_a_users_pattern_with_a_builtins_text_is_still_parsed(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    parsed: list[str] = []
    real = dsl_parse.parse

    def counting(text: str, source: str = "<dsl>") -> Any:
        parsed.append(text)
        return real(text, source)

    monkeypatch.setattr("rulekit.dsl.compile.parse", counting)
    mine = tmp_path / "mine.yaml"
    mine.write_text("extends: tianjin\nname: mine\n", encoding="utf-8")
    rs = api.load_ruleset(mine)
    assert rs.name == "mine"
    assert len(parsed) == len(rs.patterns) + len(rs.forbids) + len(rs.instant_wins) + \
        len(rs.total_rules) and set(parsed) <= set(prebuilt.trees())
    parsed.clear()
    api.load_ruleset(resources.rulesets_dir() / "tianjin-gold8.yaml")
    assert parsed == []
