"""Tile kinds as plain ints, notation in and out, and the successor that makes 混.

A tile kind is an `int` so that hot loops can index flat count lists and tuples instead of
touching objects: 0-8 = 1m..9m, 9-17 = 1p..9p, 18-26 = 1s..9s, 27-33 = 東 南 西 北 中 發 白,
34-41 = 春 夏 秋 冬 梅 蘭 竹 菊 (flowers variant only). All tables are built once at import
and are immutable.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Final

from . import codes
from .errors import TileError

NUM_KINDS: Final = codes.NUM_KINDS
"""Kinds in the 136-tile set (no flowers)."""
NUM_ALL_KINDS: Final = codes.FLOWER_END
"""Kinds including flowers: the length of a `counts()` list."""
FLOWERS = range(codes.FLOWER_START, codes.FLOWER_END)
WINDS = range(codes.HONOR_START, codes.DRAGON_START)
DRAGONS = range(codes.DRAGON_START, codes.NUM_KINDS)
HONORS = range(codes.HONOR_START, codes.NUM_KINDS)

MAN, PIN, SOU, HONOR, FLOWER = 0, 1, 2, 3, 4
SUIT_LETTERS: Final = "mpszf"
SUIT_BASE = codes.SUIT_BASES + (codes.FLOWER_START,)
SUIT_SIZES = (codes.SUIT_SIZE,) * 3 + (codes.HONOR_SIZE, codes.FLOWER_END - codes.FLOWER_START)

SUIT_OF: Final[tuple[int, ...]] = tuple(s for s in range(5) for _ in range(SUIT_SIZES[s]))
RANK_OF: Final[tuple[int, ...]] = tuple(r for s in range(5) for r in range(1, SUIT_SIZES[s] + 1))


def _successor_of(t: int) -> int:
    wind, dragon = codes.HONOR_START, codes.DRAGON_START
    if t < wind:
        return t - 8 if RANK_OF[t] == 9 else t + 1
    if t < dragon:
        return wind + (t - wind + 1) % 4
    return dragon + (t - dragon + 1) % 3


SUCCESSOR: Final[tuple[int, ...]] = tuple(_successor_of(t) for t in range(NUM_KINDS))
"""Successor of each non-flower kind, for hot loops (flowers have none)."""

_DIGITS: Final = "0123456789"
_ZH_NUMERALS = "一二三四五六七八九"
_ZH_SUITS = "萬筒條"
_ZH_HONORS = "東南西北中發白"
_ZH_FLOWERS = "春夏秋冬梅蘭竹菊"

TILE_NAMES: Final[tuple[str, ...]] = tuple(
    f"{RANK_OF[t]}{SUIT_LETTERS[SUIT_OF[t]]}" for t in range(NUM_ALL_KINDS))
TILE_ZH: tuple[str, ...] = (
    tuple(_ZH_NUMERALS[r] + _ZH_SUITS[s] for s in range(3) for r in range(9))
    + tuple(_ZH_HONORS) + tuple(_ZH_FLOWERS))


def _check(t: int) -> int:
    if not 0 <= t < NUM_ALL_KINDS:
        raise TileError(f"not a tile kind: {t!r} (expected 0..{NUM_ALL_KINDS - 1})")
    return t


def suit_of(t: int) -> int:
    """Suit id (MAN, PIN, SOU, HONOR, FLOWER); hot loops should index SUIT_OF directly."""
    return SUIT_OF[_check(t)]


def rank_of(t: int) -> int:
    """1-based rank inside the suit; hot loops should index RANK_OF directly."""
    return RANK_OF[_check(t)]


def kind(suit: int, rank: int) -> int:
    """The kind for a (suit, 1-based rank) pair, checked so a bad rank never aliases a tile."""
    if not 0 <= suit < 5:
        raise TileError(f"not a suit id: {suit!r} (expected 0..4)")
    if not 1 <= rank <= SUIT_SIZES[suit]:
        raise TileError(f"rank {rank!r} is not in suit {SUIT_LETTERS[suit]!r} "
                        f"(expected 1..{SUIT_SIZES[suit]})")
    return SUIT_BASE[suit] + rank - 1


def is_honor(t: int) -> bool:
    return codes.HONOR_START <= t < codes.NUM_KINDS


def is_wind(t: int) -> bool:
    return codes.HONOR_START <= t < codes.DRAGON_START


def is_dragon(t: int) -> bool:
    return codes.DRAGON_START <= t < codes.NUM_KINDS


def is_flower(t: int) -> bool:
    return codes.FLOWER_START <= t < codes.FLOWER_END


def successor(t: int) -> int:
    """The kind that the indicator `t` makes hun besides itself (flowers are never indicators)."""
    if not 0 <= t < NUM_KINDS:
        if is_flower(t):
            raise TileError(f"flower {TILE_NAMES[t]} has no successor: flowers are never indicators")
        _check(t)
    return SUCCESSOR[t]


def hun_kinds(indicator: int, kinds: int) -> tuple[int, ...]:
    """The hun kinds for an indicator; `kinds` is the ruleset's count of hun kinds (1 or 2)."""
    if kinds not in (1, 2):
        raise ValueError(f"hun kind count must be 1 or 2, not {kinds!r}")
    nxt = successor(indicator)  # also rejects flowers and non-kinds when kinds == 1
    return (indicator,) if kinds == 1 else (indicator, nxt)


