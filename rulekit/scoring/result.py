"""What a score returns: `ScoreResult` and the groups of its best arrangement."""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Final

from rulekit.facts import GroupFact
from rulekit.scoring.keys import PieceKey
from rulekit.tiles import format_tiles

NOT_A_WINNING_SHAPE = "not_a_winning_shape"
BELOW_MINIMUM = "below_minimum"


@dataclass(frozen=True, slots=True)
class GroupView:
    """A group of the best arrangement, as shown to a player."""

    shape: str
    tiles: str
    hun_as: str          # what the hun in it stand for, e.g. "5m"
    declared: bool
    concealed: bool
    has_win: bool

    def to_dict(self) -> dict[str, Any]:
        return {"shape": self.shape, "tiles": self.tiles, "hun_as": self.hun_as,
                "declared": self.declared, "concealed": self.concealed, "win": self.has_win}


@dataclass(frozen=True, slots=True, init=False)
class ScoreResult:
    win: bool
    hand_fan: int | float
    kong_fan: int | float
    total_fan: int | float
    patterns: tuple[str, ...]
    pattern_names: tuple[str, ...]
    explain: tuple[str, ...]
    reason: str | None = None
    win_tile: str | None = None
    groups: tuple[GroupFact, ...] = field(default=(), repr=False, compare=False)
    kongs: tuple[str, ...] = ()          # exposed / concealed / golden, in meld order

    # Written out (init=False) because one is built per score: compiled by mypyc this runs
    # in ~30 ns, where the __init__ dataclasses generates runs as Python (~0.8 us).
    def __init__(self, win: bool, hand_fan: int | float, kong_fan: int | float,
                 total_fan: int | float, patterns: tuple[str, ...],
                 pattern_names: tuple[str, ...], explain: tuple[str, ...],
                 reason: str | None = None, win_tile: str | None = None,
                 groups: tuple[GroupFact, ...] = (), kongs: tuple[str, ...] = ()) -> None:
        object.__setattr__(self, "win", win)
        object.__setattr__(self, "hand_fan", hand_fan)
        object.__setattr__(self, "kong_fan", kong_fan)
        object.__setattr__(self, "total_fan", total_fan)
        object.__setattr__(self, "patterns", patterns)
        object.__setattr__(self, "pattern_names", pattern_names)
        object.__setattr__(self, "explain", explain)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "win_tile", win_tile)
        object.__setattr__(self, "groups", groups)
        object.__setattr__(self, "kongs", kongs)

    @property
    def arrangement(self) -> tuple[GroupView, ...]:
        """The best arrangement, formatted only when someone asks (scoring stays fast)."""
        return tuple([group_view(g) for g in self.groups])

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON-ready data; each group is formatted once, straight to a dict."""
        out: dict[str, Any] = {
            "win": self.win, "hand_fan": self.hand_fan, "kong_fan": self.kong_fan,
            "total_fan": self.total_fan, "patterns": list(self.patterns),
            "pattern_names": list(self.pattern_names), "explain": list(self.explain),
        }
        if self.reason is not None:
            out["reason"] = self.reason
        if self.win_tile is not None:
            out["win_tile"] = self.win_tile
        if self.groups:
            out["arrangement"] = [group_dict(g) for g in self.groups]
        out["kongs"] = list(self.kongs)
        return out

    def to_json(self) -> str | None:
        """`to_dict()` as JSON text, exactly as `json.dumps(..., ensure_ascii=False)` writes
        it, from memoised pieces (results of a batch share their names, explanations and
        groups); None if a fan is not finite or a text holds a lone surrogate, which the
        caller's strict encoder refuses or escapes (`rulekit.jsonio.dumps`)."""
        parts = ['{"win": ', "true" if self.win else "false", ', "hand_fan": ',
                 _number(self.hand_fan), ', "kong_fan": ', _number(self.kong_fan),
                 ', "total_fan": ', _number(self.total_fan), ', "patterns": ',
                 _texts(self.patterns), ', "pattern_names": ', _texts(self.pattern_names),
                 ', "explain": ', _texts(self.explain)]
        if self.reason is not None:
            parts += [', "reason": ', _text(self.reason)]
        if self.win_tile is not None:
            parts += [', "win_tile": ', _text(self.win_tile)]
        if self.groups:
            parts += [', "arrangement": ', _arrangement(self.groups)]
        parts += [', "kongs": ', _texts(self.kongs), "}"]
        if "" in parts:
            return None
        return "".join(parts)


