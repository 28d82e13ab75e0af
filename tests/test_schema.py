"""The two ruleset schemas: bounds on values, the overlay schema derived from the full one, and
the `$schema` line of every built-in naming the one that fits its raw YAML."""
from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

import rulekit
from rulekit import limits
from rulekit.cli import main
from rulekit.errors import RulesetError
from rulekit.ruleset.schema import overlay_schema, schema

ROOT = Path(__file__).parent.parent
RULESETS = sorted((ROOT / "rulesets").glob("*.yaml"))
SCHEMA_LINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


def errors(schema_: dict[str, Any], doc: Any) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}"
            for e in jsonschema.Draft202012Validator(schema_).iter_errors(doc)]


def problems(tmp_path: Path, text: str) -> list[str]:
    p = tmp_path / "r.yaml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        rulekit.load_ruleset(p)
    prefix = f"{p}:"
    return [m[len(prefix):] if m.startswith(prefix) else m for m in info.value.problems]


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_every_builtin_names_the_schema_it_validates_against(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    m = SCHEMA_LINE.match(text.splitlines()[0])
    assert m is not None, "first line must name a schema for editors"
    named = (path.parent / m.group(1)).resolve()
    assert named.is_file()
    doc = yaml.safe_load(text)
    # a file with `extends` names the overlay schema, a complete one the full schema
    want = "ruleset-overlay.schema.json" if "extends" in doc else "ruleset.schema.json"
    assert named.name == want
    # the raw document, before extends-merging, as an editor sees it
    assert errors(json.loads(named.read_text(encoding="utf-8")), doc) == []


def test_the_shipped_overlay_file_is_the_derived_schema() -> None:
    shipped = ROOT / "rulekit" / "schema" / "ruleset-overlay.schema.json"
    out = io.StringIO()
    assert main(["schema", "--overlay"], out) == 0
    # regenerate with: rulekit schema --overlay > rulekit/schema/ruleset-overlay.schema.json
    assert shipped.read_text(encoding="utf-8") == out.getvalue()
    assert json.loads(out.getvalue()) == overlay_schema()


def test_overlay_requires_nothing_and_checks_every_key_the_full_schema_knows() -> None:
    full, over = schema(), overlay_schema()
    assert "required" not in json.dumps(
        {k: v for k, v in over.items() if k != "properties"}["$defs"]["pattern"])
    assert errors(over, {}) == []
    assert set(over["properties"]) == set(full["properties"])
    for key, sub in full["properties"].items():
        if isinstance(sub, dict) and "properties" in sub:
            assert set(over["properties"][key]["properties"]) == set(sub["properties"]), key
    # still checked: unknown keys, enums, bounds, the DSL text's length
    assert errors(over, {"extends": "tianjin", "hun": {"kinds": 3}}) == [
        "['hun', 'kinds']: 3 is not one of [1, 2, None]"]
    assert len(errors(over, {"scoring": {"multipy": {"su": 2}}})) == 1
    assert len(errors(over, {"kong_points": {"golden": -1}})) == 1
    assert len(errors(over, {"patterns": {"x": {"when": "a" * 4001}}})) == 1
    # null removes an inherited key; a list's items stay complete (lists replace)
    assert errors(over, {"scoring": {"multiply": {"su": None}},
                         "instant_win": {"ba_hua_qi": None}}) == []
    assert len(errors(over, {"scoring": {"adjust_total": [{"when": "true"}]}})) == 1


def test_every_complete_document_the_full_schema_accepts_the_overlay_accepts() -> None:
    base = yaml.safe_load((ROOT / "rulesets" / "tianjin.yaml").read_text(encoding="utf-8"))
    assert errors(schema(), base) == []
    assert errors(overlay_schema(), base) == []
    # and what the full schema refuses in a value, the overlay refuses too
    bad = dict(base, win={"by": ["self_draw"], "minimum": 20000})
    assert len(errors(schema(), bad)) == len(errors(overlay_schema(), bad)) == 1


def test_authoring_my_table_validates_against_the_overlay_schema() -> None:
    text = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    marker = "# yaml-language-server: $schema=./ruleset-overlay.schema.json\n#\n# My table"
    start = text.index(marker)
    doc = yaml.safe_load(text[start:text.index("```", start)])
    assert doc["extends"] == "tianjin"
    assert errors(overlay_schema(), doc) == []
    assert len(errors(schema(), doc)) > 0      # the full schema would flag it, as issue 9 saw


def test_schema_and_limits_agree_on_the_length_of_a_condition() -> None:
    assert schema()["$defs"]["condition"]["maxLength"] == limits.DSL_CHARS


def test_bounds_on_values_are_reported_with_their_lines(tmp_path: Path) -> None:
    got = problems(tmp_path, "extends: tianjin\nname: b\n"
                   "kong_points: {golden: .inf, exposed: .nan, concealed: -1}\n"
                   "heavenly: {multiplier: 1000}\n"
                   "win: {minimum: 1000000000000000000000000}\n"
                   f"patterns:\n  long: {{name: {'龍' * 65}}}\n"
                   "scoring:\n  multiply: {su: .inf}\n")
    assert got == [
        "3: kong_points.golden: must be a finite number",
        "3: kong_points.exposed: must be a finite number",
        "3: kong_points.concealed: must be at least 0",
        "4: heavenly.multiplier: must be at most 100",
        "5: win.minimum: must be at most 10000",
        "7: patterns.long.name: must be at most 64 characters long",
        "9: scoring.multiply.su: must be a finite number",
    ]


def test_sizes_are_bounded_and_messages_quote_little(tmp_path: Path) -> None:
    many = "".join(f"  p{i}: {{name: P, when: 'true'}}\n" for i in range(129))
    got = problems(tmp_path, f"extends: tianjin\nname: s\npatterns:\n{many}")
    assert got == ["3: patterns: must have at most 128 entries"]
    long_id = "X" * 5000
    got = problems(tmp_path, f"extends: tianjin\nname: s\nscoring:\n  multiply: {{su: {long_id}}}\n")
    assert len(got) == 1 and len(got[0]) < 300, got


def test_number_keys_and_out_of_bounds_references_get_plain_messages(tmp_path: Path) -> None:
    # YAML reads `31:` as a number; a multiplier is a number or a reference, and a number too
    # large is told its bound, not that it might be a reference
    got = problems(tmp_path, "extends: tianjin\nname: k\npatterns:\n"
                   "  31: {name: X, when: 'true'}\n"
                   "scoring:\n  add: {lonk: 2}\n  multiply: {su: 1000}\n")
    assert got == [
        "4: patterns.31: a key here must be text (lower case, digits, _), not a number",
        "6: scoring.add.lonk: pattern 'lonk' is used here but never defined in patterns; "
        "did you mean 'long'?",
        "7: scoring.multiply.su: must be at most 100",
    ]
