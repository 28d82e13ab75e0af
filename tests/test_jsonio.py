"""rulekit.jsonio: bounded JSON reading and strict JSON writing (issue 9, item 3)."""
from __future__ import annotations

import functools
import io
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.jsonio import JsonError, dumps, encode, iter_lines, read_document
from rulekit.limits import DOC_BYTES, JSON_DEPTH
from conftest import examples


def test_reads_bytes_and_text_alike() -> None:
    doc = {"hand": "東南", "n": [1, 2.5, None, True]}
    assert read_document('{"hand": "東南", "n": [1, 2.5, null, true]}') == doc
    assert read_document('\ufeff{"hand": "東南", "n": [1, 2.5, null, true]}'.encode()) == doc


def test_depth_is_bounded_at_the_limit() -> None:
    assert read_document("[" * JSON_DEPTH + "]" * JSON_DEPTH) is not None
    with pytest.raises(JsonError, match="nested deeper than 32 levels at character 33"):
        read_document("[" * (JSON_DEPTH + 1) + "]" * (JSON_DEPTH + 1))
    # brackets inside strings are not nesting
    assert read_document('["' + "[" * 100 + '"]') == ["[" * 100]


@pytest.mark.parametrize("text, words", [
    ('{"a": "\\ud800"}', "lone surrogate"),
    ('{"\\udc00": 1}', "lone surrogate"),
    ("1" * 31, "more than 30 digits"),
    ("-" + "1" * 31, "more than 30 digits"),
    ("[NaN]", "NaN is not a JSON number"),
    ("Infinity", "Infinity is not a JSON number"),
    ("-1e999", "a number out of range (-1e999)"),
])
def test_refused_values(text: str, words: str) -> None:
    with pytest.raises(JsonError, match=words.replace("(", r"\(").replace(")", r"\)")):
        read_document(text)


def test_a_surrogate_pair_is_one_character() -> None:
    assert read_document('"\\ud83c\\udc04"') == "\U0001f004"        # 🀄


def test_thirty_digits_is_fine() -> None:
    assert read_document("9" * 30) == int("9" * 30)


def test_syntax_errors_are_located() -> None:
    with pytest.raises(JsonError) as info:
        read_document('{\n  "a": 1,\n  "b" 2}')
    assert (info.value.line, info.value.column) == (3, 7)
    assert info.value.located("x.json") == "x.json:3:7: invalid JSON: Expecting ':' delimiter"


def test_iter_lines_keeps_going_after_every_kind_of_bad_line() -> None:
    data = b"\n".join([b"1", b"\xff", b"", b"  ", b"[" * 40, b"x" * (DOC_BYTES + 10), b"2",
                       b"3\r"])
    got = list(iter_lines(io.BytesIO(data)))
    assert [(n, doc) for n, doc, _ in got] == [(1, 1), (2, None), (5, None), (6, None),
                                              (7, 2), (8, 3)]
    assert [err.split(":")[0] if err else None for _, _, err in got] == [
        None, "line 2", "line 5", "line 6", None, None]
    assert "document too large" in (got[3][2] or "")


def test_dumps_is_strict_and_utf8() -> None:
    assert dumps({"a": "捉5"}) == '{"a": "捉5"}'
    with pytest.raises(JsonError, match="not finite"):
        dumps({"a": float("nan")})
    assert dumps("\ud800") == '"\\ud800"'          # never an unencodable character


def test_encode_is_as_strict_as_dumps_and_compact() -> None:
    """The server's encoder (orjson where it is strict): the same values, no spaces."""
    from rulekit import jsonio
    assert jsonio._FAST is not None                 # the serve extra installs orjson
    assert encode({"a": "捉5", "b": [1, True]}) == '{"a":"捉5","b":[1,true]}'.encode()
    for bad in (float("nan"), float("inf"), -float("inf")):
        with pytest.raises(JsonError, match="not finite"):
            encode({"a": [1, bad]})                 # orjson alone would write null
    assert encode({"a": None}) == b'{"a":null}'
    assert encode("\ud800") == b'"\\ud800"'       # never an unencodable character
    assert json.loads(encode(10 ** 25)) == 10 ** 25   # past orjson's 64 bits


@settings(max_examples=examples(200), deadline=None)
@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12))
def test_encode_agrees_with_dumps(value: Any) -> None:
    """Any value: `encode` refuses what `dumps` refuses, else gives the same JSON value."""
    got, want = _outcome(encode, value), _outcome(dumps, value)
    assert got[0] == want[0]
    if got[0] == "value":
        assert json.loads(got[1]) == json.loads(want[1])
        got[1].decode("utf-8")                      # valid UTF-8, surrogates escaped


def test_a_raw_lone_surrogate_in_text_is_refused_like_an_escaped_one() -> None:
    # text (not bytes) can hold a surrogate without any escape: the walk is not skipped
    with pytest.raises(JsonError, match="lone surrogate"):
        read_document('{"hand": ["1m", "\ud800"]}')
    assert read_document('{"hand": "1m\\u4e94"}') == {"hand": "1m五"}


def _outcome(fn: Any, text: str) -> Any:
    try:
        return ("value", fn(text))
    except Exception as err:  # noqa: BLE001 - the exception itself is what is compared
        return (type(err).__name__, str(err))


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12)


@settings(max_examples=examples(300), deadline=None)
@given(st.one_of(_JSON.map(json.dumps), st.text(max_size=40)),
       st.sampled_from(["", " ", "\n", "x", "]", "\ufeff", "1"]), st.booleans())
def test_the_scanner_fast_path_agrees_with_json_loads(text: str, extra: str,
                                                      before: bool) -> None:
    """`read_document` scans a line that is one value with the decoder's scanner alone; any
    text at all gets the value or the error `json.loads` (with the same hooks) gives."""
    from rulekit import jsonio
    text = extra + text if before else text + extra
    loads = functools.partial(json.loads, parse_int=jsonio._int, parse_float=jsonio._float,
                              parse_constant=jsonio._constant)
    assert _outcome(jsonio._decode, text) == _outcome(loads, text)


def test_encoded_surrogates_in_bytes_are_not_utf8() -> None:
    # the surrogate scan is skipped for bytes: strict UTF-8 never decodes to a surrogate
    with pytest.raises(JsonError, match="not UTF-8: byte 0xed at offset 10"):
        read_document(b'{"hand": "\xed\xa0\x80"}')
