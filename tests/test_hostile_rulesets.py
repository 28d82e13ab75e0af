"""Hostile rulesets and patterns: each is refused with one clean error, never run or expanded.

issue 9 items 2 and 3 (ruleset side): no pickle from the shared temp dir, no YAML alias
expansion, bounded depth, size, integers and cost, `extends` kept inside its tree.
"""
from __future__ import annotations

import getpass
import hashlib
import importlib
import io
import os
import pickle
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from lark import Lark, __version__ as lark_version

import rulekit
from rulekit import arrange, casefile, limits, resources
from rulekit.cli import main
from rulekit.dsl.walk import cost
from rulekit.errors import RulesetError
from rulekit.ruleset import resolve
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


# -- hostile ruleset files: each is exit 2 and one stderr line from `rulekit validate` --------

def _bomb() -> str:
    """The 9-line alias bomb: 9**9 leaves (3 GB in 20 s before rulekit refused aliases)."""
    names = "abcdefghi"
    lines = ["a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9]"]
    for prev, cur in zip(names, names[1:]):
        lines.append(f"{cur}: &{cur} [" + ", ".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"


HEAD = "extends: tianjin\nname: hostile\n"
HOSTILE: dict[str, tuple[bytes, str]] = {
    "recursive-anchor": (b"patterns: &p {x: *p}\n", ":1: YAML anchors (&p) are not allowed"),
    "alias": ((HEAD + "win: {minimum: 1}\nheavenly: &h {multiplier: 4}\nchan: *h\n").encode(),
              ":4: YAML anchors (&h) are not allowed"),
    "merge-key": ((HEAD + "heavenly:\n  <<: {multiplier: 4}\n").encode(),
                  ":4: YAML merge keys (<<) are not allowed"),
    "deep-1000": ((HEAD + "chan: " + "[" * 1000 + "]" * 1000 + "\n").encode(),
                  ":3: YAML nested too deeply (more than 32 levels)"),
    "not-x500": ((HEAD + 'patterns:\n  p:\n    name: p\n    when: "' + "not " * 500
                  + 'true"\n').encode(), "nested too deeply (more than 64 levels)"),
    "int-400-digits": ((HEAD + "players: " + "7" * 400 + "\n").encode(),
                       ":3: number too long (400 digits; at most 30)"),
    "hex-key": ((HEAD + "scoring:\n  add:\n    0x1F: 3\n").encode(),
                ":5: YAML 1.1 reads 0x1F as a number (hexadecimal): write a plain decimal "
                "number, or quote it if it is text"),
    "non-utf8": ((HEAD + "description: caf\xe9\n").encode("latin-1"),
                 ":3: not UTF-8 text (byte 0xe9 at offset"),
    "inf": ((HEAD + "win: {minimum: .inf}\n").encode(),
            ":3: win.minimum: must be a finite number"),
    "nan": ((HEAD + "kong_points: {golden: .nan}\n").encode(),
            ":3: kong_points.golden: must be a finite number"),
    "nul-byte": ((HEAD + "name: a\x00b\n").encode(), ":3: YAML: unacceptable character #x0000"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_validate_refuses_a_hostile_ruleset_in_one_line(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    content, expected = HOSTILE[name]
    path = tmp_path / f"{name}.yaml"
    path.write_bytes(content)
    code = main(["validate", str(path)], io.StringIO())
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and err.startswith(f"{path}:")
    assert expected in err
    assert len(err) < 400


def test_the_alias_bomb_is_refused_within_2_gb_and_20_s(tmp_path: Path) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(_bomb(), encoding="utf-8")

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from rulekit.cli import main; "
                               "sys.exit(main(sys.argv[1:]))", "validate", str(path)],
        capture_output=True, text=True, timeout=20, preexec_fn=limit,
        cwd=Path(__file__).resolve().parent.parent)
    assert proc.returncode == 2
    assert proc.stderr == f"{path}:1: YAML anchors (&a) are not allowed in rulesets or case " \
                          "files: write the value out\n"


def test_quoted_keys_and_finite_numbers_still_load(tmp_path: Path) -> None:
    path = tmp_path / "fine.yaml"
    path.write_text(HEAD + "kong_points: {golden: 8.5}\n", encoding="utf-8")
    assert rulekit.load_ruleset(path).kong_points["golden"] == 8.5


# -- extends: kept in its tree, bounded, and never quoting a non-ruleset parent --------------

def _problems(path: Path, **kw: bool) -> list[str]:
    with pytest.raises(RulesetError) as err:
        resolve.resolve(path, **kw)
    return err.value.problems


def test_extends_outside_the_including_directory_needs_permission(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv(resolve.ALLOW_OUTSIDE_ENV, raising=False)
    (tmp_path / "parent.yaml").write_text(HEAD + "win: {minimum: 3}\n", encoding="utf-8")
    sub = tmp_path / "sub"
    sub.mkdir()
    child = sub / "child.yaml"
    child.write_text("extends: ../parent.yaml\nname: child\n", encoding="utf-8")
    assert _problems(child) == [
        f"{child}:1: extends: ../parent.yaml: leaves the directory of {child}; allow it with "
        f"--allow-extends-outside (or {resolve.ALLOW_OUTSIDE_ENV}=1)"]
    data, _, chain = resolve.resolve(child, allow_outside=True)
    assert (data["name"], data["win"]["minimum"], len(chain)) == ("child", 3, 3)
    assert main(["validate", str(child)], io.StringIO()) == 2
    assert main(["--allow-extends-outside", "validate", str(child)], io.StringIO()) == 0
    assert resolve.ALLOW_OUTSIDE_ENV not in os.environ     # the flag does not outlive main()
    capsys.readouterr()


def test_a_permitted_load_is_never_served_from_the_cache_to_one_without_permission(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(resolve.ALLOW_OUTSIDE_ENV, raising=False)
    (tmp_path / "parent.yaml").write_text(HEAD + "win: {minimum: 3}\n", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    child = tmp_path / "sub" / "child.yaml"
    child.write_text("extends: ../parent.yaml\nname: child\n", encoding="utf-8")
    assert rulekit.load_ruleset(child, allow_outside=True).minimum == 3
    with pytest.raises(RulesetError, match="leaves the directory"):
        rulekit.load_ruleset(child)
    monkeypatch.setenv(resolve.ALLOW_OUTSIDE_ENV, "1")
    assert rulekit.load_ruleset(child).minimum == 3


def test_a_parent_inside_the_tree_needs_no_permission(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(resolve.ALLOW_OUTSIDE_ENV, raising=False)
    (tmp_path / "base").mkdir()
    (tmp_path / "base" / "p.yaml").write_text(HEAD + "win: {minimum: 2}\n", encoding="utf-8")
    child = tmp_path / "child.yaml"
    child.write_text("extends: base/p.yaml\nname: c\n", encoding="utf-8")
    assert rulekit.load_ruleset(child).minimum == 2


@pytest.mark.parametrize("target", ["/etc/passwd", "secret.bin", "config.yaml"])
def test_a_non_ruleset_parent_is_one_line_that_quotes_none_of_it(
        target: str, tmp_path: Path) -> None:
    (tmp_path / "secret.bin").write_bytes(b"\x89PNG\r\n\x1a\n hunter2 \xff\xfe")
    (tmp_path / "config.yaml").write_text("password: hunter2\nroot: x:0:0\n", encoding="utf-8")
    child = tmp_path / "child.yaml"
    child.write_text(f"name: c\nextends: {target}\n", encoding="utf-8")
    got = _problems(child, allow_outside=True)
    assert got == [f"{child}:2: extends: {target}: not a ruleset "
                   + ("(its top level has keys a ruleset does not have)" if target == "config.yaml"
                      else "(unreadable, not UTF-8 YAML, or refused)")]
    assert "hunter2" not in got[0] and "x:0:0" not in got[0] and "PNG" not in got[0]


def test_an_extends_chain_is_bounded(tmp_path: Path) -> None:
    for i in range(limits.EXTENDS_DEPTH + 1):
        parent = f"extends: r{i + 1}.yaml\n" if i < limits.EXTENDS_DEPTH else "extends: tianjin\n"
        (tmp_path / f"r{i}.yaml").write_text(parent + f"name: r{i}\n", encoding="utf-8")
    assert _problems(tmp_path / "r0.yaml") == [
        f"{tmp_path / 'r15.yaml'}:1: extends: chain longer than {limits.EXTENDS_DEPTH} files"]
    # one file fewer is fine: 16 files in all, the built-in included
    assert len(resolve.resolve(tmp_path / "r2.yaml")[2]) == limits.EXTENDS_DEPTH


# -- the scoring work budget ------------------------------------------------------------------

FOUR_NESTED = ("some a in hand.tiles: some b in hand.tiles: some c in hand.tiles: "
               "some d in hand.tiles: a == b and b == c and c == d and win.group.shape == run")


def test_four_nested_quantifiers_over_the_hand_are_refused_naming_the_pattern(
        tmp_path: Path) -> None:
    path = tmp_path / "slow.yaml"
    path.write_text(HEAD + f'patterns:\n  slow:\n    name: slow\n    when: "{FOUR_NESTED}"\n'
                    "scoring:\n  add: {slow: 1}\n", encoding="utf-8")
    with pytest.raises(RulesetError) as err:
        rulekit.load_ruleset(path)
    # body 15 steps (three 3-step compares, a 5-step win.group.shape == run, the and); each
    # loop over hand.tiles (2 steps to read, 18 items) costs 3 + 18 * (1 + its body):
    # 291, 5,259, 94,683, then 1,704,315
    assert err.value.problems == [
        f"{path}:6:12: patterns.slow.when: pattern 'slow' too costly: one evaluation may take "
        "1,704,315 steps (at most 100,000); nested loops multiply their lists' sizes "
        "(hand.tiles holds 18)"]


def test_a_pattern_that_reads_the_arrangement_counts_once_per_evaluation(
        tmp_path: Path) -> None:
    # 3,315 steps (two loops over hand.tiles) is within PATTERN_STEPS, but it reads the
    # arrangement: x ARRANGEMENT_EVALS (10,000) per hand is 33M, over HAND_STEPS (10M);
    # tianjin's own patterns add 316 x 10,000 + 19 (their sizes in walk.cost's steps;
    # 素本龍's `hun.fills == hun.held` compares two lists of up to 14 tiles: 13 steps more)
    pats = ('  p0:\n    name: p0\n    when: "some a in hand.tiles: some b in hand.tiles: '
            'a == b and win.group.hun == 0"\n')
    path = tmp_path / "many.yaml"
    path.write_text(HEAD + "patterns:\n" + pats, encoding="utf-8")
    with pytest.raises(RulesetError) as err:
        rulekit.load_ruleset(path)
    assert err.value.problems == [
        f"{path}:6:12: patterns.p0.when: patterns too costly together: one hand may take "
        "36,310,019 steps (at most 10,000,000; a pattern that reads the arrangement counts "
        "10,000 times); the costliest: 'p0' 33,150,000, 'shuang_hun_diao' 1,380,000, "
        "'su_ben_long' 680,000"]


def test_every_builtin_ruleset_is_within_the_budget() -> None:
    for name in resolve.builtin_names():
        rs = rulekit.load_ruleset(name)
        assert rs.patterns, name


@pytest.mark.parametrize("text, steps", [
    ("true", 1),
    ("hand.hun == 0", 4),                                    # compare, attr, name, literal
    ("some s in suits: run(s, 1)", 1 + 1 + 3 * (1 + 3)),     # loop, suits, 3 x (step + call)
    ("count(t in hand.tiles: t == 5m) > 1", 1 + (1 + 2 + 18 * (1 + 3)) + 1),
    ("5m in hand.tiles", 1 + 1 + 2 + 18),                     # a membership scans the list
])
def test_cost_counts_each_node_and_multiplies_loops(text: str, steps: int) -> None:
    assert cost(dsl_parse.parse(text)) == steps


# -- a ruleset that validates does not crash scoring: flower literals -----------------------

def test_a_pattern_naming_a_flower_scores_hands_with_hun(tmp_path: Path) -> None:
    path = tmp_path / "flower.yaml"
    path.write_text('extends: tianjin-flowers\nname: flower\npatterns:\n  yi_hua:\n'
                    '    name: 春\n    when: "1f in hand.flowers"\n'
                    'scoring:\n  add: {yi_hua: 2}\n', encoding="utf-8")
    # three hun (7p 8p 8p under indicator 7p): an all-hun group, whose candidate kinds were
    # read from the patterns' tile literals, 1f (kind 34) among them: IndexError in arrange
    doc = {"hand": "46m 123456s 22z 788p", "win_tile": "5m", "indicator": "7p"}
    plain = rulekit.score(doc, "tianjin-flowers")
    assert rulekit.score(doc, path).total_fan == plain.total_fan == 7
    with_flower = rulekit.score({**doc, "flowers": "1f"}, path)
    assert with_flower.explain == ("(捉5 3 + 春 2) × 雙混吊 2 = 10",)


def test_arrangements_ignore_flower_kinds_for_all_hun_groups() -> None:
    # five hun and nothing else: one all-hun meld and an all-hun pair, over kinds 1m, 1f, 8f
    layout = arrange.Layout((0,) * 34, 5, 1)
    found = {tuple(sorted((g.shape, g.first) for g in arr))
             for arr in arrange.arrangements(layout, lambda: (0, 34, 41))}
    assert found == {((arrange.SET, 0), (arrange.PAIR, 0)),
                     ((arrange.RUN, 0), (arrange.PAIR, 0))}


def test_a_case_file_that_shares_an_expectation_by_alias_is_refused(tmp_path: Path) -> None:
    # `--update` would rewrite an aliased expectation once per case that names it
    hand = "{indicator: 7p, hand: 46m123456789s22z, win_tile: 5m}"
    path = tmp_path / "cases.yaml"
    path.write_text(f"ruleset: tianjin\ncases:\n  - name: a\n    hand: {hand}\n"
                    f"    expect: &e {{win: true, total_fan: 14}}\n  - name: b\n"
                    f"    hand: {hand}\n    expect: *e\n", encoding="utf-8")
    with pytest.raises(casefile.CaseFileError) as err:
        casefile.load_casefile(path)
    assert err.value.problems == [
        f"{casefile.shown_path(path)}:5: YAML anchors (&e) are not allowed in rulesets or case "
        "files: write the value out"]
