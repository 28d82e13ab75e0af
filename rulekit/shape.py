"""The shape question, by table: does a hand win, what does it wait on, how far is it.

Counts are a sequence of 34 ints (1m..9m, 1p..9p, 1s..9s, 1z..7z) of the hand's non-hun
tiles, each 0..4; `hun` is how many wildcards it holds; `melds` how many groups are already
declared (kongs included), so the concealed part must form `4 - melds` melds and one pair.
A winning shape: melds are runs (numbered suits, no wrap) or sets of three, honours never
run, no seven pairs, no thirteen orphans; each hun stands for any tile, even a fifth copy,
and groups may be made of hun alone.

Each call is a handful of lookups: `rulekit/shape_tables.bin` holds, for every count vector
of one suit (indexed by its base-5 code, rank 0 the lowest digit), what the suit needs; the
four suits combine by addition (win) or by min-plus over (melds, pair) (deficiency). The
tables are built by `rulekit.shape_build` (docs/design.md, "Shape tables").

Bad input (not 34 ints from 0 to 4, more than 14 tiles, negative hun, melds outside 0..4)
raises `HandError` with the field "counts", "hun" or "melds".
"""
from __future__ import annotations

import os
import struct
import zlib
from typing import Final, Sequence

from rulekit.codes import (HONOR_SIZE, HONOR_START, NUM_KINDS, SUIT_SIZE, TIAO_START, TONG_START,
                           WAN_START)
from rulekit.errors import HandError

MAX_TILES: Final = 14
_FILE: Final = "shape_tables.bin"
_NUM_CODES: Final = 5 ** 9
_HON_CODES: Final = 5 ** 7
_COUNTS: Final = frozenset(range(5))
_COMPILED: Final = not __file__.endswith(".py")     # mypyc: this module is a C extension
_M0: Final = 63                  # win entry: the melds needed with the pair elsewhere ...
_WITH_PAIR: Final = 64           # ... plus 64 when holding the pair saves one


