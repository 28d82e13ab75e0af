"""Cheap hands are scored on the event loop (serve/cheap.py): the same answers as the
scoring threads give, and only for the hands, rulesets and bodies whose worst case is known
small; everything else still goes to the threads or the overlay workers."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Iterator

import pytest
from starlette.testclient import TestClient

import rulekit
from rulekit.corpus import random_hand
from rulekit.hand import parse_hand
from rulekit.ruleset import resolve
from rulekit.serve import cheap, handlers
from rulekit.serve.errors import ApiError
from serve.serve_helpers import HAND, SERVED, make_client

HEAVY = {"indicator": "4z", "hand": "566779m1111444z", "win_tile": "8m", "win_by": "self_draw"}


@pytest.fixture()
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """A new application whose rulesets, once loaded, stay fresh for the whole test (the
    100 ms recheck would otherwise send a slow test's requests to the threads)."""
    monkeypatch.setattr("rulekit.serve.registry.RECHECK_NS", 10**15)
    with make_client(SERVED) as c:
        yield c


def scored(client: TestClient) -> dict[str, int]:
    counts: dict[str, int] = client.get("/healthz").json()["scored"]
    return counts


def post(client: TestClient, req: dict[str, Any]) -> tuple[str, Any]:
    """Where the request was scored, and its answer."""
    before = scored(client)
    r = client.post("/v1/score", content=json.dumps(req))
    after = scored(client)
    where = [k for k in after if after[k] != before[k]]
    assert len(where) == 1, (before, after)
    return where[0], (r.status_code, r.json())


def threads_answer(client: TestClient, req: dict[str, Any]) -> tuple[int, Any]:
    """What the scoring threads' function answers for `req`."""
    try:
        return 200, handlers.score(client.app.state.registry, req)  # type: ignore[attr-defined]
    except ApiError as err:
        return err.status, err.body()


def held_hun(doc: dict[str, Any]) -> int:
    hand = parse_hand(doc)
    return sum(1 for t in hand.concealed + (hand.win_tile,) if t in hand.hun)


def test_cheap_hands_are_scored_on_the_loop_with_the_threads_answers(fresh: TestClient) -> None:
    assert post(fresh, {"ruleset": "tianjin", "hand": HAND})[0] == "threads"   # not loaded yet
    rng = random.Random(5)
    seen = {"loop": 0, "threads": 0}
    for _ in range(60):
        doc = random_hand(rng, hun_target=rng.randrange(6), heavenly_rate=0.2)
        req = {"ruleset": "tianjin", "hand": doc}
        where, answer = post(fresh, req)
        cheap_one = held_hun(doc) <= cheap.HUN and not doc.get("heavenly")
        assert where == ("loop" if cheap_one else "threads"), doc
        assert answer == threads_answer(fresh, req)
        seen[where] += 1
    assert seen["loop"] >= 20 and seen["threads"] >= 10, seen


def test_the_loop_refuses_a_bad_hand_as_the_threads_do(fresh: TestClient) -> None:
    post(fresh, {"ruleset": "tianjin", "hand": HAND})
    for hand in ({**HAND, "hand": "46m123456789s22x"}, {**HAND, "win_by": "discard"},
                 {**HAND, "melds": [{"kind": "kong", "tiles": "7777p"}]}):
        req = {"ruleset": "tianjin", "hand": hand}
        where, (status, body) = post(fresh, req)
        assert status == 422 and (status, body) == threads_answer(fresh, req), body
        assert where == "loop", hand


def test_heavy_hands_big_bodies_overlays_and_costly_rulesets_are_not_scored_on_the_loop(
        fresh: TestClient) -> None:
    for name in ("tianjin", "tianjin-flowers", "table7"):
        post(fresh, {"ruleset": name, "hand": HAND})               # loaded now
    assert post(fresh, {"ruleset": "tianjin", "hand": HAND})[0] == "loop"
    assert post(fresh, {"ruleset": "table7", "hand": HAND})[0] == "loop"     # a served file
    cases = [
        ({"ruleset": "tianjin", "hand": HEAVY}, "threads"),                     # 7 hun
        ({"ruleset": "tianjin", "hand": {**HAND, "heavenly": True}}, "threads"),  # 天和
        ({"ruleset": "tianjin-flowers", "hand": HAND}, "threads"),   # 14 valued patterns
        ({"ruleset": "tianjin", "hand": HAND, "note": "x" * cheap.BODY_BYTES}, "threads"),
        ({"ruleset_yaml": "extends: tianjin\nname: o\n", "hand": HAND}, "workers"),
    ]
    for req, place in cases:
        where, (status, _) = post(fresh, req)
        assert (where, status) == (place, 200), req


def test_a_ruleset_not_loaded_or_stale_is_never_read_on_the_loop(
        fresh: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    reg = fresh.app.state.registry  # type: ignore[attr-defined]
    assert reg.ready("tianjin") is None and reg.ready("../x") is None and reg.ready(3) is None
    post(fresh, {"ruleset": "tianjin", "hand": HAND})
    assert reg.ready("tianjin") is reg.get("tianjin")
    monkeypatch.setattr("rulekit.serve.registry.RECHECK_NS", -1)   # loaded stale from now
    reg._loaded.clear()
    reg.get("tianjin")
    assert reg.ready("tianjin") is None
    assert post(fresh, {"ruleset": "tianjin", "hand": HAND})[0] == "threads"


def test_which_rulesets_qualify(tmp_path: Path) -> None:
    ok = {n: cheap.ruleset_ok(rulekit.load_ruleset(n)) for n in resolve.builtin_names()}
    assert ok == {n: n != "tianjin-flowers" for n in ok}
    assert max(cheap.ruleset_steps(rulekit.load_ruleset(n)) for n in ok) <= cheap.RULESET_STEPS
    # a club's ruleset with one costly pattern (well inside the library's budget) is not
    costly = tmp_path / "costly.yaml"
    costly.write_text("extends: tianjin\nname: costly\npatterns:\n  slow:\n    name: slow\n"
                      "    when: 'count(a in hand.tiles: count(b in hand.tiles: a == b) > 1)"
                      " > 4'\n", encoding="utf-8")
    rs = rulekit.load_ruleset(costly)
    assert cheap.ruleset_steps(rs) > cheap.RULESET_STEPS
    assert not cheap.ruleset_ok(rs)
