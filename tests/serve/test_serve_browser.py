"""The calculator in a real headless Chromium (Debian's `chromium`), driven by Playwright.

A missing browser fails these tests (CI installs it): only RULEKIT_NO_BROWSER=1, set by hand,
skips them. Screenshots at phone and desktop widths go to artifacts/screenshots/ in the work
tree (ignored by git), for people to look at.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import parse_qs, quote, urlparse

import pytest

import rulekit
from serve.serve_helpers import HAND, Server

if os.environ.get("RULEKIT_NO_BROWSER") == "1":
    pytest.skip("RULEKIT_NO_BROWSER=1: browser tests skipped on request", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect  # noqa: E402

import chromium  # noqa: E402
from chromium import DESKTOP, PHONE, SHOTS  # noqa: E402

LINK = "/?ruleset=tianjin&hand=46m123456789s22z&win=5m&indicator=7p"
BROKEN = ("extends: tianjin\nname: table 9\nwin:\n  minimum: 3\npatterns:\n  long:\n"
          "    name: 龍\n    when: \"some s in suits: run(s, 1) and\"\n")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from chromium.launched()


def open_page(browser: Browser, server: Server, path: str, size: dict[str, int]) -> Page:
    page = browser.new_page(viewport=size)      # type: ignore[arg-type]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + path)
    if urlparse(path).path == "/":
        # the calculator's first answers drawn (app.js `finish`): until then the rulesets
        # arrive and the page above the pad grows, and a tap at a moving tile can miss it
        # (CI once saw 12/13 after thirteen pad taps)
        page.wait_for_selector("body[data-ready]", state="attached")
    page.errors = errors                        # type: ignore[attr-defined]
    return page


def shot(page: Page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / name
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
    expect(problem).to_contain_text("第 8 行：")
    expect(problem).to_contain_text("unexpected end of expression")
    expect(page.locator("#result-body")).to_contain_text("還不能用")
    # the source line and its caret keep their columns: monospace, never wrapped
    caret = problem.locator("pre.caret")
    expect(caret).to_contain_text("^")
    style = caret.evaluate("e => [getComputedStyle(e).fontFamily, getComputedStyle(e).whiteSpace]")
    assert "monospace" in style[0] and style[1] == "pre"
    lines = caret.inner_text().split("\n")
    assert lines[1].index("^") == len(lines[0]), lines          # under the end of `... and`
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


def test_the_hun_shown_is_the_rulesets(browser: Browser, server: Server) -> None:
    """Beside the indicator the page shows the hun the server describes for the ruleset
    (hun.kinds, game.single_hun), never its own guess: 7p makes 7p and 8p under tianjin,
    8p alone under an overlay with one hun kind, the successor."""
    page = open_page(browser, server, LINK, PHONE)
    expect_the_seed_hand(page)
    hun = page.locator("#hun-of")
    expect(hun).to_have_attribute("data-hun", "7p 8p")
    expect(hun.locator(".t")).to_have_count(2)
    page.select_option("#ruleset", "__overlay__")
    page.fill("#overlay", "extends: tianjin\nname: one-hun\nhun: {kinds: 1}\n"
                          "game: {single_hun: successor}\n")
    expect(page.locator("#overlay-status")).to_contain_text("✓ one-hun")
    expect(hun).to_have_attribute("data-hun", "8p")
    expect(hun.locator(".t")).to_have_attribute("data-tile", "8p")
    shot(page, "phone-one-hun.png")
    page.fill("#overlay", "extends: tianjin\nname: one-hun\nhun: {kinds: 3}\n")
    expect(page.locator("#overlay-status")).to_have_class("error")
    expect(hun).to_have_attribute("data-hun", "")             # an invalid overlay: no guess
    page.select_option("#ruleset", "tianjin")
    page.locator("#indicator-tiles .t").click()                 # the indicator comes off
    expect(hun).to_have_attribute("data-hun", "")
    page.locator('.targets [data-target="indicator"]').click()
    page.locator('#pad [data-tile="9m"]').click()
    expect(hun).to_have_attribute("data-hun", "9m 1m")
    assert page.errors == []                       # type: ignore[attr-defined]


def test_shared_link_shows_the_same_breakdown(browser: Browser, server: Server) -> None:
    api = rulekit.score(HAND).to_dict()
    for size, name in ((PHONE, "phone-shared-link.png"), (DESKTOP, "desktop-shared-link.png")):
        page = open_page(browser, server, LINK, size)
        expect_the_seed_hand(page)
        assert page.locator("#explain li").all_inner_texts() == api["explain"]
        assert page.locator("#pattern-names .chip").all_inner_texts() == api["pattern_names"]
        assert page.locator("#hand-text").input_value() == "46m123456789s22z 和5m 混7p"
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
    items.first.locator("button").click()          # a wait becomes the winning tile
    expect(page.locator("#verdict")).to_have_text("和 7 番")


def test_settle_panel_shows_who_pays_whom(browser: Browser, server: Server) -> None:
    page = open_page(browser, server, LINK, PHONE)
    expect(page.locator('[data-pay="0"]')).to_have_text("+42")
    expect(page.locator('[data-pay="1"]')).to_have_text("-14")
    page.check("#dealer-sits")                     # 坐莊: ×2 between the dealer and each seat
    expect(page.locator('[data-pay="0"]')).to_have_text("+84")
    expect(page.locator("#transfers li")).to_have_count(3)
    # seats by wind (the dealer is East), each transfer's reason by its name
    expect(page.locator("#transfers li").first).to_have_text("南 → 東: 28 (和牌)")
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
    # served, its example hands are the calculator's tile pictures, each named (五萬 ...)
    expect(page.locator("#zhuo_wu .ex .t.pic").first).to_have_attribute("aria-label", "四萬")
    found = page.evaluate(NO_TEXT_TILES)
    assert found["count"] > 100 and found["plain"] == [] and found["svgText"] == 0, found
    shot(page, "phone-rule-sheet.png")
    # the printed file of `rulekit sheet` stands alone: no script, its tiles as named text
    from rulekit.serve.sheet import sheet_for
    printed = sheet_for("tianjin")
    assert "<script" not in printed and '<span class="t m" title="4m">四萬</span>' in printed


def test_flowers_from_the_pad(browser: Browser, server: Server) -> None:
    page = open_page(browser, server, "/?ruleset=tianjin-flowers&hand=1122m3344p5566s7z&win=7z"
                                      "&indicator=5m", PHONE)
    expect(page.locator("#verdict")).to_have_text("不和：不成和牌")
    page.locator('.targets [data-target="flowers"]').click()
    for r in range(1, 9):
        page.locator(f'#pad [data-tile="{r}f"]').click()
    # rulesets/cases/tianjin-flowers.yaml: 八花齊 wins at once, 16 fan
    expect(page.locator("#verdict")).to_have_text("和 16 番")
    # the instant win by its name from the ruleset, never its id (ba_hua_qi)
    expect(page.locator("#pattern-names .chip")).to_have_text(["八花齊"])
    assert parse_qs(urlparse(page.url).query)["flowers"] == ["12345678f"]
    flowers = page.locator("#flower-tiles .t")
    assert [f.get_attribute("aria-label") for f in flowers.all()] == list("春夏秋冬梅蘭竹菊")
    assert [f.get_attribute("data-tile") for f in flowers.all()] == [f"{r}f" for r in range(1, 9)]


def test_phone_verdict_line_sits_above_the_pad_and_never_covers_it(browser: Browser,
                                                                   server: Server) -> None:
    for size in (PHONE, DESKTOP):
        page = open_page(browser, server, LINK, size)
        expect(page.locator("#verdict")).to_have_text("和 14 番")
        if size is PHONE:
            bar = page.locator("#summary")
            expect(bar).to_have_text("和 14 番 · 捉5 龍 素")
            box, pad = bar.bounding_box(), page.locator("#pad").bounding_box()
            assert box is not None and pad is not None
            assert box["y"] + box["height"] <= pad["y"]         # above the pad, not over it
            assert box["y"] + box["height"] <= size["height"]   # in view on the first screen
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "phone-viewport.png"))
        else:
            expect(page.locator("#summary")).to_be_hidden()
        # whatever the scroll, no element of the page lies over a tile of the pad
        covered = page.evaluate("""() => [...document.querySelectorAll('#pad .t')]
            .filter((b) => b.offsetParent).filter((b) => {
              b.scrollIntoView({block: 'end'});
              const r = b.getBoundingClientRect();
              const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
              return !hit || hit.closest('[data-tile]') !== b; }).map((b) => b.dataset.tile)""")
        assert covered == []


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
    # winds go round three seats: with the third seat dealing, the first is South
    page.select_option("#dealer", "2")
    expect(page.locator("#seat-rows th .t")).to_have_count(3)
    assert [t.get_attribute("data-tile") for t in page.locator("#seat-rows th .t").all()] \
        == ["2z", "3z", "1z"]


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


NO_TEXT_TILES = """() => {
  const tiles = [...document.querySelectorAll('.t')];
  return {count: tiles.length,
          plain: tiles.filter((t) => !t.querySelector('svg') || t.innerText.trim() !== '')
                      .map((t) => t.outerHTML.slice(0, 80)),
          svgText: document.querySelectorAll('.t svg text').length};
}"""


def test_tiles_are_svg_pictures_not_text(browser: Browser, server: Server) -> None:
    for size in (PHONE, DESKTOP):
        page = open_page(browser, server, LINK, size)
        expect_the_seed_hand(page)
        found = page.evaluate(NO_TEXT_TILES)
        # pad 9+9+9+7+8, hand 13, win, indicator, arrangement 14, waits 3, winds of 4 seats
        assert found["count"] >= 42 + 13 + 2 + 14 + 3 + 4, found["count"]
        assert found["plain"] == [] and found["svgText"] == 0
        # every glyph is a path: a tile shows the same without a CJK font
        if size is PHONE:           # every drawing is well-formed SVG, each tile its own
            drawn = page.evaluate("""() => {
              const names = [...'mps'].flatMap((s) => [1,2,3,4,5,6,7,8,9].map((r) => r + s))
                .concat([1,2,3,4,5,6,7].map((r) => r + 'z'), [1,2,3,4,5,6,7,8].map((r) => r + 'f'), ['back']);
              const svgs = names.map((n) => RulekitTiles.tileSVG(n));
              const bad = svgs.filter((t) => new DOMParser().parseFromString(t, 'image/svg+xml')
                .querySelector('parsererror'));
              return {n: names.length, distinct: new Set(svgs).size, bad: bad.length};
            }""")
            assert drawn == {"n": 43, "distinct": 43, "bad": 0}
        five = page.locator('#pad [data-tile="5m"] svg path')
        assert five.count() >= 3
        expect(page.locator('#pad [data-tile="5m"]')).to_have_attribute("aria-label", "五萬")
        assert page.errors == []                       # type: ignore[attr-defined]


def test_chinese_english_toggle_is_remembered(browser: Browser, server: Server) -> None:
    context = browser.new_context(viewport=PHONE)      # type: ignore[arg-type]
    page = context.new_page()
    page.goto(server.url + LINK)
    hand_button = page.locator('.targets [data-target="hand"]')
    expect(hand_button).to_have_text("手牌")
    expect(page.locator("#verdict")).to_have_text("和 14 番")
    page.locator("#lang").click()
    expect(hand_button).to_have_text("Hand")
    expect(page.locator("#verdict")).to_have_text("Win: 14 fan")
    expect(page.locator("#pattern-names .chip")).to_have_text(["捉5", "龍", "素"])  # names
    expect(page.locator("#transfers li").first).to_have_text("South → East: 14 (the win)")
    expect(page.locator('#pad [data-tile="5m"]')).to_have_attribute("aria-label", "5 Characters")
    expect(page.locator("#hand-text")).to_have_value("46m123456789s22z win 5m ind 7p")
    shot(page, "phone-english.png")
    again = context.new_page()                          # the choice is kept (localStorage)
    again.goto(server.url + LINK)
    expect(again.locator('.targets [data-target="hand"]')).to_have_text("Hand")
    again.locator("#lang").click()
    expect(again.locator('.targets [data-target="hand"]')).to_have_text("手牌")
    expect(again.locator("#verdict")).to_have_text("和 14 番")
    context.close()


def type_hand(page: Page, text: str) -> None:
    page.fill("#hand-text", text)
    page.press("#hand-text", "Enter")


def test_typing_a_whole_hand_in_chinese_or_ascii(browser: Browser, server: Server) -> None:
    page = open_page(browser, server, "/", PHONE)
    # the README hand in Chinese tile names, the winning tile and the indicator after 和 / 混
    type_hand(page, "四六萬 一二三四五六七八九條 南南 和五萬 混七筒")
    expect_the_seed_hand(page)
    query = parse_qs(urlparse(page.url).query)
    assert (query["hand"], query["win"], query["indicator"]) == \
        (["46m123456789s22z"], ["5m"], ["7p"])
    # melds and ASCII words: the 杠開 hand of rulesets/cases/tianjin.yaml (提溜 1 × 杠開 2 + 明杠 1)
    page.select_option("#win-by", "kong_draw")
    type_hand(page, "12s9s456p777m5z kong 3333p win 5z ind 8s")
    expect(page.locator("#verdict")).to_have_text("和 3 番")
    expect(page.locator("#meld-tiles .t")).to_have_count(4)
    assert parse_qs(urlparse(page.url).query)["kong"] == ["3333p"]
    # 14 tiles and no winning-tile word: the last one typed is the winning tile
    page.select_option("#win-by", "self_draw")
    type_hand(page, "46m 123456789s 22z 5m 混7p")
    expect(page.locator("#verdict")).to_have_text("和 14 番")
    expect(page.locator("#win-tiles .t")).to_have_attribute("data-tile", "5m")
    # a tile the parser does not know: its message, and the hand stays as it was
    type_hand(page, "46m 123456789s 8z")
    expect(page.locator("#hand-text-error")).to_contain_text("unknown tile '8z'")
    expect(page.locator("#verdict")).to_have_text("和 14 番")
    assert page.errors == []                       # type: ignore[attr-defined]


HOSTILE = ["/?kongs=999", "/?kongs=4.4.4,9.9.9,1e9,-1&pulls=99,-3,x,1e400",
           "/?hand=" + "1m" * 4000, "/?hand=<script>alert(1)</script>&win=99z&indicator=0p",
           "/?ruleset=../../etc/passwd&dealer=77&winner=9&stake=1e999",
           "/?pung=5555555p,xx&kong=1m,2m,3m,4m,5m,6m&ckong=9f&by=cheat&names=" + "A" * 500,
           "/?overlay=" + "x" * 70000]


def test_hostile_links_show_an_error_and_the_pad_still_works(browser: Browser,
                                                             server: Server) -> None:
    for i, link in enumerate(HOSTILE):
        page = open_page(browser, server, link, PHONE if i % 2 else DESKTOP)
        banner = page.locator("#link-errors")
        expect(banner).to_be_visible()
        expect(banner.locator("li").first).to_be_visible()
        if i == 0:
            expect(banner).to_contain_text("kongs=999: 999 is not in 0..4")
            expect(page.locator('[data-kong="0.0"]')).to_have_value("0")   # the winner: none
            expect(page.locator('[data-kong="1.0"]')).to_have_value("0")
        # the page is usable: the pad enters the README hand and it scores
        page.locator('.targets [data-target="hand"]').click()
        page.locator("#clear").click()
        for t in ["4m", "6m", *[f"{r}s" for r in range(1, 10)], "2z", "2z", "5m", "7p"]:
            page.locator(f'#pad [data-tile="{t}"]').click()
        if "overlay" not in link:
            expect(page.locator("#verdict")).to_have_text("和 14 番")
        expect(page.locator("#hand-count")).to_have_text("13/13")
        assert page.errors == [], (link[:60], page.errors)        # type: ignore[attr-defined]
    page = open_page(browser, server, "/?kongs=3.3,0.0,4.0.2", PHONE)
    expect(page.locator("#link-errors")).to_contain_text("at most 4 kongs a seat")
    expect(page.locator('[data-kong="2.0"]')).to_have_value("4")
    expect(page.locator('[data-kong="2.2"]')).to_have_value("0")
    query = parse_qs(urlparse(page.url).query)
    assert query["kongs"] == ["3.1,0.0,4.0,0.0"]        # clamped in the link it writes back
    # clamped to the ruleset too: tianjin allows 拉莊 twice, tianjin-3p has no seat 4
    page = open_page(browser, server, LINK + "&pulls=0,5,0,0", PHONE)
    expect(page.locator("#link-errors")).to_contain_text("pulls: at most 2")
    expect(page.locator('[data-pull="1"]')).to_have_value("2")
    page = open_page(browser, server, LINK.replace("=tianjin", "=tianjin-3p") + "&dealer=3", PHONE)
    expect(page.locator("#link-errors")).to_contain_text("dealer: seat 4 of 3")
    expect(page.locator("[data-pay]")).to_have_text(["+28", "-14", "-14"])


def test_golden_kongs_and_kongs_for_every_seat(browser: Browser, server: Server) -> None:
    # rulesets/cases/tianjin.yaml: 金杠 laid down keeps 素 (素提溜 2 + 金杠 4 = 6)
    page = open_page(browser, server, "/?hand=234s666p999s7z&win=7z&indicator=3m&ckong=4444m",
                     PHONE)
    expect(page.locator("#verdict")).to_have_text("和 6 番")
    meld = page.locator("#meld-tiles .group")                       # as it lies: ends face down
    expect(meld).to_have_attribute("aria-label", "暗杠 四萬")
    assert [t.get_attribute("data-tile") for t in meld.locator(".t").all()] == \
        ["back", "4m", "4m", "back"]
    expect(page.locator('[data-kong="0.2"]')).to_have_value("1")     # the winner's, from the hand
    expect(page.locator('[data-kong="0.2"]')).to_be_disabled()
    for seat, kind in ((1, 0), (2, 2), (3, 1)):                     # 明杠, 金杠, 暗杠
        box = page.locator(f'[data-kong="{seat}.{kind}"]')
        box.fill("1")
        box.dispatch_event("change")
    hand = {"indicator": "3m", "hand": "234s666p999s7z", "win_tile": "7z",
            "melds": [{"kind": "kong", "tiles": "4444m", "concealed": True}]}
    doc = {"dealer": 0, "pulls": [0, 0, 0, 0], "winner": 0, "hand": hand,
           "kongs": [["golden"], ["exposed"], ["golden"], ["concealed"]], "stake": 1}
    want = [f"+{p}" if p > 0 else str(p) for p in rulekit.settle(doc).payments]
    expect(page.locator("[data-pay]")).to_have_text(want)
    assert parse_qs(urlparse(page.url).query)["kongs"] == ["0.0,1.0,0.0.1,0.1"]
    expect(page.locator("th[data-i18n=c-net]")).to_have_text("輸贏")  # net, + receives


def test_seats_by_wind_or_player_name(browser: Browser, server: Server) -> None:
    page = open_page(browser, server, LINK + "&dealer=1&names=Ann,,Cy", PHONE)
    # seat 1 deals: it is East, seat 2 South (named Cy), seat 3 West, seat 0 North (Ann)
    expect(page.locator("#winner option")).to_have_text(["Ann", "東", "Cy", "西", "流局"])
    expect(page.locator("#transfers li").first).to_have_text("東 → Ann: 14 (和牌)")
    name = page.locator('input[data-name="3"]')
    name.fill("Di")
    name.dispatch_event("change")
    expect(page.locator("#transfers li").last).to_have_text("Di → Ann: 14 (和牌)")
    assert parse_qs(urlparse(page.url).query)["names"] == ["Ann,,Cy,Di"]


def test_a_full_hand_says_so_when_tapped(browser: Browser, server: Server) -> None:
    page = open_page(browser, server, LINK, PHONE)
    expect_the_seed_hand(page)
    page.locator('.targets [data-target="hand"]').click()
    page.locator('#pad [data-tile="9m"]').click()
    expect(page.locator("#pad-status")).to_have_text("手牌已滿 (13/13)：點上面的牌可拿回")
    expect(page.locator("#hand-count")).to_have_text("13/13")
    assert "hand=46m123456789s22z&" in page.url


def test_the_pad_does_not_move_while_a_hand_is_entered(browser: Browser, server: Server) -> None:
    page = open_page(browser, server, "/", PHONE)
    pad = page.locator("#pad")
    # measured once the page has loaded what it asks for (the rulesets' descriptions above
    # the pad arrive after the first paint): the test is about entering a hand
    page.wait_for_load_state("networkidle")
    before = pad.bounding_box()
    tiles = ["1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "9m", "9m"]
    for i, t in enumerate(tiles):
        page.locator(f'#pad [data-tile="{t}"]').click()
        expect(page.locator("#hand-count")).to_have_text(f"{i + 1}/13")
        assert pad.bounding_box() == before, (i, t)
    page.locator('#pad [data-tile="5m"]').click()          # winning tile
    page.locator('#pad [data-tile="7z"]').click()          # the indicator
    expect(page.locator("#verdict")).to_be_visible()
    assert pad.bounding_box() == before
    # a tap lands on the tile under the finger: the hand holds what was tapped, in order
    assert [t.get_attribute("data-tile") for t in page.locator("#hand-tiles .t").all()] == tiles


def test_no_request_fails_on_any_page(browser: Browser, server: Server) -> None:
    for path in (LINK, "/docs", "/rules/tianjin"):
        page = browser.new_page(viewport=PHONE)         # type: ignore[arg-type]
        seen: list[tuple[int, str]] = []
        page.on("response", lambda r: seen.append((r.status, r.url)))
        page.goto(server.url + path)
        page.wait_for_load_state("networkidle")
        assert [s for s in seen if s[0] >= 400] == [], path
        page.close()
    # the icon the pages link, at the address browsers also ask for by themselves
    icon = browser.new_page().request.get(server.url + "/favicon.ico")
    assert icon.status == 200 and icon.headers["content-type"] == "image/svg+xml"
    assert icon.text().startswith("<svg")


def test_docs_page_shows_answers_and_fits_a_phone(browser: Browser, server: Server) -> None:
    page = open_page(browser, server, "/docs", PHONE)
    score = page.locator("section", has_text="POST /v1/score").first
    expect(score.locator("h3")).to_have_text(["Request", "Responses"])
    expect(score.locator("dd").first).to_contain_text('"total_fan": 14')
    expect(page.locator("section", has_text="POST /v1/parse")).to_contain_text('"win_tile": "5m"')
    cut = page.evaluate("""() => [...document.querySelectorAll('main *')]
        .filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
        .map((e) => e.tagName)""")
    assert cut == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "phone-docs.png")


def test_a_busy_server_is_not_asked_again_and_again(browser: Browser, server: Server) -> None:
    """A shared link with a heavy overlay: the page validates it once, shows the 503 and a
    retry button, and taps on the pad do not send it again."""
    page = browser.new_page(viewport=PHONE)            # type: ignore[arg-type]
    asked: list[str] = []

    def busy(route: Any) -> None:
        asked.append(route.request.url)
        route.fulfill(status=503, headers={"Retry-After": "1"}, content_type="application/json",
                      body=json.dumps({"error": {"field": "body", "message":
                                                 "scoring took longer than the 5 s limit"}}))
    page.route("**/v1/validate", busy)
    page.goto(server.url + "/?overlay=" + quote("extends: tianjin\nname: heavy\n") + "&hand=46m")
    status = page.locator("#overlay-status")
    expect(status).to_contain_text("伺服器忙")
    for t in ["1s", "2s", "3s", "4s"]:
        page.locator(f'#pad [data-tile="{t}"]').click()
    expect(page.locator("#hand-count")).to_have_text("6/13")
    page.wait_for_timeout(400)                          # past the 120 ms the page waits to ask
    assert len(asked) == 1
    page.unroute("**/v1/validate")
    status.locator("button.retry").click()              # the player asks again: it loads
    expect(status).to_contain_text("✓ heavy")
    assert len(asked) == 1
