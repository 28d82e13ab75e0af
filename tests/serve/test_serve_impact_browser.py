"""The calculator's "what does this change?" button (static/impact.js) in headless Chromium:
paste an overlay, press it, read the rules that differ and the short simulation."""
from __future__ import annotations

import os
import re
from typing import Iterator

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
