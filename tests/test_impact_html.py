"""`rulekit simulate --versus OTHER --html FILE`: one self-contained page, opened in a real
headless Chromium (Playwright, as tests/serve/test_serve_browser.py), with the rule diff, its
tables and its plots. Screenshots at phone and desktop widths go to artifacts/screenshots/
(ignored by git), for people to look at."""
from __future__ import annotations

import io
import os
import re
from pathlib import Path
from typing import Iterator

import pytest

from rulekit.cli import main

if os.environ.get("RULEKIT_NO_BROWSER") == "1":
    pytest.skip("RULEKIT_NO_BROWSER=1: browser tests skipped on request", allow_module_level=True)

from playwright.sync_api import Browser  # noqa: E402

import chromium  # noqa: E402
from chromium import SHOTS  # noqa: E402

OVERLAY = ("extends: tianjin\nname: hd3\nscoring: {multiply: {hun_diao: 3}}\n"
           "kong_points: {concealed: 3, golden: 6}\n")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("impact")
    (d / "hd3.yaml").write_text(OVERLAY, encoding="utf-8")
    page = d / "report.html"
    code = main(["simulate", "-r", str(d / "hd3.yaml"), "--versus", "tianjin", "--hands", "64",
                 "--seed", "3", "--html", str(page)], out=io.StringIO())
    assert code == 0
    return page


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from chromium.launched()


def test_the_page_needs_nothing_from_outside(report: Path) -> None:
    text = report.read_text(encoding="utf-8")
    assert "<script" not in text and "<link" not in text and "<img" not in text
    # the only URL is SVG's namespace, which is a name, not a fetch
    assert set(re.findall(r"https?://[^\s\"']+", text)) == {"http://www.w3.org/2000/svg"}


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_the_page_shows_the_rule_diff_tables_and_plots(report: Path, browser: Browser,
                                                       size: tuple[int, int]) -> None:
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url))
    page.goto(report.as_uri())
    assert fetched == [report.as_uri()]                     # nothing else was requested
    assert page.title() == "hd3 against tianjin"
    rules = page.locator("#rules tbody tr")
    keys = [rules.nth(i).locator("td").first.inner_text() for i in range(rules.count())]
    assert keys == ["kong_points.concealed", "kong_points.golden", "scoring.multiply.hun_diao"]
    hun = rules.nth(2).locator("td")
    assert [hun.nth(i).inner_text() for i in range(4)] == \
        ["scoring.multiply.hun_diao", "翻倍 混吊", "3", "2"]
    assert int(hun.nth(4).inner_text()) > 0                 # 混吊 fires in most hands
    # greedy players never kong four hun: the 金杠 difference is a visible warning
    assert "kong_points.golden (金杠分) never fired" in page.locator(".warning").first.inner_text()
    assert "Differences read FIRST − OTHER: hd3 minus tianjin" in \
        page.locator(".reading").inner_text()
    for table in ("effect", "money", "first-rates", "first-patterns", "first-sessions",
                  "other-rates", "other-patterns", "other-sessions"):
        assert page.locator(f"#{table} tbody tr").count() >= 2, table
        assert page.locator(f"#{table}").is_visible(), table
    assert page.locator("#plot-fan svg rect").count() >= 4       # two series, several fans
    assert page.locator("#plot-money svg circle").count() == 8   # 4 seats × 2 rulesets
    assert page.locator("#plot-sessions svg rect").count() == 8
    for plot in ("plot-fan", "plot-money", "plot-sessions"):
        box = page.locator(f"#{plot} svg").bounding_box()
        assert box is not None and box["width"] > 200 and box["width"] <= size[0], plot
    # nothing sticks out sideways on a phone: wide tables scroll inside their own box
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size[0]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"impact-{size[0]}x{size[1]}.png"), full_page=False)
    page.screenshot(path=str(SHOTS / f"impact-{size[0]}x{size[1]}-full.png"), full_page=True)
    page.close()
