"""Builds the per-suit shape tables that `rulekit.shape` reads (run once, output committed).

    python -m rulekit.shape_build            # rewrites rulekit/shape_tables.bin

One suit's tiles are a count vector (0..4 copies of each of 9 ranks, or of the 7 honours),
indexed by its base-5 code: rank 0 is the lowest digit. Only vectors of at most 14 tiles
occur in a hand (405,350 numbered, 43,130 honour); every other code holds a sentinel.
For each vector the builder computes, by one pass in increasing code order (a vector's
lowest tile is taken out first, so what is left has a smaller code and is already known):

- the win entry (one byte): the fewest melds `m0` (0..14) that use up every tile with hun
  filling gaps and no pair, and whether placing the pair in this suit saves one meld
  (`d`, 0 or 1). With the pair elsewhere the suit needs `3*m0 - n` hun; an extra meld of
  three hun is always possible, so any m >= m0 works too. Stored as `m0 + 64*d` so that
  the four suits' entries can simply be added: the low six bits sum the m0 (at most 56),
  the rest counts the suits where the pair saves a meld.
- the deficiency class: for each m in 0..4 and pair p in 0..1, the fewest tiles missing
  to form exactly m melds and p pairs of this suit from some of its tiles (the rest left
  aside), any missing position counting one (a hun or a draw fills it; the wall's limit of
  four copies is not modelled). The distinct 10-tuples are few, so each code stores a class
  number (one byte: 110 numbered and 55 honour classes) and the classes are listed once.

Both are plain dynamic programmes over the lowest tile: it is either left aside (deficiency
only) or sits in one group, which takes real copies from ranks i, i+1, i+2 and fills the
rest. Runs exist in numbered suits only, without wrapping.
"""
from __future__ import annotations

import struct
import zlib
from array import array
from pathlib import Path

MAX_TILES = 14                 # one suit never holds more (a hand has 14 at most)
MELDS = 5                      # m = 0..4 in a deficiency class
SENTINEL = 0xFF                # entry of a code no hand can have (more than 14 tiles)
NO_CLASS = 0xFF
MAGIC = b"RKSHAPE2"
TABLE_FILE = Path(__file__).with_name("shape_tables.bin")

# a group holding one copy of the lowest tile i: (real copies taken at ranks i, i+1, i+2,
# positions left for hun or draws). A run with i in the middle or on top takes the same
# real tiles, at the same cost, as one starting at i (what lies below i is missing either
# way); so (1, 1, 0) also stands for 7-8-9 when i is the 8th rank.
_SET_OPTIONS = ((1, 0, 0, 2), (2, 0, 0, 1), (3, 0, 0, 0))
_PAIR_OPTIONS = ((1, 0, 0, 1), (2, 0, 0, 0))
_RUN_OPTIONS = ((1, 1, 0, 1), (1, 0, 1, 1), (1, 1, 1, 0))


def _group_options(i: int, size: int, numbered: bool
                   ) -> tuple[list[tuple[tuple[int, int, int], int]],
                              list[tuple[tuple[int, int, int], int]]]:
    """(meld options, pair options) for lowest tile rank i: (copies at i, i+1, i+2), missing."""
    melds = [((a, b, c), miss) for a, b, c, miss in _SET_OPTIONS]
    if numbered:
        for a, b, c, miss in _RUN_OPTIONS:
            top = 2 if c else 1
            if i + top < size:
                melds.append(((a, b, c), miss))
    pairs = [((a, b, c), miss) for a, b, c, miss in _PAIR_OPTIONS]
    return melds, pairs