def _read() -> tuple[bytes, bytes, int]:
    """The data file's two compressed parts (see rulekit.shape_build for the layout)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), _FILE)
    try:
        with open(path, "rb") as f:
            data = f.read()
        if data[:8] != b"RKSHAPE2":
            raise ValueError("not a shape table file")
        win_len, def_len, n_classes = struct.unpack("<III", data[8:20])
    except (OSError, ValueError, struct.error) as err:
        raise ImportError(f"rulekit: {path} is missing or damaged ({err}); "
                          "rebuild it with `python -m rulekit.shape_build`") from err
    return data[20:20 + win_len], data[20 + win_len:20 + win_len + def_len], n_classes


def _unzip(part: bytes, size: int) -> bytes:
    try:
        out = zlib.decompress(part)
    except zlib.error as err:
        raise ImportError(f"rulekit: {_FILE} is damaged ({err}); rebuild it with "
                          "`python -m rulekit.shape_build`") from err
    if len(out) < size:
        raise ImportError(f"rulekit: {_FILE} is truncated; rebuild it with "
                          "`python -m rulekit.shape_build`")
    return out


_WIN_PART, _DEF_PART, _N_CLASSES = _read()
_WIN: Final = _unzip(_WIN_PART, _NUM_CODES + _HON_CODES)
_NUM_WIN: Final = _WIN[:_NUM_CODES]
_HON_WIN: Final = _WIN[_NUM_CODES:]
# the win entries by suit code, for rulekit.arrange (it cuts its search with them)
NUM_WIN: Final = _NUM_WIN
HON_WIN: Final = _HON_WIN


BEST_SLOTS: Final = 1 << 16
"""Slots of `_fewest`'s memo, each one key and its answer, a key's slot fixed by its bits:
a list of keys and one of answers (~3 MB with the keys' ints), made once. 600 greedy hands
asked `_fewest` 113,200 times; its dict of 2^15 entries, forgotten whole when full, missed
36,143 (each miss ~2,800 instructions, each hit ~500 with the key boxed and hashed)."""
_SLOT_SHIFT: Final = 16
_SLOT_MASK: Final = BEST_SLOTS - 1


class _Deficit:
    """The deficiency tables, unpacked on the first `deficiency` call (import stays quick)."""

    def __init__(self) -> None:
        raw = _unzip(_DEF_PART, _NUM_CODES + _HON_CODES + 10 * _N_CLASSES)
        self.num_cls = raw[:_NUM_CODES]
        self.hon_cls = raw[_NUM_CODES:_NUM_CODES + _HON_CODES]
        flat = raw[_NUM_CODES + _HON_CODES:]
        if max(flat) > _FIELD // 2:               # `_paired` packs two classes' sums
            raise ImportError(f"rulekit: {_FILE} has a deficiency over {_FIELD // 2}; "
                              "rebuild it with `python -m rulekit.shape_build`")
        self.flat = flat                          # class i's ten values at 10 * i
        self.classes: list[tuple[int, int, int, int, int, int, int, int, int, int]] = [
            (flat[i], flat[i + 1], flat[i + 2], flat[i + 3], flat[i + 4], flat[i + 5],
             flat[i + 6], flat[i + 7], flat[i + 8], flat[i + 9])
            for i in range(0, 10 * _N_CLASSES, 10)]
        # two classes a, b → their combination, at a * n + b (n classes; filled as met, -1
        # before): a list, not a dict, since the game asks it several times a decision
        self.n = _N_CLASSES
        self.paired: list[int] = [-1] * (_N_CLASSES * _N_CLASSES)
        # `_fewest`'s answers: slot → (key, answer), -1 an empty slot (`BEST_SLOTS`)
        self.best_keys: list[int] = [-1] * BEST_SLOTS
        self.best_vals: list[int] = [0] * BEST_SLOTS


_DEFICIT: list[_Deficit] = []


def _bad_counts() -> HandError:
    """The error for counts that are not 34 ints from 0 to 4 (worded for the caller)."""
    return HandError("counts", "must be 34 tile counts (1m..9m 1p..9p 1s..9s 1z..7z), "
                     "each an int from 0 to 4")


def _check_args(hun: int, melds: int) -> None:
    if hun < 0:
        raise HandError("hun", f"must be 0 or more, not {hun}")
    if melds < 0 or melds > 4:
        raise HandError("melds", f"must be 0 to 4, not {melds}")


def _checked(counts: Sequence[int]) -> tuple[list[int], int]:
    """The counts as a list (compiled, list indexing is fast) and their sum, after checking
    them: 34 ints from 0 to 4, at most 14 tiles.

    Compiled, a plain loop is the fastest check; interpreted, a frozenset's C loop is
    (three times faster than the loop), and the sum's type catches 1.0-like counts.
    """
    try:
        c: list[int] = counts if isinstance(counts, list) else list(counts)
        if len(c) != NUM_KINDS:
            raise _bad_counts()
        if _COMPILED:               # the sum in the same loop: `sum` is a generic call
            n = 0
            for k in c:
                if k < 0 or k > 4:
                    raise _bad_counts()
                n += k
        elif not _COUNTS.issuperset(c):
            raise _bad_counts()
        else:
            n = sum(c)
    except TypeError:
        raise _bad_counts() from None
    if type(n) is not int:
        raise _bad_counts()
    if n > MAX_TILES:
        raise HandError("counts", f"{n} tiles: a hand holds at most {MAX_TILES} besides "
                        "its declared melds")
    return c, n


def _codes(c: list[int]) -> tuple[int, int, int, int]:
    """The four suits' base-5 codes (rank 0 the lowest digit) of checked counts."""
    return ((c[0] + 5 * (c[1] + 5 * (c[2] + 5 * (c[3] + 5 * (c[4] + 5 * (
        c[5] + 5 * (c[6] + 5 * (c[7] + 5 * c[8])))))))),
        (c[9] + 5 * (c[10] + 5 * (c[11] + 5 * (c[12] + 5 * (c[13] + 5 * (
            c[14] + 5 * (c[15] + 5 * (c[16] + 5 * c[17])))))))),
        (c[18] + 5 * (c[19] + 5 * (c[20] + 5 * (c[21] + 5 * (c[22] + 5 * (
            c[23] + 5 * (c[24] + 5 * (c[25] + 5 * c[26])))))))),
        (c[27] + 5 * (c[28] + 5 * (c[29] + 5 * (c[30] + 5 * (
            c[31] + 5 * (c[32] + 5 * c[33])))))))


def _codes_tiles(c: list[int]) -> tuple[int, int, int, int, int]:
    """`_codes` of checked counts and their sum, each count read once into a local
    (compiled, summing in a loop of its own cost ~1,000 instructions more; `Held` asks
    this at every draw)."""
    m0, m1, m2, m3, m4, m5, m6, m7, m8 = \
        c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]
    p0, p1, p2, p3, p4, p5, p6, p7, p8 = \
        c[9], c[10], c[11], c[12], c[13], c[14], c[15], c[16], c[17]
    s0, s1, s2, s3, s4, s5, s6, s7, s8 = \
        c[18], c[19], c[20], c[21], c[22], c[23], c[24], c[25], c[26]
    z0, z1, z2, z3, z4, z5, z6 = c[27], c[28], c[29], c[30], c[31], c[32], c[33]
    n = (m0 + m1 + m2 + m3 + m4 + m5 + m6 + m7 + m8 + p0 + p1 + p2 + p3 + p4 + p5 + p6 + p7
         + p8 + s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7 + s8 + z0 + z1 + z2 + z3 + z4 + z5 + z6)
    return ((m0 + 5 * (m1 + 5 * (m2 + 5 * (m3 + 5 * (m4 + 5 * (m5 + 5 * (m6 + 5 * (
        m7 + 5 * m8)))))))),
        (p0 + 5 * (p1 + 5 * (p2 + 5 * (p3 + 5 * (p4 + 5 * (p5 + 5 * (p6 + 5 * (
            p7 + 5 * p8)))))))),
        (s0 + 5 * (s1 + 5 * (s2 + 5 * (s3 + 5 * (s4 + 5 * (s5 + 5 * (s6 + 5 * (
            s7 + 5 * s8)))))))),
        (z0 + 5 * (z1 + 5 * (z2 + 5 * (z3 + 5 * (z4 + 5 * (z5 + 5 * z6)))))), n)


