"""POST /v1/impact: "what does this change?" for a pasted overlay (rulekit/serve/impact.py):
the rule diff, a corpus diff and a short simulation, bounded in count and in time."""
from __future__ import annotations

from typing import Any

from rulekit.serve import impact
from serve.serve_helpers import make_client

OVERLAY = "extends: tianjin\nname: hd3\nscoring: {multiply: {hun_diao: 3}}\n"


def test_an_overlay_against_the_default() -> None:
    client = make_client(seconds=600.0)         # room enough that the count, not time, stops
    r = client.post("/v1/impact", json={"ruleset_yaml": OVERLAY, "hands": 32,
                                        "documents": 100, "html": True})
    assert r.status_code == 200, r.text
    got = r.json()
    assert (got["first"], got["other"]) == ("hd3", "tianjin")
    assert got["reading"].startswith("differences read FIRST − OTHER: hd3 minus tianjin")
    [rule] = got["rules_differ"]
    assert (rule["key"], rule["name"], rule["first"], rule["other"]) == \
        ("scoring.multiply.hun_diao", "翻倍 混吊", 3, 2)
    assert rule["fired_hands"] > 0 and got["warnings"] == []
    assert got["bounded"]["hands_played"] == 32 and got["simulation"]["hands"] == 32
    corpus = got["corpus"]
    assert corpus["documents"] == 100 and corpus["changed"] > 0
    assert all("hand_fan" in c["change"] for c in corpus["largest"])
    assert got["html"].startswith("<!DOCTYPE html>") and 'id="rules"' in got["html"]


def test_sizes_are_bounded_and_checked() -> None:
    client = make_client()
    r = client.post("/v1/impact", json={"ruleset_yaml": OVERLAY, "hands": 10 ** 6})
    assert r.status_code == 400 and r.json()["error"]["field"] == "hands"
    r = client.post("/v1/impact", json={"ruleset_yaml": OVERLAY, "versus": "tianjin-3p"})
    assert r.status_code == 422 and r.json()["error"]["field"] == "versus"
    r = client.post("/v1/impact", json={"ruleset_yaml": OVERLAY, "versus": "../x"})
    assert r.status_code == 400


class Clock:
    """A clock that moves a second each time it is read: every deadline passes at once."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_the_deadline_stops_both_parts_and_says_so() -> None:
    from serve.serve_helpers import make_client as _mk
    reg = _mk().app.state.registry           # type: ignore[attr-defined]
    got: dict[str, Any] = impact.impact(reg, {"ruleset_yaml": OVERLAY, "hands": 64,
                                              "documents": 100}, seconds=5.0, clock=Clock())
    assert got["bounded"]["hands_played"] < 64 and got["corpus"]["documents"] < 100
    assert any("the time limit stopped the simulation" in w for w in got["warnings"])
