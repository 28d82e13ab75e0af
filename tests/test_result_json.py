"""`ScoreResult.to_json`: the text `rulekit score --jsonl` writes, built from memoised pieces.

It must be byte for byte what the strict encoder makes of `to_dict()` (`jsonio.dumps`), and
decline (None) where that encoder would refuse or escape: a fan that is not finite, a text
holding a lone surrogate.
"""
from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

import rulekit
from rulekit import jsonio
from rulekit.cli import main
from rulekit.corpus import random_hand
from rulekit.scoring import ScoreResult

BUILTINS = ["tianjin", "tianjin-flowers", "tianjin-gold8", "tianjin-3p", "tianjin-dianpao",
            "tianjin-laizi", "tianjin-street"]


@pytest.mark.parametrize("name", BUILTINS)
def test_to_json_is_the_strict_encoding_of_to_dict(name: str) -> None:
    rs = rulekit.load_ruleset(name)
    rng = random.Random(name)
    shapes = set()
    for _ in range(300):
        doc = random_hand(rng, hun_kinds_count=rs.hun_kinds, max_hun=7)
        try:
            r = rulekit.score(doc, rs)
        except rulekit.HandError:
            continue                    # a document this variant refuses (win_by, melds)
        assert r.to_json() == jsonio.dumps(r.to_dict())
        shapes.add((r.win, bool(r.groups), bool(r.kongs), r.reason))
    assert len(shapes) >= 3             # wins, refusals and results without a shape seen


def test_every_kind_of_value_is_written_as_json_writes_it() -> None:
    r = ScoreResult(True, 2.5, 8, 10.5, ("a", "b"), ("雙 \"q\"", "\\"), ("x = 1",),
                    None, "5m", (), ("golden", "exposed"))
    text = r.to_json()
    assert text == json.dumps(r.to_dict(), ensure_ascii=False)
    assert text is not None and '"hand_fan": 2.5' in text and '"雙 \\"q\\""' in text


def test_a_fan_that_is_not_finite_or_a_lone_surrogate_is_left_to_the_strict_encoder() -> None:
    assert ScoreResult(True, float("inf"), 0, 1, (), (), ()).to_json() is None
    odd = ScoreResult(True, 1, 0, 1, ("p",), ("\ud800",), ())
    assert odd.to_json() is None
    assert jsonio.dumps(odd.to_dict()).count("\\ud800") == 1      # escaped, valid UTF-8


def test_score_jsonl_writes_the_same_lines_as_before(tmp_path: Path) -> None:
    """The command's output equals `jsonio.dumps(score(doc).to_dict())` per line."""
    rng = random.Random(11)
    docs = [random_hand(rng, max_hun=5) for _ in range(60)]
    path = tmp_path / "hands.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    out = io.StringIO()
    assert main(["score", "--jsonl", str(path)], out=out) == 0
    want = [jsonio.dumps(rulekit.score(d).to_dict()) for d in docs]
    assert out.getvalue().splitlines() == want


def test_a_ruleset_name_with_a_lone_surrogate_is_written_escaped(tmp_path: Path) -> None:
    """A pattern's display name from a YAML escape ("\\ud800") cannot be UTF-8: the line is
    written by the strict encoder, every non-ASCII character escaped."""
    rs_path = tmp_path / "odd.yaml"
    rs_path.write_text('extends: tianjin\nname: odd\npatterns:\n  long:\n    name: "\\ud800龍"\n',
                       encoding="utf-8")
    hands = tmp_path / "h.jsonl"
    hands.write_text(json.dumps({"indicator": "7p", "hand": "46m123456789s22z",
                                 "win_tile": "5m"}) + "\n", encoding="utf-8")
    out = io.StringIO()
    code = main(["--allow-extends-outside", "score", "--jsonl", str(hands), "--ruleset",
                 str(rs_path)], out=out)
    line = out.getvalue()
    assert code == 0, line
    assert "\\ud800\\u9f8d" in line and line.isascii()
    assert json.loads(line)["pattern_names"] == ["捉5", "\ud800龍", "素"]