def is_win(counts: Sequence[int], hun: int, melds: int = 0) -> bool:
    """Do these tiles and `hun` wildcards form 4 - melds melds and one pair, every tile used?

    The suits' entries add up: the melds each suit needs with the pair elsewhere (m0),
    and how many suits would need one meld fewer holding the pair. Spare hun form melds
    of their own, so the hand wins when the tile count is right and
    sum(m0) - (1 if any suit saves a meld) <= 4 - melds.
    """
    c, n = _checked(counts)
    if hun < 0 or melds < 0 or melds > 4:
        _check_args(hun, melds)
    return fits(c, n, hun, 4 - melds, True)


def fits(c: list[int], n: int, hun: int, need: int, pair: bool) -> bool:
    """Do checked counts `c` (`n` tiles) and `hun` wildcards form `need` melds, and a pair
    when `pair`, every tile used? The one table question behind `is_win` and
    `arrange.is_winning_shape` (which also asks it of a rest whose pair is formed).

    Without the pair to form, the suits' m0 must add up to at most `need`; with it, one
    fewer may do where some suit saves a meld holding it, else two hun make it."""
    if n + hun != 3 * need + (2 if pair else 0):
        return False
    s0, s1, s2, s3 = _codes(c)
    return fits_codes(s0, s1, s2, s3, n, hun, need, pair)


def fits_codes(s0: int, s1: int, s2: int, s3: int, n: int, hun: int, need: int,
               pair: bool) -> bool:
    """`fits` of counts given by their four suits' base-5 codes (`_codes`, as
    `arrange.Layout.suits` holds them) and their tile count `n`: a caller that has the codes
    takes a group's tiles out of them (`holding.rest_fits`) instead of out of a copy of the
    counts."""
    if n + hun != 3 * need + (2 if pair else 0):
        return False
    t = _NUM_WIN[s0] + _NUM_WIN[s1] + _NUM_WIN[s2] + _HON_WIN[s3]
    return (t & _M0) - (1 if pair and t >= _WITH_PAIR else 0) <= need


