"""Which built-in ruleset files a load may take as validated: their sha256 and the schema's.

`model.load` skips the JSON Schema run (importing jsonschema and validating: about 0.2 s of
a one-shot `rulekit score`) for a chain of built-in files whose bytes are exactly those
recorded in `rulekit/builtin_rulesets.json`, under exactly the schema recorded there: the
same bytes against the same schema give the same answer, no problems. The record is the one
`ruleset.prebuilt` serves the files' data from, and its generator refuses a built-in the
schema does not pass, so one command renews both after a built-in or the schema changes
(`python -m rulekit.ruleset.prebuild > rulekit/builtin_rulesets.json`); until then
tests/test_prebuilt.py and tests/test_builtin_digests.py fail and say so. A user's file, a
built-in whose bytes differ (edited in place), or text given as a string (`rulekit diff`)
is always validated.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from rulekit import resources
from rulekit.ruleset import prebuilt, schema


@lru_cache(maxsize=1)
def schema_digest() -> str:
    """The sha256 of the schema file this process validates against."""
    return hashlib.sha256(schema.SCHEMA_FILE.read_bytes()).hexdigest()


def trusted(chain: list[Path], digests: list[bytes]) -> bool:
    """Is every file of `chain` a built-in whose bytes (`digests`, as read) were validated?"""
    if not chain or len(chain) != len(digests):
        return False
    files, schema = prebuilt.digests()
    builtins = resources.rulesets_dir().resolve()
    for path, digest in zip(chain, digests):
        if path.resolve().parent != builtins or files.get(path.name) != digest.hex():
            return False
    return schema_digest() == schema