def build_suit(numbered: bool) -> tuple[array[int], array[int], list[tuple[int, ...]]]:
    """(win entries, deficiency class per code, the classes) for one suit kind."""
    size = 9 if numbered else 7
    total_codes = 5 ** size
    pow5 = [5 ** r for r in range(size)]
    win = array("B", [SENTINEL]) * total_codes
    cls = array("B", [NO_CLASS]) * total_codes
    w0 = array("b", [-1]) * total_codes        # fewest hun, all tiles used, no pair
    w1 = array("b", [-1]) * total_codes        # ... with one pair
    deficit: list[tuple[int, ...] | None] = [None] * total_codes
    classes: dict[tuple[int, ...], int] = {}
    options = [_group_options(i, size, numbered) for i in range(size)]
    w0[0], w1[0] = 0, 2
    empty = tuple(3 * m + 2 * p for m in range(MELDS) for p in (0, 1))
    deficit[0] = empty
    digits = [0] * size
    for code in range(total_codes):
        if code:                                   # digits of code, incremented in place
            r = 0
            while digits[r] == 4:
                digits[r] = 0
                r += 1
            digits[r] += 1
        n = sum(digits)
        if n > MAX_TILES:
            continue
        if code:
            i = next(r for r in range(size) if digits[r])
            w0[code], w1[code] = _win_costs(code, i, digits, pow5, options[i], w0, w1)
            deficit[code] = _deficit(code, i, digits, pow5, options[i], deficit)
        m0 = (w0[code] + n) // 3
        m1 = (w1[code] + n - 2) // 3
        win[code] = m0 + 64 * (m0 - m1)
        d = deficit[code]
        assert d is not None
        cls[code] = classes.setdefault(d, len(classes))
    return win, cls, list(classes)


Options = tuple[list[tuple[tuple[int, int, int], int]], list[tuple[tuple[int, int, int], int]]]


def _taken(code: int, i: int, digits: list[int], pow5: list[int], take: tuple[int, int, int]
           ) -> int:
    """The code left once `take` copies at ranks i, i+1, i+2 are removed, or -1 if short."""
    for off, k in enumerate(take):
        if k and digits[i + off] < k:
            return -1
        code -= k * pow5[i + off] if k else 0
    return code


def _win_costs(code: int, i: int, digits: list[int], pow5: list[int], options: Options,
               w0: array[int], w1: array[int]) -> tuple[int, int]:
    """Fewest hun that use up every tile: (no pair, one pair)."""
    melds, pairs = options
    best0 = best1 = 99
    for take, miss in melds:
        rest = _taken(code, i, digits, pow5, take)
        if rest >= 0:
            best0 = min(best0, w0[rest] + miss)
            best1 = min(best1, w1[rest] + miss)
    for take, miss in pairs:
        rest = _taken(code, i, digits, pow5, take)
        if rest >= 0:
            best1 = min(best1, w0[rest] + miss)
    return best0, min(best1, best0 + 2)          # or a pair of two hun


def _deficit(code: int, i: int, digits: list[int], pow5: list[int], options: Options,
             deficit: list[tuple[int, ...] | None]) -> tuple[int, ...]:
    """Fewest missing tiles for each (m, p), index 2*m + p; the lowest tile may stay unused."""
    left = deficit[code - pow5[i]]
    assert left is not None
    best = list(left)
    melds, pairs = options
    for take, miss in melds:
        rest_code = _taken(code, i, digits, pow5, take)
        if rest_code < 0:
            continue
        rest = deficit[rest_code]
        assert rest is not None
        for j in range(2, 2 * MELDS):              # (m, p) from (m - 1, p)
            v = rest[j - 2] + miss
            if v < best[j]:
                best[j] = v
    for take, miss in pairs:
        rest_code = _taken(code, i, digits, pow5, take)
        if rest_code < 0:
            continue
        rest = deficit[rest_code]
        assert rest is not None
        for j in range(1, 2 * MELDS, 2):           # (m, 1) from (m, 0)
            v = rest[j - 1] + miss
            if v < best[j]:
                best[j] = v
    return tuple(best)


def build_bytes() -> bytes:
    """The table file's exact content (deterministic: the test rebuilds and compares)."""
    num_win, num_cls, num_classes = build_suit(True)
    hon_win, hon_cls, hon_classes = build_suit(False)
    classes = num_classes + hon_classes
    hon_cls = array("B", [c + len(num_classes) if c != NO_CLASS else c for c in hon_cls])
    assert len(classes) < NO_CLASS
    flat = bytes(v for c in classes for v in c)
    win_part = zlib.compress(num_win.tobytes() + hon_win.tobytes(), 9)
    def_part = zlib.compress(num_cls.tobytes() + hon_cls.tobytes() + flat, 9)
    return MAGIC + struct.pack("<III", len(win_part), len(def_part), len(classes)) \
        + win_part + def_part


def main() -> None:
    data = build_bytes()
    TABLE_FILE.write_bytes(data)
    print(f"{TABLE_FILE.name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
