"""A seat's hand template: the `Hand` fields `read_hand` makes of a seat's document that do
not depend on its concealed tiles (the indicator and hun, the melds, flowers and flags),
remembered per ruleset across the hands a process plays. The procedure (`_Hand.hand_of`)
and greedy's wait check (`WaitScorer.hand_of`) read a document only for a template not met
before, then build each hand from the template and the seat's counts (docs/game.md,
"Speed"). Within one hand, a template was made once per seat and melds (719 documents read
in 200 greedy hands, ~35-56 k instructions each); a new hand's seats mostly start as an
earlier hand's did (no melds, no flowers, one of 34 indicators), so across hands most of
those reads go.

Exact: a template is kept only when `read_hand` accepted its document, and its fields are
those of every document with the same key (the key is all a document holds but its
concealed tiles and winning tile); the callers check what the concealed tiles could still
fail (copies of a kind, the indicator's three) as they did with one hand's templates."""
from __future__ import annotations

from typing import Final

from rulekit.hand import Hand
from rulekit.ruleset.model import Ruleset

TEMPLATES: Final = 4096
"""Templates kept at most before the memo is emptied whole (~1 KB an entry with its key:
`tests/test_game_templates.py` measures it)."""
TEMPLATE_BYTES: Final = 1024

Key = tuple[int, tuple[tuple[int, str], ...], tuple[int, ...], bool, bool, str, bool, bool]
"""indicator, melds as (kind, shape) in the order declared, flowers, discarded_hun, ready,
win_by, heavenly and earthly as the document says them (`documents.doc_of`'s arguments but
the counts and the winning tile)."""

_MEMO: dict[tuple[int, Key], tuple[Ruleset, Hand]] = {}
"""(the ruleset's id, key) -> the ruleset itself (held, so that its id is not reused while
the entry lives) and the template."""


def key_of(indicator: int, melds: tuple[tuple[int, str], ...], flowers: tuple[int, ...],
           discarded_hun: bool, ready: bool, win_by: str, heavenly: bool,
           earthly: bool) -> Key:
    return (indicator, melds, flowers, discarded_hun, ready, win_by, heavenly, earthly)


def lookup(rs: Ruleset, key: Key) -> Hand | None:
    """The template of `key` under `rs` if one was remembered, else None."""
    got = _MEMO.get((id(rs), key))
    if got is None or got[0] is not rs:
        return None
    return got[1]


def remember(rs: Ruleset, key: Key, hand: Hand) -> None:
    """Keep `hand` (what `read_hand` made of a document with this key under `rs`) as the
    key's template."""
    if len(_MEMO) >= TEMPLATES:
        _MEMO.clear()
    _MEMO[(id(rs), key)] = (rs, hand)


def forget() -> None:
    """Empty the memo (tests; a process that wants its memory back)."""
    _MEMO.clear()


def size() -> int:
    return len(_MEMO)
