"""The seal of a hand record: an HMAC under the installation's key (rulekit.game.recordkey)
that makes a record authentic where re-playing it cannot (docs/game.md, "Sealed records").

A record's digest (rulekit.game.record) catches an edit only if the editor did not recompute
it, and the re-play proves every move of a built-in seat but only the legality of a `cmd:`
bot's, a person's or a remote bot's. The seal closes that: `mac` is HMAC-SHA256 under the
key of `digest.record`, the SHA-256 of exactly the canonical bytes the digest covers (the
record without `digest` and `seal`), so one HMAC a record, made by the writer's process
(never by a simulate worker or a cluster: the key stays on the machine that writes the log).

`seal_line` appends the seal to a line `simulate.log_line` made, without parsing it again;
`verify` says whether this key sealed the record as it stands.
"""
from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from typing import Any, Mapping

from rulekit.game import record
from rulekit.game.recordkey import RecordKey

ALG = "hmac-sha256"
_DOMAIN = b"rulekit-record-seal/1\n"
_TAIL = ',"digest":{"record":"'


def mac(secret: bytes, record_hash: str) -> str:
    return hmac.new(secret, _DOMAIN + record_hash.encode("ascii"), hashlib.sha256).hexdigest()


def seal_of(record_hash: str, key: RecordKey) -> dict[str, str]:
    """The `seal` field of a record whose `digest.record` is `record_hash`."""
    return {"alg": ALG, "key": key.id, "mac": mac(key.secret, record_hash)}


def seal_line(line: str, key: RecordKey) -> str:
    """`line` (a record as `simulate.log_line` writes it: `digest` last, `record` first in
    it) with `seal` after the digest: the same as sealing the parsed record."""
    at = line.rfind(_TAIL)
    start = at + len(_TAIL)
    record_hash = line[start:start + 64]
    if at < 0 or not line.endswith("}") or len(record_hash) != 64:
        raise ValueError("not a record line with its digest last")
    tail = json.dumps(seal_of(record_hash, key), separators=(",", ":"))
    return f'{line[:-1]},"seal":{tail}}}'


def sealed(rec: Mapping[str, Any], key: RecordKey) -> dict[str, Any]:
    """`rec` (a record with its digest) with its seal."""
    out = {k: v for k, v in rec.items() if k != "seal"}
    out["seal"] = seal_of(rec["digest"]["record"], key)
    return out


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the seal says: `authentic` (this key sealed the record as it is), `edited`
    (this key sealed it, and it changed since), or why it could not be checked
    (`unsealed`, `no_key`, `other_key`) with `why` in words."""

    status: str
    why: str

    @property
    def authentic(self) -> bool:
        return self.status == "authentic"

    @property
    def edited(self) -> bool:
        return self.status == "edited"


def verify(rec: Mapping[str, Any], key: RecordKey | None) -> Verdict:
    """Check `rec`'s seal (its shape already checked by `record.check`) against `key`."""
    s = rec.get("seal")
    if s is None:
        return Verdict("unsealed", "not sealed")
    if key is None:
        return Verdict("no_key", f"sealed with key {s['key']}, and no record key here to "
                       "check it")
    if s["key"] != key.id:
        return Verdict("other_key", f"sealed with key {s['key']}, not this key ({key.id}): "
                       "rotated, or another installation's")
    want = mac(key.secret, record.digest_of(rec)["record"])
    if hmac.compare_digest(want, s["mac"]):
        return Verdict("authentic", f"sealed with this key ({key.id})")
    return Verdict("edited", "seal: its mac does not match the record: the record (its "
                   "digest recomputed, so no field can be named) or the seal was edited "
                   "after this key sealed it")