def wins_holding(c: list[int], hun_kinds: tuple[int, ...], melds: int) -> bool:
    """`is_win` of counts known good that still hold the hun kinds' copies (a table's own
    counts): the hun are taken out of the suits' codes, not out of a copy of the counts
    (the game asks this of the seat on turn at every draw)."""
    return Held(c, hun_kinds).wins(melds)


class Codes:
    """A table's counts kept as codes (the four suits' codes, hun included, and the tile
    count), changed with the counts (`add`): the procedure keeps one a seat so that a
    turn's `Held` reads five ints, not 34 counts. A native class: the ints are unboxed (in
    a list, each change of a code would box a new int)."""

    def __init__(self, c: list[int]) -> None:
        self.s0, self.s1, self.s2, self.s3, self.n = _codes_tiles(c)

    def add(self, k: int, d: int) -> None:
        """`d` copies of kind `k` more (fewer, if d < 0)."""
        if k >= HONOR_START:
            self.s3 = self.s3 + d * _STEPS[k]
        elif k >= TIAO_START:
            self.s2 = self.s2 + d * _STEPS[k]
        elif k >= TONG_START:
            self.s1 = self.s1 + d * _STEPS[k]
        else:
            self.s0 = self.s0 + d * _STEPS[k]
        self.n = self.n + d


class Held:
    """A table's counts that still hold the hun kinds' copies, read once: the tiles, the
    hun among them and the four suits' codes with the hun taken out. The procedure reads
    the seat on turn once and asks both its shape test (`wins`) and greedy's `Discards`
    (`Discards(..., held=)`), which would each work the codes out again (~1,800
    instructions compiled). A native class: its ints are kept unboxed."""

    def __init__(self, c: list[int], hun_kinds: tuple[int, ...],
                 codes: Codes | None = None) -> None:
        """`codes`, when given, are `c`'s, kept by the caller as the counts change (the
        procedure's): read instead of the 34 counts."""
        if codes is None:
            s0, s1, s2, s3, n = _codes_tiles(c)
        else:
            s0 = codes.s0
            s1 = codes.s1
            s2 = codes.s2
            s3 = codes.s3
            n = codes.n
        hun = 0
        for k in hun_kinds:
            m = c[k]
            if m:
                hun += m
                if k >= HONOR_START:
                    s3 -= m * _STEPS[k]
                elif k >= TIAO_START:
                    s2 -= m * _STEPS[k]
                elif k >= TONG_START:
                    s1 -= m * _STEPS[k]
                else:
                    s0 -= m * _STEPS[k]
        self.n = n                   # every tile, hun included
        self.hun = hun
        self.s0 = s0
        self.s1 = s1
        self.s2 = s2
        self.s3 = s3

    def wins(self, melds: int) -> bool:
        """`is_win` of these tiles with `melds` declared."""
        need = 4 - melds
        if self.n != 3 * need + 2:
            return False
        t = _NUM_WIN[self.s0] + _NUM_WIN[self.s1] + _NUM_WIN[self.s2] + _HON_WIN[self.s3]
        return (t & _M0) - (1 if t >= _WITH_PAIR else 0) <= need


