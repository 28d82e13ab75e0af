"""`score.paused`: the cyclic garbage collector is off while a place search or a 天和's scan
runs (its young collections walked the memo rows the search keeps and freed nothing), and
back as it was after."""
from __future__ import annotations

import gc
from typing import Any

import rulekit
from rulekit.scoring.score import forget

# a 3-hun 天和 the scan reads over one listing, and a 7-hun one searched by place
SCANNED = {"indicator": "4z", "hand": "2346677778m144z", "melds": [], "win_tile": "5m",
           "win_by": "self_draw", "heavenly": True}
BY_PLACE = {"indicator": "4z", "hand": "566779m1111444z", "melds": [], "win_tile": "8m",
            "win_by": "self_draw", "heavenly": True}
PLAIN = dict(SCANNED, heavenly=False)


def collections_in_one_cold_score(doc: dict[str, Any]) -> int:
    """Young collections run while `doc` is scored cold, with a low threshold."""
    rs = rulekit.load_ruleset("tianjin")
    seen: list[int] = []

    def count(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    before = gc.get_threshold()
    forget()
    gc.collect()
    gc.set_threshold(50, 10, 10)
    gc.callbacks.append(count)
    try:
        rulekit.score(doc, rs)
    finally:
        gc.callbacks.remove(count)
        gc.set_threshold(*before)
    assert gc.isenabled()
    return len(seen)


def test_a_scanned_tianhe_and_a_place_search_run_without_collections() -> None:
    # the hand's own set-up and its result still allocate with the collector on: a few
    assert collections_in_one_cold_score(SCANNED) <= 3
    assert collections_in_one_cold_score(BY_PLACE) <= 3
    # the same tiles without 天和 are scanned for one winning tile, collector on
    assert collections_in_one_cold_score(PLAIN) > 10


def test_a_collector_turned_off_stays_off() -> None:
    rs = rulekit.load_ruleset("tianjin")
    gc.disable()
    try:
        forget()
        rulekit.score(SCANNED, rs)
        assert not gc.isenabled()
    finally:
        gc.enable()