def test_group_json_is_the_groups_view() -> None:
    r = rulekit.score({"indicator": "7p", "hand": "46m123456789s22z", "win_tile": "5m"})
    text = r.to_json()
    assert text is not None
    assert json.loads(text)["arrangement"] == [v.to_dict() for v in r.arrangement]
    assert sorted(v.tiles for v in r.arrangement) == ["123s", "22z", "456m", "456s", "789s"]


def test_score_lines_leaves_the_collector_as_it_was(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The batch collects only every COLLECT_EVERY lines while it runs (rulekit.batch); a
    library caller keeps its own collector settings afterwards."""
    import gc
    from rulekit import batch
    monkeypatch.setattr(batch, "COLLECT_EVERY", 2)
    before = gc.get_threshold()
    collected: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collected.append(info["generation"])
    gc.set_threshold(700, 10, 10)
    gc.callbacks.append(count)
    try:
        seen: list[tuple[bool, int]] = []
        data = io.BytesIO((json.dumps(LONG_DOC) + "\n").encode() * 5)

        class Out(io.StringIO):
            def write(self, text: str) -> int:
                seen.append((gc.isenabled(), len(collected)))
                return super().write(text)
        out = Out()
        assert batch.score_lines(data, out, "tianjin", outside=False) == 0
        # off while the lines run (loading the ruleset before them may have collected);
        # the middle generation collected after lines 2 and 4, and nothing else
        first = seen[0][1]
        assert [(on, n - first) for on, n in seen] == \
            [(False, 0), (False, 0), (False, 1), (False, 1), (False, 2)]
        assert collected[first:] == [1, 1] and len(out.getvalue().splitlines()) == 5
        assert gc.get_threshold() == (700, 10, 10) and gc.get_freeze_count() == 0
        assert gc.isenabled()
    finally:
        gc.callbacks.remove(count)
        gc.set_threshold(*before)


BAD_LINES = [  # each way a line fails: reading, JSON, bounds, the document, the hand
    b'{"indicator": "7p", "win_tile": "5m"}\n', b'{"indicator": 7\n', b"[1, 2]\n",
    b"\xff\xfe\n", b'{"a": "\\ud800"}\n', b"[" * 100 + b"\n", b"1e999\n",
    b'{"hand": "' + b"1" * 70000 + b'"}\n',
    b'{"indicator": "9z", "hand": "46m123456789s22z", "win_tile": "5m"}\n',
    b'{"indicator": "7p", "hand": "46m123456789s22z", "win_tile": "5m", "melds": 3}\n',
    b'{"indicator": "7p", "hand": "46m123456789s22z", "win_tile": "5m", "win_by": "x"}\n',
    b'{"indicator": "7p", "hand": "46m123456789s22z", "win_tile": "5m", "flowers": "9f"}\n',
    b'{"indicator": "7p", "hand": "46m123456789s22\xe9\xbe\x8d", "win_tile": "5m"}\n']


def test_bad_lines_leave_no_cyclic_garbage() -> None:
    """What lets the batch run with the collector off between rare collections: a failing
    line (each kind) leaves nothing that only the collector could free, so a stream of
    hostile lines cannot pile up memory while it is off."""
    import gc
    from rulekit import batch
    rulekit.load_ruleset("tianjin")
    gc.collect()
    gc.disable()                    # so that no automatic collection hides what is left
    try:
        out = io.StringIO()
        assert batch.score_lines(io.BytesIO(b"".join(BAD_LINES) * 50), out, "tianjin",
                                 outside=False) == 50 * len(BAD_LINES)
        assert all('"error"' in line for line in out.getvalue().splitlines())
        assert gc.collect() == 0
    finally:
        gc.enable()


LONG_DOC = {"indicator": "7p", "hand": "46m123456789s22z", "win_tile": "5m"}
