"""The calculator's "what does this change?" button (static/impact.js) in headless Chromium:
paste an overlay, press it, read the rules that differ and the short simulation."""
from __future__ import annotations

import json
import os
import re
from typing import Any, Iterator

import pytest

from serve.serve_helpers import Server

if os.environ.get("RULEKIT_NO_BROWSER") == "1":
    pytest.skip("RULEKIT_NO_BROWSER=1: browser tests skipped on request", allow_module_level=True)

from playwright.sync_api import Browser, expect  # noqa: E402

import chromium  # noqa: E402
from chromium import SHOTS  # noqa: E402

OVERLAY = "extends: tianjin\nname: hd3\nscoring: {multiply: {hun_diao: 3}}\n"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from chromium.launched()


def test_what_does_this_change(browser: Browser, server: Server) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    page.select_option("#ruleset", "__overlay__")
    page.fill("#overlay", OVERLAY)
    expect(page.locator("#overlay-status")).to_contain_text("hd3")
    page.locator("#impact-run").click()
    out = page.locator("#impact")
    expect(out.locator("li")).to_contain_text(["翻倍 混吊 (scoring.multiply.hun_diao): 3 → 2; fired in "],
                                              timeout=30000)
    expect(out).to_contain_text("Differences read FIRST − OTHER: hd3 minus tianjin")
    expect(out).to_contain_text("random hands score differently")
    # how many of the 64 hands are played depends on the time limit and the machine's load
    expect(out).to_contain_text(re.compile(r"Play \((6[0-4]|[1-5]?\d) hands, greedy players\)"))
    expect(out.locator("a[download]")).to_have_count(1)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "phone-impact.png"), full_page=True)
    assert errors == []


def test_a_late_answer_for_older_overlay_text_is_not_shown(browser: Browser,
                                                           server: Server) -> None:
    """A slow server answers the text pasted first after the text pasted last: the page shows
    the last text's verdict, not the stale "1 problem" (seen under CI load: the select's
    refresh validated the empty overlay and its answer came back last)."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    held: list[Any] = []

    def hold_old(route: Any) -> None:
        if json.loads(route.request.post_data or "{}").get("ruleset_yaml") == OVERLAY:
            route.continue_()
        else:
            held.append(route)          # answered only once the newer text's verdict shows

    page.route("**/v1/validate", hold_old)
    page.goto(server.url + "/")
    page.select_option("#ruleset", "__overlay__")
    page.fill("#overlay", "extends: tianjin\nname: broken\nscoring: {multiply: {nope: 3}}\n")
    for _ in range(50):                 # the broken text's validation is in flight
        if held:
            break
        page.wait_for_timeout(100)
    assert held
    page.fill("#overlay", OVERLAY)
    status = page.locator("#overlay-status")
    expect(status).to_contain_text("hd3")
    for route in held:
        route.continue_()
    page.wait_for_timeout(1000)         # the stale answers arrive
    expect(status).to_contain_text("hd3")
    expect(page.locator("#overlay-errors li")).to_have_count(0)
    page.close()
