"""Built-in rulesets whose bytes the tests validated skip the JSON Schema run at load.

rulekit/builtin_rulesets.json records the sha256 of every built-in file and of the schema
(`python -m rulekit.ruleset.prebuild` writes it, and refuses a built-in the schema does not
pass); `model.load` trusts a chain of built-in files only when each one's bytes, as read, are
the recorded ones, under the recorded schema. These tests are what make that safe: they
validate every built-in against the schema, and fail when a built-in or the schema changes
without the record being renewed.
"""
from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulekit import resources
from rulekit.errors import RulesetError
from rulekit.ruleset import model, prebuild, prebuilt, resolve, schema, validated

ROOT = Path(__file__).resolve().parent.parent
BUILTINS = sorted(resources.rulesets_dir().glob("*.yaml"))
RENEW = "python -m rulekit.ruleset.prebuild > rulekit/builtin_rulesets.json"


def test_the_record_holds_every_builtin_and_the_schema_as_they_are() -> None:
    now = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in BUILTINS}
    assert prebuilt.digests() == (now, validated.schema_digest()), (
        f"a built-in ruleset or the schema changed: once the tests below pass, run {RENEW}")


def test_a_schema_change_alone_stops_the_trust(monkeypatch: pytest.MonkeyPatch) -> None:
    path = resources.rulesets_dir() / "tianjin.yaml"
    digest = hashlib.sha256(path.read_bytes()).digest()
    assert validated.trusted([path], [digest])
    files, _ = prebuilt.digests()
    # the same files, recorded under another schema than the one this process validates with
    monkeypatch.setattr(prebuilt, "digests", lambda: (files, "0" * 64))
    assert not validated.trusted([path], [digest])


def test_the_record_is_not_renewed_for_a_builtin_the_schema_refuses(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(schema, "problems", lambda data, origins, shown: ["line 3: bad"])
    with pytest.raises(ValueError, match="does not pass the schema: line 3: bad"):
        prebuild.generate()


@pytest.mark.parametrize("path", BUILTINS, ids=lambda p: p.stem)
def test_every_builtin_as_recorded_passes_the_schema(path: Path) -> None:
    digests: list[bytes] = []
    data, origins, chain = resolve.resolve(path, digests=digests)
    assert schema.problems(data, origins, path.name) == []
    assert validated.trusted(chain, digests)          # and so load skips the run


def test_a_builtin_loads_without_importing_jsonschema() -> None:
    code = ("import sys; from rulekit import api; rs = api.load_ruleset('tianjin-flowers'); "
            "print(rs.name, 'jsonschema' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
                         check=True, timeout=120).stdout
    assert out.split() == ["tianjin-flowers", "False"]


def test_a_copy_outside_the_builtins_is_validated_even_with_the_same_bytes(
        tmp_path: Path) -> None:
    copy = tmp_path / "tianjin.yaml"
    shutil.copyfile(resources.rulesets_dir() / "tianjin.yaml", copy)
    digest = hashlib.sha256(copy.read_bytes()).digest()
    assert not validated.trusted([copy], [digest])
    assert validated.trusted([resources.rulesets_dir() / "tianjin.yaml"], [digest])
    assert not validated.trusted([resources.rulesets_dir() / "tianjin.yaml"], [b""])
    assert not validated.trusted([], [])


def test_a_builtin_edited_in_place_is_validated(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The built-ins' directory holding other bytes under a recorded name: the schema runs
    and names the problem, as for any file."""
    text = (resources.rulesets_dir() / "tianjin.yaml").read_text(encoding="utf-8")
    edited = text.replace("  minimum: 2 ", "  minimum: two ", 1)
    assert edited != text
    (tmp_path / "tianjin.yaml").write_text(edited, encoding="utf-8")
    monkeypatch.setattr(resources, "rulesets_dir", lambda: tmp_path)
    with pytest.raises(RulesetError) as err:
        model.load("tianjin")
    assert any("win.minimum: " in p and "number" in p for p in err.value.problems), \
        err.value.problems


def test_text_given_as_a_string_is_validated() -> None:
    """`rulekit diff` reads a revision's text: never trusted, whatever its bytes."""
    path = resources.rulesets_dir() / "tianjin.yaml"
    digests: list[bytes] = []
    _, _, chain = resolve.resolve(path, path.read_text(encoding="utf-8"), "HEAD:x",
                                  digests=digests)
    assert digests == [b""] and not validated.trusted(chain, digests)