def waits(counts: Sequence[int], hun: int, melds: int = 0) -> tuple[int, ...]:
    """The kinds (0..33) that, added as a real tile, make a winning shape, in kind order.

    Empty unless the tiles and hun number 3 * (4 - melds) + 1. A kind held four times is
    never a wait (there is no fifth tile to draw). Hun kinds are not special here: the
    caller knows them, and a drawn hun wins whenever this tuple is non-empty.
    """
    c, n = _checked(counts)
    _check_args(hun, melds)
    need = 4 - melds
    if n + hun + 1 != 3 * need + 2:
        return ()
    s0, s1, s2, s3 = _codes(c)
    e0, e1, e2, e3 = _NUM_WIN[s0], _NUM_WIN[s1], _NUM_WIN[s2], _HON_WIN[s3]
    t = e0 + e1 + e2 + e3
    out: list[int] = []
    _suit_waits(out, c, WAN_START, SUIT_SIZE, s0, _NUM_WIN, t - e0, need)
    _suit_waits(out, c, TONG_START, SUIT_SIZE, s1, _NUM_WIN, t - e1, need)
    _suit_waits(out, c, TIAO_START, SUIT_SIZE, s2, _NUM_WIN, t - e2, need)
    _suit_waits(out, c, HONOR_START, HONOR_SIZE, s3, _HON_WIN, t - e3, need)
    return tuple(out)


def _suit_waits(out: list[int], c: list[int], base: int, size: int, code: int, table: bytes,
                others: int, need: int) -> None:
    """Append the kinds of one suit whose addition wins (`others`: the other suits' sum)."""
    step = 1
    for r in range(size):
        if c[base + r] < 4:
            t = others + table[code + step]
            if (t & _M0) - (t >= _WITH_PAIR) <= need:
                out.append(base + r)
        step *= 5


def deficiency(counts: Sequence[int], hun: int, melds: int = 0) -> int:
    """The fewest tiles the hand lacks for a winning shape, hun filling gaps first.

    Precisely: over every way to pick 4 - melds melds and one pair, each position filled by
    one of the hand's real tiles or left missing (real tiles not picked are discarded),
    the fewest missing positions, less `hun` (each wildcard fills one), at least 0. For a
    14-tile hand (tiles + hun = 3 * (4 - melds) + 2) it is the fewest exchanges (draw one,
    discard one) to a win, 0 exactly when `is_win`; for a 13-tile hand, the fewest draws,
    the last one completing 14 tiles without a discard, so it is at least 1 and 1 means
    ready (waiting). On hun-free hands it is riichi's regular-hand shanten + 1 (tests
    compare the two). A missing position may be a fifth copy of a kind (a hun can be one;
    the wall's four-copy limit is not modelled). More tiles than 3 * (4 - melds) + 2 is an
    error ("counts").
    """
    return deficiency_of(_good(counts, hun, melds), hun, 4 - melds)


def discards(counts: Sequence[int], hun: int, melds: int = 0) -> Discards:
    """`Discards` of a hand, checked as `deficiency` checks it (`HandError` if it is bad):
    `whole()` is its `deficiency`, `less(k)` that of the hand a `k` fewer."""
    return Discards(_good(counts, hun, melds), hun, 4 - melds)


def _good(counts: Sequence[int], hun: int, melds: int) -> list[int]:
    """The counts as a list, after `deficiency`'s checks."""
    c, n = _checked(counts)
    _check_args(hun, melds)
    need = 4 - melds
    if n + hun > 3 * need + 2:
        raise HandError("counts", f"{n + hun} tiles with hun is more than "
                        f"{3 * need + 2} for {melds} declared melds")
    return c


def deficiency_of(c: list[int], hun: int, need: int) -> int:
    """`deficiency` of counts already known good (34 ints from 0 to 4 in a list, with `hun`
    at most 3 * need + 2 tiles), `need` melds to form: no checks. For callers that change
    counts they were given one tile at a time (greedy asks it hundreds of times a hand)."""
    tables = _tables()
    s0, s1, s2, s3 = _codes(c)
    v = _fewest(tables, tables.num_cls[s0], tables.num_cls[s1], tables.num_cls[s2],
                tables.hon_cls[s3], need)
    return v - hun if v > hun else 0


def _tables() -> _Deficit:
    if not _DEFICIT:
        _DEFICIT.append(_Deficit())
    return _DEFICIT[0]


