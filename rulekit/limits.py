"""Bounds on everything rulekit reads, so that no input can exhaust memory, stack or time.

Each bound is generous for real play and authoring and small enough that a hostile ruleset,
document or request is refused in milliseconds with a clean error. One place holds them so that
the CLI, the library and a server agree on what is too big.
"""
from __future__ import annotations

from typing import Final

# -- what an error message may quote of the input ------------------------------------------
QUOTE_CHARS: Final = 200

# -- hand, settle and batch documents (JSON) ------------------------------------------------
DOC_BYTES: Final = 64 * 1024          # one JSON document (one --jsonl line)
JSON_DEPTH: Final = 32                # nesting of arrays and objects in one document
INT_DIGITS: Final = 30                # an integer in a document or ruleset
# a corpus `diff` holds in memory (its lines are read first, then scored in chunks): every
# line is read at most DOC_BYTES + 1 bytes at a time, so no input is read much past a bound
CORPUS_LINES: Final = 1_000_000
CORPUS_BYTES: Final = 256 * 1024 * 1024
SESSION_HANDS: Final = 100_000        # hands of one `session` (a club evening has dozens)

# -- rulesets (YAML) and patterns (DSL) ------------------------------------------------------
RULESET_BYTES: Final = 1024 * 1024    # one ruleset or case file
YAML_DEPTH: Final = 32                # nesting of mappings and sequences
EXTENDS_DEPTH: Final = 16             # length of an extends chain
DSL_CHARS: Final = 4000               # one pattern expression
DSL_DEPTH: Final = 64                 # nesting of one pattern expression
# numbers a pattern computes: under 2**100 in magnitude (about the 30 digits a literal may
# have), proven when the ruleset loads (dsl/walk.py `oversized`: a product's bit length is
# its operands' added), and checked again on every arithmetic result; facts hold counts and
# ranks, all under 2**FACT_BITS. Lists are as long as their literal or the hand's list they
# are built from (at most DSL_CHARS items): the DSL has no range and no concatenation.
INT_BITS: Final = 100
FACT_BITS: Final = 8


# -- scoring work (rulekit/dsl/walk.py counts steps: one pattern node evaluated once) --------
PATTERN_STEPS: Final = 100_000        # one evaluation of one pattern (a few ms)
ARRANGEMENT_EVALS: Final = 10_000     # evaluations per hand of a pattern that reads the
#                                       arrangement (measured: under 6,000 on 7-hun hands)
HAND_STEPS: Final = 10_000_000        # all of a ruleset's patterns, for one hand (under 1 s)
# what the scorer may actually spend on one hand (scoring/search.py counts each evaluation's
# steps): the static check above assumes ARRANGEMENT_EVALS evaluations, and a ruleset whose
# bounds prune badly can need far more. Built-ins, measured: at most 9.8 million (9,763,375),
# on a 7-hun 天和 under tianjin-flowers; the other built-ins under 4,000 on the same 40 hands
# (steps charge arithmetic by its operands' words and list comparisons by their items, issue
# 18; `python bench/steps.py`); a compiled build spends about 30 ns a step.
RUN_STEPS: Final = 30_000_000

# -- settlement amounts ----------------------------------------------------------------------
AMOUNT_DIGITS: Final = 15             # significant digits of a payment: a JSON number (a
                                      # double) carries up to 15 exactly
AMOUNT_EXPONENT: Final = 300          # a stake lies within 1e-300 .. 1e300
# every amount, and all the money one hand moves (or a session's totals) together, at most
# 2**53: a reader that parses JSON numbers as doubles reads every whole amount exactly and
# sums them in any order without rounding (9007199254740993 would read as ...992)
AMOUNT_WHOLE: Final = 2 ** 53


def excerpt(text: str, limit: int = QUOTE_CHARS) -> str:
    """`text` cut to `limit` characters for an error message: never echo a whole hostile input."""
    if len(text) <= limit:
        return text
    return text[: limit - 1] + "…"