def group_view(g: GroupFact) -> GroupView:
    return GroupView(g.shape, format_tiles(g.tiles), format_tiles(g.fills), g.declared,
                     g.concealed, g.has_win)


# formatted groups, by group fact (one shared object per group: facts.group_fact); bounded
_GROUP_DICTS: dict[GroupFact, dict[str, Any]] = {}
_GROUP_DICTS_MAX = 1 << 14


def group_dict(g: GroupFact) -> dict[str, Any]:
    """`group_view(g).to_dict()` without building the view; each group formatted once."""
    hit = _GROUP_DICTS.get(g)
    if hit is None:
        if len(_GROUP_DICTS) >= _GROUP_DICTS_MAX:
            _GROUP_DICTS.clear()
        hit = _GROUP_DICTS[g] = {
            "shape": g.shape, "tiles": format_tiles(g.tiles), "hun_as": format_tiles(g.fills),
            "declared": g.declared, "concealed": g.concealed, "win": g.has_win}
    return dict(hit)          # the caller owns its copy


# JSON text of the pieces results share (tuples of names, single texts, groups); "" stands
# for a piece JSON cannot carry as is. Bounded: emptied when full.
_JSON_PIECES: dict[PieceKey, str] = {}
_JSON_PIECES_MAX: Final = 1 << 14
# and by bytes: a piece's text is a ruleset's names, of any length an overlay allows; each
# entry is counted as PIECE_ENTRY_BYTES plus 4 bytes a character for its text and its key
# (an upper bound of what tests/test_memo_bounds.py measures)
_JSON_PIECES_BYTES: Final = [0]
_JSON_PIECES_BYTES_MAX: Final = [4 << 20]      # a list: tests lower it
PIECE_ENTRY_BYTES: Final = 400
_ENCODE: Final = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode


def clear_memos() -> None:
    """Forget the group dicts and JSON pieces kept so far (`score.forget`)."""
    _GROUP_DICTS.clear()
    _JSON_PIECES.clear()
    _JSON_PIECES_BYTES[0] = 0


def _encoded(key: PieceKey, value: Any) -> str:
    """Encode `value` (a miss of `_JSON_PIECES`) and keep it under `key`."""
    text: str = _ENCODE(value)
    size = len(text)
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        text = ""                   # a lone surrogate: not UTF-8, left to the caller
    _keep(key, text, size)
    return text


def _keep(key: PieceKey, text: str, size: int) -> None:
    """Keep a piece's text, emptying the memo first when it is full (entries or bytes): the
    key holds the same names as the text (or shared groups), so `size` counts twice."""
    if len(_JSON_PIECES) >= _JSON_PIECES_MAX \
            or _JSON_PIECES_BYTES[0] >= _JSON_PIECES_BYTES_MAX[0]:
        _JSON_PIECES.clear()
        _JSON_PIECES_BYTES[0] = 0
    _JSON_PIECES_BYTES[0] += PIECE_ENTRY_BYTES + 8 * size
    _JSON_PIECES[key] = text


def _texts(values: tuple[str, ...]) -> str:
    text = _JSON_PIECES.get(values)
    return _encoded(values, list(values)) if text is None else text


def _text(value: str) -> str:
    text = _JSON_PIECES.get(value)
    return _encoded(value, value) if text is None else text


def _number(x: int | float) -> str:
    if isinstance(x, int):
        return str(int(x))
    return float.__repr__(x) if math.isfinite(x) else ""


def _arrangement(groups: tuple[GroupFact, ...]) -> str:
    # keyed on the tuple of (shared) group objects: hashed by identity, so a lookup is cheap
    text = _JSON_PIECES.get(groups)
    if text is None:
        texts = [group_json(g) for g in groups]
        text = "" if "" in texts else "[" + ", ".join(texts) + "]"
        _keep(groups, text, len(text))
    return text


def group_json(g: GroupFact) -> str:
    """`group_dict(g)` as JSON text; each group (one shared object each) encoded once."""
    text = _JSON_PIECES.get(g)
    return _encoded(g, group_dict(g)) if text is None else text
