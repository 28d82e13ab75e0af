"""What `rulekit serve --rulesets DIR` checks before it listens: every ruleset it will offer
by name loads. A broken file would otherwise be listed by /v1/rulesets and answer every
request with 422; refusing to start names the file and line while someone is watching."""
from __future__ import annotations

from pathlib import Path

from rulekit import api
from rulekit.errors import RulesetError
from rulekit.serve.registry import NAME


def check_rulesets_dir(folder: Path) -> int:
    """How many rulesets the folder offers; `RulesetError` with every problem of every file
    that does not load (the ones the registry would list: `*.yaml` with a plain name)."""
    problems: list[str] = []
    count = 0
    for path in sorted(folder.glob("*.yaml")):
        if not NAME.fullmatch(path.stem):
            continue
        count += 1
        try:
            api.load_ruleset(path)
        except RulesetError as err:
            problems += err.problems
    if problems:
        raise RulesetError([f"serve: --rulesets {folder}: a ruleset does not load, so it "
                            "would fail every request; fix it or move it out", *problems])
    return count
