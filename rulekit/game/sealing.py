"""The seal of a hand record: an HMAC under the installation's key (rulekit.game.recordkey)
that makes a record authentic where re-playing it cannot (docs/game.md, "Sealed records").

A record's digest (rulekit.game.record) catches an edit only if the editor did not recompute
it, and the re-play proves every move of a built-in seat but only the legality of a `cmd:`
bot's, a person's or a remote bot's. The seal closes that: the seal keeps each field's SHA-256
(as `digest.fields` has it, of exactly the canonical bytes the digest covers, cut to 128
bits) and `mac`, HMAC-SHA256 under the key of those tags and the key's ID. So one HMAC a
record, made by the writer's process (never by a simulate worker or a cluster: the key
stays on the machine that writes the log), and an edit is named by its field even when
the editor recomputed the digest: the tags it is compared with are the sealed ones.

`seal_line` appends the seal to a line `simulate.log_line` made, without parsing it again;
`verify` says whether this key sealed the record as it stands.
"""
from __future__ import annotations

import hmac
import json
from dataclasses import dataclass
from typing import Any, Mapping

from rulekit.game import record
from rulekit.game.recordkey import RecordKey

ALG = "hmac-sha256"
TAG = 32
"""Hex digits of each field's SHA-256 a seal keeps (128 bits: no second value of a field
is found with that tag)."""
_DOMAIN = b"rulekit-record-seal/1\n"
_TAIL = ',"digest":{"record":"'


def mac(secret: bytes, key_id: str, tags: Mapping[str, str]) -> str:
    """HMAC-SHA256 under `secret` of the key's ID and the field tags, canonical JSON."""
    body = record.canonical({"key": key_id, "fields": dict(tags)})
    return hmac.digest(secret, _DOMAIN + body, "sha256").hex()


def seal_of(field_hashes: Mapping[str, str], key: RecordKey) -> dict[str, Any]:
    """The `seal` of a record whose `digest.fields` is `field_hashes`."""
    tags = {k: v[:TAG] for k, v in field_hashes.items()}
    return {"alg": ALG, "key": key.id, "fields": tags, "mac": mac(key.secret, key.id, tags)}


def seal_line(line: str, key: RecordKey) -> str:
    """`line` (a record as `simulate.log_line` writes it: `digest` last) with `seal` after
    the digest: the same as sealing the parsed record; only the digest is parsed."""
    at = line.rfind(_TAIL)
    try:
        if at < 0 or not line.endswith("}"):
            raise ValueError
        digest = json.loads(line[at + len(',"digest":'):-1])
        tail = json.dumps(seal_of(digest["fields"], key), separators=(",", ":"))
    except (ValueError, KeyError, TypeError, AttributeError):
        raise ValueError("not a record line with its digest last") from None
    return f'{line[:-1]},"seal":{tail}}}'


def sealed(rec: Mapping[str, Any], key: RecordKey) -> dict[str, Any]:
    """`rec` (a record with its digest) with its seal, from its fields as they are."""
    out = {k: v for k, v in rec.items() if k != "seal"}
    out["seal"] = seal_of(record.digest_of(rec)["fields"], key)
    return out


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the seal says: `authentic` (this key sealed the record as it is), `edited`
    (this key sealed it, and it changed since), or why it could not be checked
    (`unsealed`, `no_key`, `other_key`) with `why` in words."""

    status: str
    why: str
    field: str | None = None    # what an edit changed (a record field, or the seal)

    @property
    def authentic(self) -> bool:
        return self.status == "authentic"

    @property
    def edited(self) -> bool:
        return self.status == "edited"


def verify(rec: Mapping[str, Any], key: RecordKey | None) -> Verdict:
    """Check `rec`'s seal (its shape already checked by `record.check`) against `key`: the
    mac makes the seal's field tags trusted, and the first field whose hash is not its
    tag is named, whoever recomputed the digest."""
    s = rec.get("seal")
    if s is None:
        return Verdict("unsealed", "not sealed")
    if key is None:
        return Verdict("no_key", f"sealed with key {s['key']}, and no record key here to "
                       "check it")
    if s["key"] != key.id:
        return Verdict("other_key", f"sealed with key {s['key']}, not this key ({key.id}): "
                       "rotated, or another installation's")
    if not hmac.compare_digest(mac(key.secret, key.id, s["fields"]), s["mac"]):
        return Verdict("edited", "seal: its mac does not match its field hashes: the seal "
                       "was edited since this key made it", "seal")
    have = {k: v[:TAG] for k, v in record.digest_of(rec)["fields"].items()}
    for k in list(have) + [k for k in s["fields"] if k not in have]:
        if have.get(k) != s["fields"].get(k):
            what = "missing" if k not in have else \
                "not in the record sealed" if k not in s["fields"] else "changed"
            return Verdict("edited", f"{k}: {what} since this key sealed the record (the "
                           "seal's hash of it differs)", k)
    return Verdict("authentic", f"sealed with this key ({key.id})")
