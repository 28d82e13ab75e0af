"""The HTTP API in process: each endpoint's answer, and each refusal as a clean JSON 4xx."""
from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

import rulekit
from rulekit.cli import main
from rulekit.serve.sheet import SERVED_HEAD
from serve.serve_helpers import HAND, SERVED, make_client
from conftest import examples

OVERLAY_MIN20 = "extends: tianjin\nname: strict\nwin:\n  minimum: 20\n"


def error(r: Any) -> dict[str, Any]:
    body = r.json()
    assert set(body) == {"error"}, body
    assert "Traceback" not in r.text
    err: dict[str, Any] = body["error"]
    return err


def test_score_is_what_the_cli_prints(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(HAND)))
    out = io.StringIO()
    assert main(["score", "--json", "-"], out=out) == 0
    r = client.post("/v1/score", content=json.dumps({"ruleset": "tianjin", "hand": HAND}))
    assert r.status_code == 200
    assert r.json() == json.loads(out.getvalue())
    # the hand of docs/api.md: (捉5 3 + 龍 4) × 素 2 = 14
    assert r.json()["total_fan"] == 14
    assert r.json()["pattern_names"] == ["捉5", "龍", "素"]


def test_score_defaults_to_tianjin_and_ignores_content_type(client: TestClient) -> None:
    r = client.post("/v1/score", content=json.dumps({"hand": HAND}),
                    headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 200 and r.json()["total_fan"] == 14


def test_batch_array_keeps_order_and_puts_errors_in_place(client: TestClient) -> None:
    docs = [{"hand": HAND}, {"hand": {**HAND, "hand": "46m1234567s22z"}},
            {"ruleset": "table7", "hand": HAND}]
    r = client.post("/v1/score:batch", json=docs)
    assert r.status_code == 200
    first, second, third = r.json()
    assert first["total_fan"] == 14
    assert second["error"]["field"] == "hand.hand"          # 11 tiles where 13 are needed
    assert third["total_fan"] == 22                         # table7: (3 + 8) × 2


def test_batch_jsonl_answers_jsonl(client: TestClient) -> None:
    body = "\n".join([json.dumps({"hand": HAND}), "{not json", json.dumps({"hand": HAND})])
    r = client.post("/v1/score:batch?ruleset=table7", content=body)
    assert r.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(x) for x in r.text.splitlines()]
    assert [x.get("total_fan") for x in lines] == [22, None, 22]
    assert lines[1]["error"]["field"] == "line 2"


def test_batch_longer_than_the_limit_is_413() -> None:
    with make_client(batch=3) as c:
        r = c.post("/v1/score:batch", json=[{"hand": HAND}] * 4)
    assert r.status_code == 413 and "at most 3" in error(r)["message"]


def test_settle_pays_the_winner(client: TestClient) -> None:
    doc = {"dealer": 0, "dealer_sits": False, "pulls": [0, 0, 0, 0], "winner": 0,
           "hand": HAND, "kongs": [[], [], [], []], "chan": False, "stake": 1}
    r = client.post("/v1/settle", json={"ruleset": "tianjin", "settle": doc})
    assert r.status_code == 200
    # 14 fan from each of the three others, no 坐莊 or 拉莊
    assert r.json()["payments"] == [42, -14, -14, -14]
    # the library's answer, each transfer with the name of its reason beside the code
    want = rulekit.settle(doc).to_dict()
    for t in want["transfers"]:
        t["why_name"] = {"zh": "和牌", "en": "the win"}
    assert r.json() == want