def _least(front: int, back: int, hun: int, need: int) -> int:
    """The deficiency from the two halves' combined classes (`deficiency_of`'s last step;
    each half packed as `_paired` packs it: the fields are read with shifts, no tuple)."""
    best = 99
    for m in range(need + 1):
        j = 2 * _FIELD_BITS * m                   # front's (m melds, no pair) field
        k = 2 * _FIELD_BITS * (need - m)          # back's (need - m melds, no pair)
        v = ((front >> j) & _FIELD) + ((back >> (k + _FIELD_BITS)) & _FIELD)
        w = ((front >> (j + _FIELD_BITS)) & _FIELD) + ((back >> k) & _FIELD)
        if w < v:
            v = w
        if v < best:
            best = v
    return best - hun if best > hun else 0


_STEPS: Final[tuple[int, ...]] = tuple(   # typed: `5 ** x` is Any to mypy, and so to mypyc
    5 ** (k % SUIT_SIZE if k < HONOR_START else k - HONOR_START) for k in range(NUM_KINDS))



class Discards:
    """`deficiency_of` of one hand less one tile, for any of its kinds: the four suits'
    classes are worked out once, so each discard looks up only the suit it leaves (greedy
    weighs every discard of a hand, on every turn), and the four classes' answer is
    mostly remembered (`_fewest`). The counts must be good (as for `deficiency_of`) and
    `less(k)` asked only of a kind held."""

    def __init__(self, c: list[int], hun: int, need: int, held: Held | None = None) -> None:
        """`held`, when given, is `c` with `hun` (the same tiles, read by `Held`): its
        codes are taken instead of worked out again."""
        tables = _tables()
        if held is None:
            s0, s1, s2, s3 = _codes(c)
        else:
            s0 = held.s0
            s1 = held.s1
            s2 = held.s2
            s3 = held.s3
        self.tables = tables
        self.s0 = s0                 # the suits' codes, each its own (compiled: no tuple)
        self.s1 = s1
        self.s2 = s2
        self.s3 = s3
        self.c0 = tables.num_cls[s0]
        self.c1 = tables.num_cls[s1]
        self.c2 = tables.num_cls[s2]
        self.c3 = tables.hon_cls[s3]
        self.hun = hun
        self.need = need

    def whole(self) -> int:
        """The deficiency of the hand itself."""
        v = _fewest(self.tables, self.c0, self.c1, self.c2, self.c3, self.need)
        return v - self.hun if v > self.hun else 0

    def less_hun(self) -> int:
        """The deficiency with one hun fewer (the hand holds one)."""
        v = _fewest(self.tables, self.c0, self.c1, self.c2, self.c3, self.need)
        h = self.hun - 1
        return v - h if v > h else 0

    def less(self, k: int) -> int:
        """The deficiency with one tile of kind `k` fewer."""
        tables = self.tables
        if k < TONG_START:
            v = _fewest(tables, tables.num_cls[self.s0 - _STEPS[k]], self.c1, self.c2,
                        self.c3, self.need)
        elif k < TIAO_START:
            v = _fewest(tables, self.c0, tables.num_cls[self.s1 - _STEPS[k]], self.c2,
                        self.c3, self.need)
        elif k < HONOR_START:
            v = _fewest(tables, self.c0, self.c1, tables.num_cls[self.s2 - _STEPS[k]],
                        self.c3, self.need)
        else:
            v = _fewest(tables, self.c0, self.c1, self.c2,
                        tables.hon_cls[self.s3 - _STEPS[k]], self.need)
        return v - self.hun if v > self.hun else 0


def _fewest(tables: _Deficit, a: int, b: int, c: int, d: int, need: int) -> int:
    """The fewest tiles missing, before hun fill them, for the four suits of classes a, b,
    c (numbered) and d (honours) to form `need` melds and a pair: the two halves' `_least`,
    remembered by the four classes and `need` in a slot of `BEST_SLOTS` (a key met again
    is read from two lists: no int boxed, no dict; another key in its slot replaces it)."""
    n = tables.n
    key = (((a * n + b) * n + c) * n + d) * 5 + need
    slot = (key ^ (key >> _SLOT_SHIFT)) & _SLOT_MASK
    keys = tables.best_keys
    if keys[slot] == key:
        return tables.best_vals[slot]
    v = _least(_paired(tables, a, b), _paired(tables, c, d), 0, need)
    keys[slot] = key
    tables.best_vals[slot] = v
    return v