def counts(tiles: Iterable[int]) -> list[int]:
    """A fresh count list indexed by kind (length NUM_ALL_KINDS), for callers to mutate."""
    c = [0] * NUM_ALL_KINDS
    for t in tiles:
        c[t] += 1
    return c


def tile_name(t: int) -> str:
    """ASCII name such as `5m` or `1z`."""
    return TILE_NAMES[_check(t)]


def tile_zh(t: int) -> str:
    """Chinese name such as `五萬`, `東` or `春` (traditional characters, as the sources)."""
    return TILE_ZH[_check(t)]


def format_tiles(tiles: Iterable[int]) -> str:
    """Canonical compact notation: sorted, suits in m p s z f order, e.g. `15m11z`.

    Canonical so that equal multisets give equal strings (usable as keys and in documents).
    """
    parts: list[str] = []
    suit = -1
    for t in sorted(tiles):
        s = SUIT_OF[_check(t)]
        if s != suit:
            if suit >= 0:
                parts.append(SUIT_LETTERS[suit])
            suit = s
        parts.append(_DIGITS[RANK_OF[t]])
    if suit >= 0:
        parts.append(SUIT_LETTERS[suit])
    return "".join(parts)


# --- parsing -------------------------------------------------------------------------------

_NUMERAL_VALUE: dict[str, int] = {str(d): d for d in range(10)}
_NUMERAL_VALUE.update({c: i + 1 for i, c in enumerate(_ZH_NUMERALS)})
_NUMERAL_VALUE["伍"] = 5

_SUIT_VALUE: dict[str, int] = {c: i for i, c in enumerate(SUIT_LETTERS)}
_SUIT_VALUE.update({c: MAN for c in "萬万"})
_SUIT_VALUE.update({c: PIN for c in "筒餅饼"})
_SUIT_VALUE.update({c: SOU for c in "條条索束"})


def _word_table() -> dict[str, tuple[tuple[str, int], ...]]:
    words: dict[str, int] = {}
    for i, names in enumerate((("東", "东"), ("南",), ("西",), ("北",))):
        for name in names:
            words[name] = codes.HONOR_START + i
            words[name + "風"] = codes.HONOR_START + i
            words[name + "风"] = codes.HONOR_START + i
    for name in ("中", "紅中", "红中"):
        words[name] = codes.DRAGON_START
    for name in ("發", "发", "發財", "发财", "發财", "发財"):
        words[name] = codes.DRAGON_START + 1
    for name in ("白", "白板"):
        words[name] = codes.DRAGON_START + 2
    for i, chars in enumerate(("春", "夏", "秋", "冬", "梅", "蘭兰", "竹", "菊")):
        for name in chars:
            words[name] = codes.FLOWER_START + i
    by_first: dict[str, list[tuple[str, int]]] = {}
    for word, t in words.items():
        by_first.setdefault(word[0], []).append((word, t))
    # Longest first, so 紅中 / 發財 / 東風 win over a shorter prefix.
    return {c: tuple(sorted(ws, key=lambda w: -len(w[0]))) for c, ws in by_first.items()}


_WORDS = _word_table()


def _quote(text: str) -> str:
    """Double-quoted and escaped, so a message stays on one line whatever the input holds."""
    return json.dumps(text, ensure_ascii=False)


def _quote1(text: str) -> str:
    return f"'{text}'" if text.isprintable() else repr(text)


_SHORT: dict[str, tuple[int, ...]] = {}
SHORT_MEMO: Final = 4096
"""Texts of at most 4 characters `_SHORT` keeps; it stops adding when full (each entry holds
at most SHORT_ENTRY_BYTES: tests/test_memo_bounds.py)."""
SHORT_ENTRY_BYTES: Final = 250


def parse_tiles(text: str) -> tuple[int, ...]:
    """Tiles from ASCII (`123m 456p 1z`) or Chinese (`一萬 東風 紅中`) notation, in input order.

    Plain ASCII notation takes a fast path (`_plain_kinds`); short strings such as a winning
    tile are memoised. Anything else, and every error, goes through the full parser below.
    """
    hit = _SHORT.get(text)
    if hit is not None:
        return hit
    kinds = _plain_kinds(text)
    if kinds is None:
        return _parse_tiles_full(text)
    result = tuple(kinds)
    if len(text) <= 4 and len(_SHORT) < SHORT_MEMO:
        _SHORT[text] = result
    return result