def test_parse_reads_a_whole_typed_hand(client: TestClient) -> None:
    cases = {
        "46m 123456789s 22z win 5m ind 7p": HAND,
        "四六萬 一二三四五六七八九條 南南 和五萬 混七筒": HAND,
        "46m123456789s22z5m": {"hand": "46m123456789s22z", "win_tile": "5m"},
        "12s9s456p777m5z 杠3p 和5z 混8s 暗杠4444m": {
            "hand": "777m456p129s5z", "win_tile": "5z", "indicator": "8s",
            "melds": [{"kind": "kong", "tiles": "3333p", "concealed": False},
                      {"kind": "kong", "tiles": "4444m", "concealed": True}]},
        "1122m3344p5566s7z 7z 混5m 花春夏秋冬梅蘭竹菊": {
            "hand": "1122m3344p5566s7z", "win_tile": "7z", "indicator": "5m",
            "flowers": "12345678f"},
        "pung 555p222z": {"hand": "", "melds": [{"kind": "pung", "tiles": "555p"},
                                                 {"kind": "pung", "tiles": "222z"}]},
    }
    for text, want in cases.items():
        r = client.post("/v1/parse", json={"text": text})
        assert r.status_code == 200, (text, r.text)
        assert r.json() == {"hand": want}, text
    # what it reads, /v1/score scores: the README hand's 14
    doc = client.post("/v1/parse", json={"text": "四六萬 123456789s 南南 和5m 混七筒"}).json()
    assert client.post("/v1/score", json=doc).json()["total_fan"] == 14
    for text, status, words in (("46m 8z", 422, "unknown tile '8z'"), ("碰55p", 422, "not a whole"),
                                ("和5m 和6m", 422, "named twice"), ("x" * 401, 413, "at most 400"),
                                ("ind 5m7m", 422, "one tile"), ("花5m", 422, "only flower")):
        r = client.post("/v1/parse", json={"text": text})
        assert r.status_code == status and words in error(r)["message"], (text, r.text)
    assert client.post("/v1/parse", json={"text": 5}).status_code == 400
    assert client.post("/v1/parse", json=[1]).status_code == 400


def test_results_name_what_a_player_reads(client: TestClient) -> None:
    # an instant win by its name (八花齊), never its id; a reason by its words
    hand = {"indicator": "5m", "hand": "1122m3344p5566s7z", "win_tile": "7z",
            "flowers": "12345678f"}
    r = client.post("/v1/score", json={"ruleset": "tianjin-flowers", "hand": hand}).json()
    assert r["pattern_names"] == ["八花齊"] and r["patterns"] == ["ba_hua_qi"]
    r = client.post("/v1/score", json={"hand": {**HAND, "win_tile": "1z"}}).json()
    assert r["reason"] == "not_a_winning_shape"
    assert r["reason_name"] == {"zh": "不成和牌", "en": "not a winning shape"}
    r = client.post("/v1/score", json={"hand": {**HAND, "discarded_hun": True}}).json()
    assert r["reason"] == "xiao_xiang_gong" and r["reason_name"]["zh"] == "小相公"
    info = client.get("/v1/rulesets").json()["rulesets"][0]
    assert info["name"] == "tianjin" and info["golden_kong"] is True and info["max_pulls"] == 2


def test_favicon_is_served(client: TestClient) -> None:
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
    assert client.get("/static/tiles.js").status_code == 200


