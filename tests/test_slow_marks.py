"""Every entry of conftest.SLOW names a test file, or a test function in it, that exists: a
renamed test must not drop out of the quick loop's exclusions unnoticed."""
from __future__ import annotations

import re
from pathlib import Path

from conftest import SLOW

ROOT = Path(__file__).resolve().parent.parent


def test_every_slow_entry_names_a_test_that_exists() -> None:
    missing = []
    for entry in sorted(SLOW):
        path, _, name = entry.partition("::")
        source = ROOT / path
        if not source.is_file() or (
                name and not re.search(rf"^def {re.escape(name)}\(", source.read_text(
                    encoding="utf-8"), re.M)):
            missing.append(entry)
    assert missing == [] and len(SLOW) > 40
