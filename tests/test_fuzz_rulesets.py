"""Seeded fuzzing of rulesets: random mutations of the built-in YAML files and of their DSL
patterns are loaded and, when they load, used to score a few hands. Only `RulekitError`
may come out (issue 9: no input or ruleset can crash or hang rulekit).

Deterministic (random.Random with fixed seeds); a failure prints the seed, the case number
and the mutated text, so it replays. Each case has a 10 s alarm: a hang fails the test.
"""
from __future__ import annotations

import copy
import json
import random
import re
import signal
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

import rulekit
from rulekit import resources
from rulekit.dsl import compile as dsl_compile
from rulekit.errors import RulekitError
from rulekit.ruleset import yamlmarks
from rulekit.ruleset.model import Ruleset, load_text

YAML_CASES = 400
DSL_CASES = 1600

HANDS: list[dict[str, Any]] = [
    {"hand": "46m 123456789s 22z", "win_tile": "5m", "indicator": "7p"},      # no hun
    {"hand": "46m 123456s 22z 788p", "win_tile": "5m", "indicator": "7p"},    # three hun
    {"hand": "111z 222z 333z 44z 5z", "win_tile": "5z", "indicator": "1m"},   # honours
    {"hand": "123m 456p 789s 1234z", "win_tile": "5z", "indicator": "7p"},    # no win
]

_PALETTE = list("&*<>:{}[]-!|'\"#%@?,.\t\n 0123456789abcxyz_") + ["\u6df7", "\ufeff", "\x85"]
_NUMBERS = ["0", "-1", "0.5", "-0.0", "1e999", "1.0e999", ".inf", "-.inf", ".nan", "9" * 40,
            "99999999", "1_000", "0x1F", "0o17", "12:30", "true", "~", "''"]
_YAML_BITS = ["&a ", "*a", "<<: ", "!!python/object:os.system ", "!!binary ", "? ", "---\n",
              "%YAML 1.1\n", "- ", "{", "}", "[", "]", "|\n", ">-\n", "\"\\ud800\"", "0x1F: "]
_DSL_BITS = ["not ", " and ", " or ", "(", ")", "[", "]", "some q in hand.tiles: ",
             "every g in groups: ", "count(t in hand.tiles: ", "1f", "8f", "9z", "0", "-",
             "99999999999", "*", "+", " in ", " == ", " < ", "hand.flowers", "win.group.hun",
             "len(", "distinct(", "x", ",", ":", ".", "groups", "suits", "hun.held", "run(",
             "set(", "pair(", "is_hun(", "true", "false", "tiliu", "long", "#", "\n"]


def _mutate_text(rng: random.Random, text: str, bits: list[str]) -> str:
    """One random edit: a flipped, deleted or duplicated span, a number, or a bit of syntax."""
    if not text:
        return rng.choice(bits)
    op = rng.randrange(6)
    i = rng.randrange(len(text))
    j = min(len(text), i + rng.randint(1, 40))
    if op == 0:
        return text[:i] + rng.choice(_PALETTE) + text[i + 1:]
    if op == 1:
        return text[:i] + text[j:]
    if op == 2:
        k = rng.randrange(len(text))
        return text[:k] + text[i:j] * rng.randint(1, 3) + text[k:]
    if op == 3:
        numbers = list(re.finditer(r"\d+(\.\d+)?", text))
        if numbers:
            m = rng.choice(numbers)
            return text[:m.start()] + rng.choice(_NUMBERS) + text[m.end():]
        return text + rng.choice(_NUMBERS)
    if op == 4:
        return text[:i] + rng.choice(bits) + text[i:]
    depth = rng.choice([2, 10, 40, 200])
    return text[:i] + rng.choice(["[", "{a: ", "- ", "(", "not "]) * depth + text[i:]


