"""One loader, one meaning (issue 18, item 5): every YAML rulekit reads (rulesets, case files,
overlays) goes through `ruleset/yamlmarks.py`, which refuses a repeated key and the YAML 1.1
forms that make a surprising value, each as one `file:line: ...` error, never exit 3."""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulekit
from rulekit import resources
from rulekit.casefile import CaseFileError, parse_casefile
from rulekit.cli import main
from rulekit.errors import RulesetError
from rulekit.ruleset import yamlmarks
from conftest import examples

HOSTILE = Path(__file__).parent / "data" / "hostile"
PLAIN = ("write a plain decimal number, or quote it if it is text")

ODDITIES = {
    "duplicate-extends": ":4: duplicate key 'extends' (first at line 2)",
    "duplicate-nested": ":7: duplicate key 'golden' (first at line 5)",
    "base-60": f":4: YAML 1.1 reads 1:0:0.5 as a number (base 60): {PLAIN}",
    "octal": f":4: YAML 1.1 reads 010 as a number (octal): {PLAIN}",
    "hexadecimal": f":4: YAML 1.1 reads 0x4 as a number (hexadecimal): {PLAIN}",
    "binary": f":4: YAML 1.1 reads 0b100 as a number (binary): {PLAIN}",
    "underscore": f":4: YAML 1.1 reads 1_0 as a number (digits grouped by '_'): {PLAIN}",
    "date": ":4: YAML reads 2001-12-14 as a date: quote it if it is text",
    "binary-tag": ":4: YAML tags (!!binary) are not allowed in rulesets or case files",
    "python-tag": ":4: YAML tags (!!python/object/apply:os.system) are not allowed",
    "yes-number": ":4: players: must be one of 3, 4",
    "inf": ":4: win.minimum: must be a finite number",
}


@pytest.mark.parametrize("name", sorted(ODDITIES))
def test_each_yaml_oddity_is_one_line_naming_its_line(
        name: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = HOSTILE / f"yaml-{name}.yaml"
    assert main(["validate", str(path)], io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}{ODDITIES[name]}"), err
    assert err.count("\n") == 1


def test_quoted_forms_of_the_oddities_are_plain_text(tmp_path: Path) -> None:
    path = tmp_path / "quoted.yaml"
    path.write_text("extends: tianjin\nname: quoted\ndescription: '2001-12-14 1:0:0.5 0x4'\n"
                    "win: {minimum: 2}\n", encoding="utf-8")
    rs = rulekit.load_ruleset(path)
    assert rs.data["description"] == "2001-12-14 1:0:0.5 0x4"


def test_a_case_file_refuses_a_duplicate_key(tmp_path: Path) -> None:
    text = ("ruleset: tianjin\ncases:\n  - name: a\n    hand: {indicator: 7p, hand: 46m, "
            "win_tile: 5m}\n    expect: {win: true}\n    expect: {win: false}\n")
    with pytest.raises(CaseFileError) as err:
        parse_casefile(text, tmp_path / "c.yaml", "c.yaml")
    assert err.value.problems == ["c.yaml:6: duplicate key 'expect' (first at line 5)"]


# -- the fuzz: a duplicate key at any depth of a real ruleset, case file or overlay -------------

def _sources() -> dict[str, str]:
    rulesets = resources.rulesets_dir()
    return {"ruleset": (rulesets / "tianjin.yaml").read_text(encoding="utf-8"),
            "cases": (rulesets / "cases" / "tianjin.yaml").read_text(encoding="utf-8"),
            "overlay": (rulesets / "tianjin-flowers.yaml").read_text(encoding="utf-8")}


SOURCES = _sources()


def _block_keys(text: str) -> list[tuple[int, int, str]]:
    """(line index, column, key as written) of every block-mapping key that starts its line."""
    node, _ = yamlmarks.compose(text, "x.yaml")
    out: list[tuple[int, int, str]] = []
    stack = [node]
    lines = text.splitlines()
    while stack:
        n = stack.pop()
        if n.id == "mapping":
            for k, v in n.value:
                line, col = k.start_mark.line, k.start_mark.column
                if not n.flow_style and lines[line][:col].strip() == "":
                    out.append((line, col, text[k.start_mark.index:k.end_mark.index]))
                stack.append(v)
        elif n.id == "sequence":
            stack.extend(n.value)
    return sorted(out)


KEYS = {kind: _block_keys(text) for kind, text in SOURCES.items()}


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(SOURCES)), st.data())
def test_a_duplicate_key_anywhere_is_refused_naming_the_key_and_both_lines(
        kind: str, data: st.DataObject) -> None:
    line, col, key = data.draw(st.sampled_from(KEYS[kind]))
    value = data.draw(st.sampled_from(["0", "x", "{}", "[1]", "true"]))
    lines = SOURCES[kind].splitlines()
    lines.insert(line, " " * col + f"{key}: {value}")
    text = "\n".join(lines) + "\n"
    with pytest.raises(RulesetError) as err:
        yamlmarks.compose(text, f"{kind}.yaml")
    name = key.strip("'\"")
    assert err.value.problems == [
        f"{kind}.yaml:{line + 2}: duplicate key '{name}' (first at line {line + 1})"]


def test_every_loader_meets_the_same_check(tmp_path: Path) -> None:
    """A ruleset file by path and an overlay written to a file: the same line, same words."""
    lines = SOURCES["overlay"].splitlines()
    at = next(i for i, s in enumerate(lines) if s.startswith("name:"))
    lines.insert(at, "name: other")
    path = tmp_path / "overlay.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(RulesetError) as err:
        rulekit.load_ruleset(path)
    assert err.value.problems == [
        f"{path}:{at + 2}: duplicate key 'name' (first at line {at + 1})"]