def test_every_page_is_served_with_the_one_shared_head(client: TestClient,
                                                       tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """index.html, table.html and replay.html name what their head loads on one line;
    `static_files.page` writes the head they share (docs/serve.md)."""
    from rulekit.serve import static_files
    for path, title, css, js in (
            ("/", "天津麻將 calculator", ["result-view.css", "app.css"],
             ["tiles.js", "result-view.js", "app.js", "impact.js"]),
            ("/tables", "天津麻將 table", ["table.css", "result-view.css"],
             ["tiles.js", "result-view.js", "table-common.js", "table.js"]),
            ("/tables/someid/hands/0", "replay", ["table.css", "result-view.css"],
             ["tiles.js", "result-view.js", "table-common.js", "replay.js"])):
        html = client.get(path).text
        head, rest = html.split("</head>\n")
        assert html.startswith("<!doctype html>\n<html lang=\"zh-Hant\">\n<head>\n")
        assert f"<title>rulekit · {title}</title>" in head and "<!--" not in html[:200]
        assert re.findall(r'href="/static/([^"]+)"', head) == css
        assert re.findall(r'<script src="/static/([^"]+)" defer>', head) == js
        assert '<meta name="referrer" content="no-referrer">' in head
        assert '<link rel="icon" href="/favicon.ico"' in head
        assert rest.startswith("<body>\n") and html.count("<head>") == 1
    (tmp_path / "bare.html").write_text("<!doctype html><body></body>", encoding="utf-8")
    monkeypatch.setattr(static_files, "static_dir", lambda: tmp_path)
    with pytest.raises(ValueError, match="bare.html does not start with its <!-- head"):
        static_files.page("bare.html")


def test_settle_numbers_stay_json(client: TestClient) -> None:
    doc = {"dealer": 0, "pulls": [0, 0, 0, 0], "winner": 0, "hand": HAND,
           "kongs": [[], [], [], []], "stake": 10 ** 13}
    r = client.post("/v1/settle", json={"settle": doc})
    assert r.status_code == 200 and r.json()["payments"][0] == 42 * 10 ** 13
    r = client.post("/v1/settle", json={"settle": {**doc, "stake": 10 ** 29}})
    assert r.status_code == 422 and "over 2**53" in error(r)["message"]   # limits.AMOUNT_WHOLE
    r = client.post("/v1/settle", content=json.dumps({"settle": doc}).replace(
        str(10 ** 13), "1" * 31))
    assert r.status_code == 400                     # rulekit.jsonio's bound, limits.INT_DIGITS
    assert error(r)["message"] == "invalid JSON: an integer of more than 30 digits"
    r = client.post("/v1/settle", json={"settle": {**doc, "stake": 1e307}})
    assert r.status_code in (422, 200), r.text      # never a 500, never "Infinity"
    assert "Infinity" not in r.text


def test_settle_error_names_the_field(client: TestClient) -> None:
    doc = {"dealer": 0, "pulls": [0, 0, 0], "winner": 0, "hand": HAND,
           "kongs": [[], [], [], []], "stake": 1}
    r = client.post("/v1/settle", json={"settle": doc})
    assert r.status_code == 422 and error(r)["field"].startswith("settle.pulls")


def test_waits_gives_each_tile_its_value(client: TestClient) -> None:
    r = client.post("/v1/waits", json={"hand": {"indicator": "7p", "hand": "46m123456789s1z7p"}})
    assert r.status_code == 200
    got = {w["tile"]: (w["total_fan"], w["pattern_names"]) for w in r.json()["waits"]}
    # docs/api.md's waits; 5m: 捉5 3 + 龍 4 (the held 7p hun keeps it from 素); 1z: 龍 alone
    assert got == {"5m": (7, ["捉5", "龍"]), "7p": (7, ["捉5", "龍"]),
                   "8p": (7, ["捉5", "龍"]), "1z": (4, ["龍"])}


def test_rulesets_lists_builtins_and_served(client: TestClient) -> None:
    listed = {r["name"]: r for r in client.get("/v1/rulesets").json()["rulesets"]}
    assert listed["tianjin"]["origin"] == "builtin" and listed["table7"]["origin"] == "served"
    assert listed["tianjin"]["players"] == 4 and listed["tianjin-3p"]["players"] == 3
    assert listed["tianjin"]["win_by"] == ["kong_draw", "self_draw"]


def test_one_ruleset_has_its_merged_yaml(client: TestClient) -> None:
    r = client.get("/v1/rulesets/table7")
    body = r.json()
    assert r.status_code == 200 and body["chain"][-1] == "rulesets/tianjin.yaml"
    assert "minimum: 4" in body["yaml"] and "long: 8" in body["yaml"]
    assert {"id": "long", "name": "龍"} in body["patterns"]


@pytest.mark.parametrize("name,status", [("no-such", 404), ("..%2F..%2Fetc%2Fpasswd", 400),
                                         ("../tianjin", 400), ("tianjin.yaml", 400)])
def test_ruleset_names_never_reach_files(client: TestClient, name: str, status: int) -> None:
    r = client.post("/v1/score", json={"ruleset": name.replace("%2F", "/"), "hand": HAND})
    assert r.status_code == status and error(r)["field"] == "ruleset"
    # in a URL, the client may fold "../" away before sending: any clean 4xx then
    r = client.get(f"/v1/rulesets/{name}")
    assert r.status_code == (status if "%2F" in name or "/" not in name else r.status_code)
    assert 400 <= r.status_code < 500 and error(r)["message"]


def test_inline_overlay_is_compiled_and_cached(client: TestClient) -> None:
    # compiled in the overlay pool's workers: the same text goes to the same worker
    pool = client.app.state.overlays  # type: ignore[attr-defined]
    client.get("/healthz")
    before = pool.stats()["cached"]
    for _ in range(3):
        r = client.post("/v1/score", json={"ruleset_yaml": OVERLAY_MIN20, "hand": HAND})
        assert r.json()["win"] is False and r.json()["reason"] == "below_minimum"
    assert pool.stats()["cached"] == before + 1
    assert client.get("/healthz").json()["inline_cached"] == before + 1


def test_inline_overlay_may_extend_a_served_ruleset(client: TestClient) -> None:
    text = "extends: table7\nname: table7-strict\nwin:\n  minimum: 30\n"
    r = client.post("/v1/score", json={"ruleset_yaml": text, "hand": HAND})
    assert r.status_code == 200 and r.json()["hand_fan"] == 22 and not r.json()["win"]


@pytest.mark.parametrize("target", ["/etc/passwd", "../../rulesets/tianjin.yaml",
                                    "tianjin.yaml", str(SERVED / "table7.yaml")])
def test_inline_extends_may_not_name_a_file(client: TestClient, target: str) -> None:
    text = f"name: x\nextends: {json.dumps(target)}\n"
    r = client.post("/v1/score", json={"ruleset_yaml": text, "hand": HAND})
    err = error(r)
    assert r.status_code == 422 and err["field"] == "ruleset_yaml"
    assert err["message"].startswith("<inline>:2: extends:")


def test_both_ruleset_and_overlay_is_400(client: TestClient) -> None:
    r = client.post("/v1/score", json={"ruleset": "tianjin", "ruleset_yaml": OVERLAY_MIN20,
                                       "hand": HAND})
    assert r.status_code == 400


def test_alias_bomb_is_refused_at_its_line(client: TestClient) -> None:
    bomb = "extends: tianjin\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a]\n" \
           "c: &c [*b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c]\n"
    r = client.post("/v1/score", json={"ruleset_yaml": bomb, "hand": HAND})
    assert r.status_code == 422
    assert error(r)["message"].startswith("<inline>:2: YAML anchors (&a) are not allowed")


def test_pattern_over_the_work_budget_is_refused(client: TestClient) -> None:
    when = "some a in hand.tiles: some b in hand.tiles: some c in hand.tiles: " \
           "some d in hand.tiles: some e in hand.tiles: a == b and c == d and d == e"
    text = f"extends: tianjin\npatterns:\n  slow:\n    name: slow\n    when: \"{when}\"\n"
    r = client.post("/v1/score", json={"ruleset_yaml": text, "hand": HAND})
    assert r.status_code == 422 and "too costly" in error(r)["message"]
    assert error(r)["message"].startswith("<inline>:5:12: patterns.slow.when: pattern 'slow'")
    assert "(at most 100,000)" in error(r)["message"]     # the library's budget by default


def test_overlay_with_several_problems_names_the_first_and_lists_all(client: TestClient
                                                                     ) -> None:
    when = " or ".join(["true"] * 1200)            # 9,596 characters: limits.DSL_CHARS is 4,000
    text = f"extends: tianjin\npatterns:\n  x:\n    name: x\n    when: \"{when}\"\n"
    r = client.post("/v1/score", json={"ruleset_yaml": text, "hand": HAND})
    err = error(r)
    assert r.status_code == 422 and len(err["problems"]) == 2
    assert [p["line"] for p in err["problems"]] == [5, 5]
    assert err["message"].startswith("<inline>:5")
    assert err["message"].endswith(" (and 1 more)")
    assert "pattern too long (9596 characters; at most 4000)" in err["problems"][1]["message"]


def _nested(depth: int) -> str:
    """An overlay whose one pattern nests `depth` loops over hand.tiles, on line 5; dsl/walk.py and dsl/budget.py
    counts 1,371 steps for 2 levels, 24,699 for 3 and 444,603 for 4."""
    when = ": ".join(f"some v{i} in hand.tiles" for i in range(depth)) + f": v0 == v{depth - 1}"
    return f"extends: tianjin\npatterns:\n  loops:\n    name: loops\n    when: \"{when}\"\n"


@pytest.mark.parametrize("work,depth,status", [
    (24_699, 3, 200), (24_698, 3, 422), (1_371, 2, 200), (1_370, 2, 422),
    (10 ** 9, 4, 422)])          # --max-work never raises the library's 100,000
def test_max_work_lowers_the_library_budget(work: int, depth: int, status: int) -> None:
    with make_client(work=work) as c:
        r = c.post("/v1/score", json={"ruleset_yaml": _nested(depth), "hand": HAND})
    assert r.status_code == status, r.text
    if status == 422:
        bound = f"{min(work, 100_000):,}"
        assert error(r)["message"].startswith("<inline>:5:12: patterns.loops.when: pattern "
                                              f"'loops' too costly")
        assert f"(at most {bound})" in error(r)["message"]


def test_max_work_holds_only_inside_its_block() -> None:
    from rulekit.dsl import budget
    assert budget.pattern_budget() == 100_000
    with budget.stricter(500):
        assert budget.pattern_budget() == 500
    assert budget.pattern_budget() == 100_000
    with budget.stricter(10 ** 9):
        assert budget.pattern_budget() == 100_000
    # a strict server's refusal leaves the thread that loaded the overlay at the library's
    from rulekit.serve.errors import ApiError
    from rulekit.serve.limits import ServeConfig, ServeLimits
    from rulekit.serve.registry import Registry
    reg = Registry(ServeConfig(limits=ServeLimits(work=200)))
    with pytest.raises(ApiError) as refused:
        reg.inline(_nested(2))
    assert refused.value.status == 422 and "(at most 200)" in refused.value.message
    assert budget.pattern_budget() == 100_000
    # the parent's patterns are held to it too: tianjin's costliest takes 138 steps
    assert reg.inline("extends: tianjin\nname: t\n").name == "t"


def test_overlay_larger_than_its_limit_is_413() -> None:
    with make_client(ruleset_bytes=100) as c:
        r = c.post("/v1/score", json={"ruleset_yaml": "#" * 101, "hand": HAND})
    assert r.status_code == 413 and error(r)["field"] == "ruleset_yaml"


def test_body_larger_than_its_limit_is_413() -> None:
    with make_client(body_bytes=1000) as c:
        r = c.post("/v1/score", content=b"{" + b" " * 2000 + b"}")
    assert r.status_code == 413 and error(r)["field"] == "body"


def test_deep_json_is_413_before_parsing(client: TestClient) -> None:
    r = client.post("/v1/score", content=b"[" * 100_000 + b"]" * 100_000)
    assert r.status_code == 413 and "nested deeper" in error(r)["message"]


def test_json_is_read_by_the_library(client: TestClient) -> None:
    # the messages are rulekit.jsonio's, the same the CLI prints for a document
    r = client.post("/v1/score", content=b'{"hand": ')
    assert (r.status_code, error(r)["message"]) == (
        400, "invalid JSON: Expecting value at line 1 column 10")
    r = client.post("/v1/score", content=b'{"hand": {"indicator": "\\ud800"}}')
    assert r.status_code == 400 and "lone surrogate" in error(r)["message"]
    r = client.post("/v1/score", content=b"[" * 33 + b"]" * 33)
    assert (r.status_code, error(r)["message"]) == (
        413, "invalid JSON: nested deeper than 32 levels at character 33")
    # a batch array holds documents one level down, so it may nest one level more
    r = client.post("/v1/score:batch", content=b"[" * 33 + b"]" * 33)
    assert r.status_code == 200 and r.json()[0]["error"]["field"] == "body"
    # one loader, one meaning (issue 18 item 5): a key twice is refused, not read as the last
    r = client.post("/v1/score", content=b'{"ruleset": "tianjin", "ruleset": "tianjin-gold8", '
                                         b'"hand": {}}')
    assert (r.status_code, error(r)["message"]) == (
        400, "invalid JSON: duplicate key 'ruleset'")


def test_a_request_may_be_larger_than_one_cli_document() -> None:
    # rulekit.limits.DOC_BYTES (64 KiB) bounds a CLI document; a request's bound is --max-body
    overlay = "extends: tianjin\nname: long\n" + "# a long comment\n" * 5000
    with make_client(ruleset_bytes=200_000) as c:
        r = c.post("/v1/score", json={"ruleset_yaml": overlay, "hand": HAND})
    assert len(overlay) > 64 * 1024 and r.status_code == 200, r.text


@pytest.mark.parametrize("body,status,field", [
    (b"{\"hand\": ", 400, "body"),
    (b"[1, 2]", 400, "body"),
    (b"{\"hand\": 3}", 400, "hand"),
    (b"{\"hand\": " + b"1" * 5000 + b"}", 400, "body"),
    (b"{\"hand\": {\"indicator\": \"7p\", \"stake\": 1e999}}", 400, "body"),
    (b"{\"hand\": NaN}", 400, "body"),
    (b"{\"hand\": {\"indicator\": \"7p\", \"hand\": \"46m123456789s22q\", \"win_tile\": \"5m\"}}",
     422, "hand"),
    (b"{\"hand\": {\"indicator\": \"7p\", \"hand\": \"46m123456789s22z\"}}", 422,
     "hand.win_tile"),
])
def test_bad_documents(client: TestClient, body: bytes, status: int, field: str) -> None:
    r = client.post("/v1/score", content=body)
    assert r.status_code == status and error(r)["field"].startswith(field)


def test_unknown_paths_and_methods_answer_json(client: TestClient) -> None:
    assert client.get("/v1/nothing").status_code == 404
    r = client.get("/v1/score")
    assert r.status_code == 405 and error(r)["field"] == "path"


def test_time_limit_answers_503() -> None:
    with make_client(seconds=0.001) as c:
        r = c.post("/v1/score:batch", json=[{"hand": HAND}] * 1000)
    assert r.status_code == 503 and "limit" in error(r)["message"]


def test_validate_reports_every_problem_with_its_line(client: TestClient) -> None:
    text = ("extends: tianjin\nname: broken\npatterns:\n  bad:\n    name: 壞\n"
            "    when: \"some s in suits: run(s, 1) and\"\nwin:\n  minimum: many\n")
    r = client.post("/v1/validate", json={"ruleset_yaml": text})
    body = r.json()
    assert r.status_code == 200 and body["ok"] is False
    lines = {p["line"] for p in body["problems"]}
    assert 6 in lines and 8 in lines, body


def test_validate_accepts_raw_yaml_and_says_ok(client: TestClient) -> None:
    r = client.post("/v1/validate", content=OVERLAY_MIN20.encode(),
                    headers={"content-type": "application/yaml"})
    body = r.json()
    assert body["ok"] is True and body["name"] == "strict"
    assert body["chain"] == ["<inline>", "rulesets/tianjin.yaml"]


ONE_HUN = "extends: tianjin\nname: one-hun\nhun: {kinds: 1}\ngame: {single_hun: successor}\n"


def test_the_hun_of_each_indicator_is_the_rulesets(client: TestClient) -> None:
    """The calculator shows `hun_of` and never derives hun itself: two kinds under tianjin,
    the successor alone under game.single_hun: successor, and a score that agrees."""
    info = client.get("/v1/rulesets").json()["rulesets"][0]
    assert info["name"] == "tianjin" and len(info["hun_of"]) == 34
    assert (info["hun_of"]["7p"], info["hun_of"]["9m"], info["hun_of"]["4z"],
            info["hun_of"]["7z"]) == (["7p", "8p"], ["9m", "1m"], ["4z", "1z"], ["7z", "5z"])
    assert client.get("/v1/rulesets/tianjin").json()["hun_of"] == info["hun_of"]
    body = client.post("/v1/validate", json={"ruleset_yaml": ONE_HUN}).json()
    assert body["ok"] is True
    assert (body["hun_of"]["7p"], body["hun_of"]["9s"]) == (["8p"], ["1s"])
    # 8p, not 7p, stands in for the missing 5m: the score reads the same hun
    hand = {"indicator": "7p", "hand": "46m123456789s2z8p", "win_tile": "2z"}
    r = client.post("/v1/score", json={"ruleset_yaml": ONE_HUN, "hand": hand}).json()
    assert r["win"] is True and "long" in r["patterns"], r
    r = client.post("/v1/score", json={"ruleset_yaml": ONE_HUN,
                                       "hand": {**hand, "hand": "46m123456789s2z7p"}}).json()
    assert r["win"] is False, r


def test_openapi_and_docs(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert spec["openapi"].startswith("3.")
    assert {"/v1/score", "/v1/score:batch", "/v1/settle", "/v1/waits", "/v1/validate",
            "/v1/rulesets", "/v1/rulesets/{name}"} <= set(spec["paths"])
    page = client.get("/docs").text
    assert "POST /v1/score:batch" in page


def test_openapi_lists_the_table_endpoints_with_examples(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    assert {"/v1/tables", "/v1/tables/{id}", "/v1/tables/{id}/hands/{n}",
            "/v1/tables/{id}/hands.jsonl", "/v1/tables/{id}/ruleset.yaml",
            "/v1/tables/{id}/ws"} <= set(paths)
    create = paths["/v1/tables"]["post"]
    example = create["requestBody"]["content"]["application/json"]["example"]
    assert example["seats"] == ["human", "greedy", "greedy", "remote"]
    answer = create["responses"]["201"]["content"]["application/json"]["example"]
    assert answer["seats"][0]["link"].startswith(f"/tables/{answer['id']}?seat=0&token=")
    assert "429" in create["responses"] and "200" not in create["responses"]
    show = paths["/v1/tables/{id}"]["get"]
    assert {p["name"] for p in show["parameters"]} == {"id", "seat", "token"}
    assert "403" in show["responses"]
    ws = paths["/v1/tables/{id}/ws"]["get"]
    assert "legal" in ws["description"] and "4403" in ws["description"]
    page = client.get("/docs").text
    assert "POST /v1/tables</code>" in page and "GET /v1/tables/{id}/hands.jsonl" in page
    assert "closed with code 4403" in page                  # the WebSocket, in text
    assert "extends: tianjin\nname: our kitchen table" in page   # a YAML answer, as text


def test_rule_sheet_shows_values_and_examples(client: TestClient) -> None:
    r = client.get("/rules/tianjin")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    row = r.text.split('<tr id="long">')[1].split("</tr>")[0]
    assert ">+4<" in row and "fan" in row                  # 龍: add 4, with a scored example
    out = io.StringIO()
    assert main(["sheet", "tianjin"], out=out) == 0
    # the same sheet; served, it also loads the tile pictures (the printed file stands alone)
    assert SERVED_HEAD in r.text and SERVED_HEAD not in out.getvalue()
    assert out.getvalue() == r.text.replace(SERVED_HEAD, "")


def test_served_rule_sheet_uses_its_own_cases(client: TestClient) -> None:
    text = client.get("/rules/table7").text
    row = text.split('<tr id="long">')[1].split("</tr>")[0]
    assert ">+8<" in row and "22 fan" in row


def test_overlay_rule_sheet(client: TestClient) -> None:
    r = client.get("/rules", params={"overlay": OVERLAY_MIN20})
    assert r.status_code == 200 and "<h1>strict</h1>" in r.text
    assert "<code>20</code>" in r.text                     # the minimum it sets
    r = client.get("/rules", params={"overlay": "extends: ../../etc/passwd\n"})
    assert r.status_code == 422 and error(r)["field"] == "ruleset_yaml"
    assert client.get("/rules").status_code == 400


def test_page_and_static_files(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and 'id="pad"' in r.text
    assert client.get("/static/app.js").status_code == 200
    assert "default-src 'self'" in r.headers["content-security-policy"]


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=300) | st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
    max_leaves=20).map(lambda v: json.dumps(v).encode()))
def test_no_body_makes_a_500(client: TestClient, body: bytes) -> None:
    for path in ("/v1/score", "/v1/settle", "/v1/waits", "/v1/validate", "/v1/score:batch"):
        r = client.post(path, content=body)
        assert r.status_code in (200, 400, 404, 413, 422), (path, body, r.text)