def _mutate_dsl(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(8)
        if op == 0:
            text = f"not ({text})"
        elif op == 1:
            over = rng.choice(["hand.tiles", "groups", "suits"])
            text = f"some q{rng.randrange(3)} in {over}: ({text})"
        elif op == 2:
            text = f"({text}) and ({text})"
        elif op == 3:
            text = f"count(q in hand.tiles: {text}) > {rng.choice(['0', '1', '99999999999'])}"
        else:
            text = _mutate_text(rng, text, _DSL_BITS)
    return text


@pytest.fixture
def fast_loading(monkeypatch: pytest.MonkeyPatch) -> None:
    """Memoise the parent files' YAML and the unchanged patterns' parses, so that each case
    costs only its own mutation (a copy is handed out: callers may change what they get)."""
    real_load = yamlmarks.load
    real_parse = dsl_compile.parse

    @lru_cache(maxsize=64)
    def cached_load(text: str, name: str) -> Any:
        return real_load(text, name)

    def load(text: str, name: str) -> Any:
        if name.startswith("rulesets/"):
            return copy.deepcopy(cached_load(text, name))
        return real_load(text, name)

    monkeypatch.setattr(yamlmarks, "load", load)
    monkeypatch.setattr(dsl_compile, "parse", lru_cache(maxsize=512)(real_parse))


def _alarm(seconds: int) -> Iterator[None]:
    def fire(signum: int, frame: Any) -> None:
        raise TimeoutError(f"case ran over {seconds} s")
    old = signal.signal(signal.SIGALRM, fire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _exercise(make: Callable[[], Ruleset], what: str) -> bool:
    """Load and score; True when it loaded. Anything but a RulekitError fails with `what`."""
    gen = _alarm(10)
    next(gen)
    try:
        try:
            rs = make()
        except RulekitError:
            return False
        for doc in HANDS:
            try:
                result = rulekit.score(doc, rs).to_dict()
                json.dumps(result, allow_nan=False)
            except RulekitError:
                pass
        return True
    except Exception as exc:  # noqa: BLE001 - the point of the test
        pytest.fail(f"{type(exc).__name__}: {str(exc)[:300]} on {what[:2000]!r}")
    finally:
        gen.close()


def _builtin_files() -> list[Path]:
    return sorted(resources.rulesets_dir().glob("*.yaml"))


def test_mutated_builtin_yaml_never_crashes(fast_loading: None) -> None:
    rng = random.Random(9001)
    files = [(p, p.read_text(encoding="utf-8")) for p in _builtin_files()]
    loaded = 0
    for case in range(YAML_CASES):
        path, text = files[case % len(files)]
        for _ in range(rng.randint(1, 3)):
            text = _mutate_text(rng, text, _YAML_BITS)
        loaded += _exercise(lambda: load_text(text, path, "fuzz.yaml"),
                            f"seed 9001 case {case} ({path.name}): {text}")
    # the mutations must leave some rulesets valid, or scoring was never fuzzed
    assert 0 < loaded < YAML_CASES


def _pattern_texts() -> list[str]:
    import yaml
    texts = []
    for path in _builtin_files():
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for section in ("patterns", "forbid", "instant_win"):
            texts += [e["when"] for e in (data.get(section) or {}).values()]
    return texts


def test_mutated_patterns_never_crash(fast_loading: None) -> None:
    rng = random.Random(4242)
    texts = _pattern_texts()
    parent = resources.rulesets_dir() / "fuzz.yaml"        # where the overlay would sit
    # over tianjin (9 valued patterns): with a fresh ruleset per case, the fan bounds of
    # tianjin-flowers (12) would dominate the run
    loaded = 0
    for case in range(DSL_CASES):
        when = _mutate_dsl(rng, rng.choice(texts))
        overlay = ("extends: tianjin\nname: fuzz\npatterns:\n  fuzz:\n    name: fuzz\n"
                   f"    when: {json.dumps(when)}\nscoring:\n  add: {{fuzz: 1}}\n")
        loaded += _exercise(lambda: load_text(overlay, parent, "fuzz.yaml"),
                            f"seed 4242 case {case}: {when}")
    assert 0 < loaded < DSL_CASES
