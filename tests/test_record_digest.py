"""`record.joined`: a record's canonical text made from its fields' canonical texts (each
field is encoded once for both digests) must be the bytes `canonical` writes for the whole
record, or every digest of every log would change."""
from __future__ import annotations

import hashlib
from typing import Any

from hypothesis import given, strategies as st

from rulekit.game.record import canonical, digest_of, joined

KEYS = st.text(min_size=0, max_size=8)              # any text: quotes, escapes, CJK, emoji
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False,
                                                          allow_infinity=False) | KEYS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=20)


@given(st.dictionaries(KEYS, JSON, max_size=8))
def test_joined_is_canonical(obj: dict[str, Any]) -> None:
    assert joined({k: canonical(v) for k, v in obj.items()}) == canonical(obj)


def test_the_digest_of_a_record_is_pinned() -> None:
    """The whole and per-field digests as `canonical` of each, and the whole one as the
    implementation before `joined` computed it (pinned)."""
    rec = {"hand": 3, "ruleset": "tianjin", "players": ["greedy"] * 4,
           "events": [{"seat": 0, "action": "deal", "tile": None, "rule": "拿牌: 19m"}],
           "digest": {"record": "x"}, "seal": "y"}
    body = {k: v for k, v in rec.items() if k not in ("digest", "seal")}
    got = digest_of(rec)
    assert got["record"] == hashlib.sha256(canonical(body)).hexdigest() \
        == "23b042f84696309ac89aab3ef52457f5c9e39380149eb13111dbec3f31cb5129"
    assert got["fields"] == {k: hashlib.sha256(canonical(v)).hexdigest()
                             for k, v in body.items()}
