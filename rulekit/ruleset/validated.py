"""The built-in ruleset files as the test suite validated them: their sha256, and the schema's.

`model.load` skips the JSON Schema run (importing jsonschema and validating: about 0.2 s of
a one-shot `rulekit score`) for a chain of built-in files whose bytes are exactly these,
under exactly this schema: the same bytes against the same schema give the same answer, no
problems, which tests/test_builtin_digests.py checks. That test fails, printing the new
values for this file, whenever a built-in or the schema changes without it. A user's file,
a built-in whose bytes differ (edited in place), or text given as a string (`rulekit diff`)
is always validated.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Final

from rulekit import resources

SCHEMA: Final = "cd00c7b69a62c60405e15d2b2080066394315b47e6d92b1d85b2b2c3b40faa8a"
RULESETS: Final[dict[str, str]] = {
    "tianjin-3p.yaml": "7f54965fa5a034be786370195710e2d3c5355469d0239178c2016e7c4821a683",
    "tianjin-dianpao.yaml": "903737410c47d0947f1a19830e3fa60678cffb878fd39dc68f84259a2493ffd2",
    "tianjin-flowers.yaml": "00cf3f87a878a4bb9664daa6a016be6fef07fbd1d3ca618b4593dbc4a7877bc1",
    "tianjin-gold8.yaml": "e8c8547f5f252a8556f981c600108b5e46922de4ebdef879c8d5b7c637caa79a",
    "tianjin-laizi.yaml": "ffd01ec3773c35716e44f50bc8c29ab479afc5d4ef7e16a0f0d2e70a78cce92e",
    "tianjin-street.yaml": "44d3235568a4ba791617f4693bbf9d3e84f3b7dfad495042b9bf7fdf7230a20d",
    "tianjin.yaml": "702b076cdc7f67c9a636e6c727592c44a6a0cdb015c3b62f5e677e14a79d1b98",
}


@lru_cache(maxsize=1)
def schema_digest() -> str:
    """The sha256 of the schema file this process validates against."""
    return hashlib.sha256(_schema_path().read_bytes()).hexdigest()


def _schema_path() -> Path:
    return Path(__file__).resolve().parent.parent / "schema" / "ruleset.schema.json"


def trusted(chain: list[Path], digests: list[bytes]) -> bool:
    """Is every file of `chain` a built-in whose bytes (`digests`, as read) were validated?"""
    if not chain or len(chain) != len(digests):
        return False
    builtins = resources.rulesets_dir().resolve()
    for path, digest in zip(chain, digests):
        if path.resolve().parent != builtins or RULESETS.get(path.name) != digest.hex():
            return False
    return schema_digest() == SCHEMA


def render() -> str:
    """This module's text with the digests of the files as they are now (for the test's
    message: paste it over this file once the new bytes validate)."""
    text = Path(__file__).read_text(encoding="utf-8")
    head, _, rest = text.partition("SCHEMA: Final = ")
    tail = rest[rest.index("\n\n\n"):]
    entries = "".join(
        f'    "{p.name}": "{hashlib.sha256(p.read_bytes()).hexdigest()}",\n'
        for p in sorted(resources.rulesets_dir().glob("*.yaml")))
    return (f'{head}SCHEMA: Final = "{schema_digest()}"\n'
            f"RULESETS: Final[dict[str, str]] = {{\n{entries}}}{tail}")
