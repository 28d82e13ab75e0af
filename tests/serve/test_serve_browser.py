"""The calculator in a real headless Chromium (Debian's `chromium`), driven by Playwright.

A missing browser fails these tests (CI installs it): only RULEKIT_NO_BROWSER=1, set by hand,
skips them. Screenshots at phone and desktop widths go to artifacts/screenshots/ in the work
tree (ignored by git), for people to look at.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Iterator
from urllib.parse import parse_qs, urlparse

import pytest

import rulekit
from serve.serve_helpers import HAND, Server

if os.environ.get("RULEKIT_NO_BROWSER") == "1":
    pytest.skip("RULEKIT_NO_BROWSER=1: browser tests skipped on request", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402

CHROMIUM = os.environ.get("RULEKIT_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
LINK = "/?ruleset=tianjin&hand=46m123456789s22z&win=5m&indicator=7p"
BROKEN = ("extends: tianjin\nname: table 9\nwin:\n  minimum: 3\npatterns:\n  long:\n"
          "    name: 龍\n    when: \"some s in suits: run(s, 1) and\"\n")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: `apt-get install chromium` (or set "
                    f"RULEKIT_CHROMIUM), or RULEKIT_NO_BROWSER=1 to skip these tests")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def open_page(browser: Browser, server: Server, path: str, size: dict[str, int]) -> Page:
    page = browser.new_page(viewport=size)      # type: ignore[arg-type]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + path)
    page.errors = errors                        # type: ignore[attr-defined]
    return page


def shot(page: Page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / name
    # the phone's verdict bar is fixed to the screen: in a whole-page picture it would sit in
    # the middle (phone-viewport.png shows it where a player sees it)
    page.add_style_tag(content=".summary { display: none !important; }")
    page.screenshot(path=str(path), full_page=True)
    return path


def expect_the_seed_hand(page: Page) -> None:
    expect(page.locator("#verdict")).to_have_text("和 14 番")
    expect(page.locator("#pattern-names .chip")).to_have_text(["捉5", "龍", "素"])
    expect(page.locator("#explain li")).to_have_text(["(捉5 3 + 龍 4) × 素 2 = 14"])


def test_tile_pad_enters_a_hand(browser: Browser, server: Server) -> None:
    page = open_page(browser, server, "/", PHONE)
    pad = page.locator("#pad")
    for t in ["4m", "6m", *[f"{r}s" for r in range(1, 10)], "2z", "2z"]:
        pad.locator(f'[data-tile="{t}"]').click()
    expect(page.locator("#hand-count")).to_have_text("13/13")
    pad.locator('[data-tile="5m"]').click()        # the pad moved on to the winning tile
    pad.locator('[data-tile="7p"]').click()        # and then to the indicator
    expect_the_seed_hand(page)
    query = parse_qs(urlparse(page.url).query)
    assert query["hand"] == ["46m123456789s22z"] and query["win"] == ["5m"]
    assert query["indicator"] == ["7p"]
    shot(page, "phone-tile-pad.png")
    page.locator("#undo").click()                  # the indicator comes off again
    expect(page.locator("#indicator-tiles .t")).to_have_count(0)
    assert page.errors == []                       # type: ignore[attr-defined]


def test_switching_rulesets_rescores(browser: Browser, server: Server) -> None:
    page = open_page(browser, server, LINK, DESKTOP)
    expect_the_seed_hand(page)
    page.select_option("#ruleset", "table7")       # the served club ruleset: 龍 is 8
    expect(page.locator("#verdict")).to_have_text("和 22 番")
    assert parse_qs(urlparse(page.url).query)["ruleset"] == ["table7"]
    expect(page.locator("#sheet-link")).to_have_attribute("href", "/rules/table7")
    page.select_option("#ruleset", "tianjin")
    expect(page.locator("#verdict")).to_have_text("和 14 番")


def test_broken_overlay_shows_its_error_line(browser: Browser, server: Server) -> None:
    page = open_page(browser, server, LINK, PHONE)
    expect_the_seed_hand(page)
    page.select_option("#ruleset", "__overlay__")
    page.fill("#overlay", BROKEN)
    problem = page.locator("#overlay-errors li").first
    expect(problem).to_have_attribute("data-line", "8")
    expect(problem).to_contain_text("line 8:")
    expect(problem).to_contain_text("unexpected end of expression")
    expect(page.locator("#result-body")).to_contain_text("does not load yet")
    shot(page, "phone-broken-overlay.png")
    page.fill("#overlay", BROKEN.replace(" and\"", " and run(s, 4) and run(s, 7)\""))
    expect(page.locator("#overlay-status")).to_contain_text("✓ table 9")
    expect(page.locator("#verdict")).to_have_text("和 14 番")
    # the overlay travels in the link too, and its rule sheet is one tap away
    assert "minimum: 3" in parse_qs(urlparse(page.url).query)["overlay"][0]
    again = open_page(browser, server, page.url.removeprefix(server.url), PHONE)
    expect(again.locator("#overlay-status")).to_contain_text("✓ table 9")
    expect(again.locator("#verdict")).to_have_text("和 14 番")
    again.locator("#sheet-link").click()
    expect(again.locator("h1")).to_have_text("table 9")
    expect(again.locator("#long .val")).to_have_text("+4")


def test_shared_link_shows_the_same_breakdown(browser: Browser, server: Server) -> None:
    api = rulekit.score(HAND).to_dict()
    for size, name in ((PHONE, "phone-shared-link.png"), (DESKTOP, "desktop-shared-link.png")):
        page = open_page(browser, server, LINK, size)
        expect_the_seed_hand(page)
        assert page.locator("#explain li").all_inner_texts() == api["explain"]
        assert page.locator("#pattern-names .chip").all_inner_texts() == api["pattern_names"]
        assert page.locator("#hand-text").input_value() == HAND["hand"]
        shot(page, name)
        # nothing overflows a phone's width
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], width


def test_waits_panel_lists_each_tile_with_its_value(browser: Browser, server: Server) -> None:
    page = open_page(browser, server, "/?hand=46m123456789s1z7p&indicator=7p", PHONE)
    items = page.locator("#waits-body li")
    expect(items).to_have_count(4)
    expect(items.first).to_contain_text("7 番 捉5 龍")
    expect(items.last).to_contain_text("4 番 龍")
    assert [t.get_attribute("data-tile") for t in items.locator(".t").all()] == \
        ["5m", "7p", "8p", "1z"]
    items.first.click()                            # a wait becomes the winning tile
    expect(page.locator("#verdict")).to_have_text("和 7 番")


def test_settle_panel_shows_who_pays_whom(browser: Browser, server: Server) -> None:
    page = open_page(browser, server, LINK, PHONE)
    expect(page.locator('[data-pay="0"]')).to_have_text("+42")
    expect(page.locator('[data-pay="1"]')).to_have_text("-14")
    page.check("#dealer-sits")                     # 坐莊: ×2 between the dealer and each seat
    expect(page.locator('[data-pay="0"]')).to_have_text("+84")
    expect(page.locator("#transfers li")).to_have_count(3)
    expect(page.locator("#transfers li").first).to_have_text("seat 1 → seat 0: 28 (hand)")
    assert parse_qs(urlparse(page.url).query)["sits"] == ["1"]
    shot(page, "phone-settle.png")
    doc = {"dealer": 0, "dealer_sits": True, "pulls": [0, 0, 0, 0], "winner": 0, "hand": HAND,
           "kongs": [[], [], [], []], "stake": 1}
    assert rulekit.settle(doc).payments == (84, -28, -28, -28)
    assert json.dumps(page.locator("[data-pay]").all_inner_texts()) == \
        json.dumps(["+84", "-28", "-28", "-28"])


def test_rule_sheet_page(browser: Browser, server: Server) -> None:
    page = open_page(browser, server, "/rules/tianjin", PHONE)
    expect(page.locator("h1")).to_have_text("tianjin")
    expect(page.locator("#long .val")).to_have_text("+4")
    shot(page, "phone-rule-sheet.png")


def test_flowers_from_the_pad(browser: Browser, server: Server) -> None:
    page = open_page(browser, server, "/?ruleset=tianjin-flowers&hand=1122m3344p5566s7z&win=7z"
                                      "&indicator=5m", PHONE)
    expect(page.locator("#verdict")).to_have_text("不和: not_a_winning_shape")
    page.locator('.targets [data-target="flowers"]').click()
    for r in range(1, 9):
        page.locator(f'#pad [data-tile="{r}f"]').click()
    # rulesets/cases/tianjin-flowers.yaml: 八花齊 wins at once, 16 fan
    expect(page.locator("#verdict")).to_have_text("和 16 番")
    assert parse_qs(urlparse(page.url).query)["flowers"] == ["12345678f"]
    expect(page.locator("#flower-tiles .t")).to_have_text(list("春夏秋冬梅蘭竹菊"))


def test_phone_shows_the_verdict_at_the_bottom_of_the_screen(browser: Browser,
                                                             server: Server) -> None:
    page = open_page(browser, server, LINK, PHONE)
    bar = page.locator("#summary")
    expect(bar).to_have_text("和 14 番 · 捉5 龍 素")
    box = bar.bounding_box()
    assert box is not None and box["y"] + box["height"] == PHONE["height"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "phone-viewport.png"))     # the screen, not the page
    desktop = open_page(browser, server, LINK, DESKTOP)
    expect(desktop.locator("#verdict")).to_have_text("和 14 番")
    expect(desktop.locator("#summary")).to_be_hidden()


def test_settle_with_pulls_kongs_and_chan(browser: Browser, server: Server) -> None:
    page = open_page(browser, server, LINK, PHONE)
    expect(page.locator('[data-pay="0"]')).to_have_text("+42")
    page.select_option("#dealer", "1")
    pull = page.locator('[data-pull="0"]')            # seat 0 pulls (拉莊) the dealer once
    pull.fill("1")
    pull.dispatch_event("change")
    # ×2 between the dealer and the seat that pulled: 28 from the dealer, 14 from the others
    expect(page.locator("[data-pay]")).to_have_text(["+56", "-28", "-14", "-14"])
    kong = page.locator('[data-kong="2.0"]')           # seat 2 has an exposed kong
    kong.fill("1")
    kong.dispatch_event("change")
    page.check("#chan")
    doc = {"dealer": 1, "dealer_sits": False, "pulls": [1, 0, 0, 0], "winner": 0,
           "hand": HAND, "kongs": [[], [], ["exposed"], []], "chan": True, "stake": 1}
    want = [f"+{p}" if p > 0 else str(p) for p in rulekit.settle(doc).payments]
    expect(page.locator("[data-pay]")).to_have_text(want)
    query = parse_qs(urlparse(page.url).query)
    assert (query["dealer"], query["pulls"], query["kongs"], query["chan"]) == \
        (["1"], ["1,0,0,0"], ["0.0,0.0,1.0,0.0"], ["1"])
    again = open_page(browser, server, page.url.removeprefix(server.url), PHONE)
    expect(again.locator("[data-pay]")).to_have_text(want)   # the link keeps the table too


def test_three_player_ruleset_has_three_seats(browser: Browser, server: Server) -> None:
    page = open_page(browser, server, LINK, PHONE)
    expect(page.locator("#seat-rows tr")).to_have_count(4)
    page.select_option("#ruleset", "tianjin-3p")
    expect(page.locator("#seat-rows tr")).to_have_count(3)
    # 14 fan from each of the two others
    expect(page.locator("[data-pay]")).to_have_text(["+28", "-14", "-14"])
    expect(page.locator("#winner option")).to_have_count(4)      # three seats and 流局


def test_melds_from_the_pad(browser: Browser, server: Server) -> None:
    page = open_page(browser, server, "/", PHONE)
    page.locator('.targets [data-target="kong"]').click()
    page.locator('#pad [data-tile="3p"]').click()          # an exposed kong 3333p
    expect(page.locator("#meld-tiles .t")).to_have_count(4)
    page.locator('.targets [data-target="hand"]').click()
    for t in ["1s", "2s", "9s", "4p", "5p", "6p", "7m", "7m", "7m", "5z"]:
        page.locator(f'#pad [data-tile="{t}"]').click()
    expect(page.locator("#hand-count")).to_have_text("10/10")
    page.locator('#pad [data-tile="5z"]').click()          # the winning tile
    page.locator('#pad [data-tile="8s"]').click()          # the indicator: hun 8s 9s
    page.select_option("#win-by", "kong_draw")
    # rulesets/cases/tianjin.yaml, row 3 有混杠開提溜 明杠: 提溜 1 × 杠開 2, + 明杠 1
    expect(page.locator("#verdict")).to_have_text("和 3 番")
    doc = {"indicator": "8s", "hand": "12s9s456p777m5z", "win_tile": "5z",
           "win_by": "kong_draw", "melds": [{"kind": "kong", "tiles": "3333p",
                                             "concealed": False}]}
    expect(page.locator("#explain li")).to_have_text(list(rulekit.score(doc).explain))
    query = parse_qs(urlparse(page.url).query)
    assert query["kong"] == ["3333p"] and query["by"] == ["kong_draw"]
