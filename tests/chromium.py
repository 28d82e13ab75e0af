"""Debian's Chromium under Playwright, for every browser test (the calculator, the tables,
the impact report): one launch, one set of flags, one place for the screenshots.

A missing browser fails these tests (CI installs it): only RULEKIT_NO_BROWSER=1, set by hand,
skips them, in each test module before it imports this one.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest
from playwright.sync_api import Browser, sync_playwright

CHROMIUM = os.environ.get("RULEKIT_CHROMIUM", "/usr/bin/chromium")
# as this machine's browser needs them headless, as root, with no network beyond loopback
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "screenshots"   # not committed
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def launched() -> Iterator[Browser]:
    """A module's browser (`yield from` it in a fixture): launched once, closed after."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: `apt-get install chromium` (or set "
                    f"RULEKIT_CHROMIUM), or RULEKIT_NO_BROWSER=1 to skip these tests")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