_FIELD_BITS: Final = 5
_FIELD: Final = (1 << _FIELD_BITS) - 1
"""`_paired` packs its ten values (m melds and p pairs at field 2 * m + p) into one int,
five bits each: a class's values are at most 14 (`shape_build`), two classes' sums at most
28, so 50 bits hold them, within a compiled int's fast range."""


def _paired(tables: _Deficit, a: int, b: int) -> int:
    """Two suits' deficiency classes combined by min-plus over (melds, pair), packed into
    one int (`_FIELD_BITS`), memoised (at most 165 * 165 entries). Written out term by
    term (field 2 * m + p: the least x[2 * m1 + p1] + y[2 * (m - m1) + p - p1]) on the
    classes' ten values unpacked once: compiled, the loops over a tuple's boxed items cost
    ~11 k instructions a new pair (1,219 in 200 greedy hands)."""
    key = a * tables.n + b
    got = tables.paired[key]
    if got >= 0:
        return got
    x0, x1, x2, x3, x4, x5, x6, x7, x8, x9 = tables.classes[a]
    y0, y1, y2, y3, y4, y5, y6, y7, y8, y9 = tables.classes[b]
    res = 0
    res |= (x0 + y0) << (_FIELD_BITS * 0)
    best = x0 + y1
    v = x1 + y0
    if v < best:
        best = v
    res |= best << (_FIELD_BITS * 1)
    best = x0 + y2
    v = x2 + y0
    if v < best:
        best = v
    res |= best << (_FIELD_BITS * 2)
    best = x0 + y3
    v = x1 + y2
    if v < best:
        best = v
    v = x2 + y1
    if v < best:
        best = v
    v = x3 + y0
    if v < best:
        best = v
    res |= best << (_FIELD_BITS * 3)
    best = x0 + y4
    v = x2 + y2
    if v < best:
        best = v
    v = x4 + y0
    if v < best:
        best = v
    res |= best << (_FIELD_BITS * 4)
    best = x0 + y5
    v = x1 + y4
    if v < best:
        best = v
    v = x2 + y3
    if v < best:
        best = v
    v = x3 + y2
    if v < best:
        best = v
    v = x4 + y1
    if v < best:
        best = v
    v = x5 + y0
    if v < best:
        best = v
    res |= best << (_FIELD_BITS * 5)
    best = x0 + y6
    v = x2 + y4
    if v < best:
        best = v
    v = x4 + y2
    if v < best:
        best = v
    v = x6 + y0
    if v < best:
        best = v
    res |= best << (_FIELD_BITS * 6)
    best = x0 + y7
    v = x1 + y6
    if v < best:
        best = v
    v = x2 + y5
    if v < best:
        best = v
    v = x3 + y4
    if v < best:
        best = v
    v = x4 + y3
    if v < best:
        best = v
    v = x5 + y2
    if v < best:
        best = v
    v = x6 + y1
    if v < best:
        best = v
    v = x7 + y0
    if v < best:
        best = v
    res |= best << (_FIELD_BITS * 7)
    best = x0 + y8
    v = x2 + y6
    if v < best:
        best = v
    v = x4 + y4
    if v < best:
        best = v
    v = x6 + y2
    if v < best:
        best = v
    v = x8 + y0
    if v < best:
        best = v
    res |= best << (_FIELD_BITS * 8)
    best = x0 + y9
    v = x1 + y8
    if v < best:
        best = v
    v = x2 + y7
    if v < best:
        best = v
    v = x3 + y6
    if v < best:
        best = v
    v = x4 + y5
    if v < best:
        best = v
    v = x5 + y4
    if v < best:
        best = v
    v = x6 + y3
    if v < best:
        best = v
    v = x7 + y2
    if v < best:
        best = v
    v = x8 + y1
    if v < best:
        best = v
    v = x9 + y0
    if v < best:
        best = v
    res |= best << (_FIELD_BITS * 9)
    tables.paired[key] = res
    return res
