"""The hand templates the procedure and greedy share across hands (`rulekit.game.templates`):
a template is what `read_hand` made of a document, kept by the ruleset and everything the
document holds but its tiles; the memo is bounded."""
from __future__ import annotations

import gc
import tracemalloc

import rulekit
from rulekit.game import documents, templates
from rulekit.game.state import PUNG
from rulekit.scoring.score import read_hand


def test_a_template_serves_only_its_ruleset_and_key() -> None:
    templates.forget()
    tj, laizi = rulekit.load_ruleset("tianjin"), rulekit.load_ruleset("tianjin-laizi")
    counts = [0] * 34
    for k in (0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27):
        counts[k] += 1
    doc = documents.doc_of(counts, [(5, PUNG)], 30, 0, "self_draw")
    hand = read_hand(doc, tj)
    key = templates.key_of(30, ((5, PUNG),), (), False, False, "self_draw", False, False)
    assert templates.lookup(tj, key) is None
    templates.remember(tj, key, hand)
    assert templates.lookup(tj, key) is hand
    assert templates.lookup(laizi, key) is None                   # another ruleset
    other = templates.key_of(30, ((5, PUNG),), (), True, False, "self_draw", False, False)
    assert templates.lookup(tj, other) is None                    # another flag
    templates.forget()
    assert templates.size() == 0 and templates.lookup(tj, key) is None


def test_the_memo_is_bounded_and_holds_what_it_is_allowed() -> None:
    templates.forget()
    rs = rulekit.load_ruleset("tianjin")
    counts = [0] * 34
    for k in (0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27):
        counts[k] += 1
    hand = read_hand(documents.doc_of(counts, [(5, PUNG)], 30, 0, "self_draw"), rs)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    most = 0
    for i in range(templates.TEMPLATES + 10):
        melds = tuple((k, PUNG) for k in (i % 34, (i // 34) % 34, (i // 1156) % 34))
        templates.remember(rs, templates.key_of(i % 34, melds, (34 + i % 8,), i % 2 == 0,
                                                i % 3 == 0, "self_draw", False, False), hand)
        most = max(most, templates.size())
    assert most == templates.TEMPLATES and templates.size() == 10
    while templates.size() < templates.TEMPLATES:                 # full again, then measure
        i = templates.size()
        templates.remember(rs, templates.key_of(i % 34, ((i % 34, PUNG), (i // 34, PUNG)),
                                                (), False, False, "kong_draw", True, False),
                           hand)
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    templates.forget()
    assert held <= templates.TEMPLATES * templates.TEMPLATE_BYTES, held / templates.TEMPLATES