def plain_tiles_sorted(text: str) -> tuple[int, ...] | None:
    """The sorted kinds of `text` if it is plain ASCII groups, such as `123m45p` or `1m 9s`.

    None means "not plain" (Chinese, flowers, 8z, any error...), not "invalid": callers then
    take `parse_tiles`, which gives the answer or the error.
    """
    kinds = _plain_kinds(text)
    if kinds is None:
        return None
    kinds.sort()
    return tuple(kinds)


def plain_kind(digit: int, letter: int) -> int:
    """The kind of the ASCII tile `chr(digit) + chr(letter)` (`5m`), or -1 if it is not one
    of the 34 kinds in plain notation (`0m`, `8z`, `1f` and anything else)."""
    r = digit - 48
    if r < 1 or r > 9:
        return -1
    if letter == 109:                       # m
        return r - 1
    if letter == 112:                       # p
        return r + 8
    if letter == 115:                       # s
        return r + 17
    if letter == 122 and r <= 7:            # z
        return r + 26
    return -1


def plain_tiles_counted(text: str, counts: list[int]) -> list[int] | None:
    """`plain_tiles_sorted` as a list, each tile also added to `counts` (indexed by kind).

    None also when a kind would pass 4 copies: the caller's full parser names the tile. Canonical
    text (suits in order, ranks sorted) needs no sort: the scan notices when it is not.
    """
    return _plain_kinds(text, counts)


def _plain_kinds(text: str, counts: list[int] | None = None) -> list[int] | None:
    """The kinds of plain ASCII groups in input order, else None (see plain_tiles_sorted);
    with `counts`, each tile is added to it, a fifth copy of a kind also gives None, and the
    list comes back sorted.

    A loop over the text's characters with `ord(text[i])`, which mypyc compiles to a direct
    read of the character: it beats a regular expression, or a walk over `text.encode()`, by
    several times, and hands are parsed on every score. A group's digits are read again when
    its suit letter comes (`start` marks the first), so no list of pending ranks is built.
    """
    out: list[int] = []
    start = -1                              # index of the first digit waiting for its suit
    last = -1
    ordered = True
    n = len(text)
    for i in range(n):
        c = ord(text[i])                    # "1" is 49, "m" 109, " " 32
        if 49 <= c <= 57:
            if start < 0:
                start = i
        elif c == 109 or c == 112 or c == 115 or c == 122:
            if start < 0:
                return None
            for j in range(start, i):
                k = plain_kind(ord(text[j]), c)
                if k < 0:
                    return None             # 8z or 9z: the full parser names the tile
                if counts is not None:
                    copies = counts[k] + 1
                    if copies > 4:
                        return None
                    counts[k] = copies
                    ordered = ordered and k >= last
                    last = k
                out.append(k)
            start = -1
        elif (c == 32 or c == 9) and start < 0:
            continue
        else:
            return None                     # anything else, or digits cut from their suit
    if start >= 0:
        return None
    if not ordered:
        out.sort()
    return out


def _parse_tiles_full(text: str) -> tuple[int, ...]:
    """Tiles from ASCII (`123m 456p 1z`) or Chinese (`一萬 東風 紅中`) notation, in input order.

    Digits (ASCII or Chinese numerals) collect until a suit letter or character claims them;
    whitespace between groups is free, but a space inside a pending digit group is an error,
    so that a forgotten suit letter (`123 456p`) is reported rather than silently misread.
    """
    out: list[int] = []
    append = out.append
    start = -1  # index of the first pending numeral, -1 when none
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in _NUMERAL_VALUE:
            if start < 0:
                start = i
            i += 1
            continue
        suit = _SUIT_VALUE.get(ch)
        if suit is not None:
            if start < 0:
                raise TileError(f"suit {_quote1(ch)} at position {i + 1} has no digits "
                                f"before it in {_quote(text)}")
            base = SUIT_BASE[suit] - 1
            size = SUIT_SIZES[suit]
            for j in range(start, i):
                r = _NUMERAL_VALUE[text[j]]
                if not 1 <= r <= size:
                    raise TileError(f"unknown tile {_quote1(text[j] + ch)} at position {j + 1} "
                                    f"in {_quote(text)}")
                append(base + r)
            start = -1
            i += 1
            continue
        words = _WORDS.get(ch)
        if start >= 0 and (words or ch.isspace()):
            break  # pending digits without a suit: reported below
        if ch.isspace():
            i += 1
            continue
        for word, t in words or ():
            if text.startswith(word, i):
                append(t)
                i += len(word)
                break
        else:
            raise TileError(f"unknown tile text {_quote1(ch)} at position {i + 1} "
                            f"in {_quote(text)}")
    if start >= 0:
        raise TileError(f"digits {_quote1(text[start:i])} at position {start + 1} "
                        f"have no suit letter in {_quote(text)}")
    return tuple(out)
