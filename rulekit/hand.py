"""The hand document: parse it, check it is a possible Tianjin hand, and write it back out.

Everything downstream (arrangements, facts, scoring) trusts a `Hand`, so every way a document
can be impossible is rejected here, once, with a `HandError` that names the field.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from operator import eq
from typing import Any, Final

from .errors import HandError, TileError
from .limits import excerpt
from .tiles import (NUM_KINDS, TILE_NAMES, format_tiles, hun_kinds, is_flower,
                    parse_tiles, plain_kind, plain_tiles_counted, successor, tile_name)

PUNG = "pung"
KONG: Final = "kong"
MELD_KINDS = (PUNG, KONG)
WIN_BY: Final = ("self_draw", "kong_draw", "discard", "last_draw")
"""Every win type a document may name; a ruleset allows a subset."""
DEFAULT_WIN_BY_ALLOWED = frozenset({"self_draw", "kong_draw"})
SELF_DRAW: Final = "self_draw"
LAST_DRAW: Final = "last_draw"
"""A win on the last tile of the wall (海底撈) is a self-draw: allowed wherever self-draws are."""
REQUIRED_FIELDS = ("indicator", "hand", "win_tile")


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared pung or kong; its tiles are all `tile`, since hun never stand in a meld."""

    kind: str
    tile: int
    concealed: bool = False
    golden: bool = False

    @property
    def size(self) -> int:
        return 4 if self.kind == KONG else 3

    @property
    def kong_type(self) -> str | None:
        """"exposed" | "concealed" | "golden" (金杠), or None for a pung: kong points key on it."""
        if self.kind != KONG:
            return None
        if self.golden:
            return "golden"
        return "concealed" if self.concealed else "exposed"


@dataclass(frozen=True, slots=True, init=False)
class Hand:
    """A validated hand; `concealed` excludes the winning tile and is sorted."""

    indicator: int
    hun: tuple[int, ...]
    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: int
    win_by: str
    heavenly: bool
    discarded_hun: bool
    flowers: tuple[int, ...] = ()
    earthly: bool = False           # 地和: a non-dealer wins on the first draw
    ready_declared: bool = False    # 天聽: declared ready after the dealer's first discard

    # Written out (init=False) because one is built per score: compiled by mypyc this runs
    # in ~30 ns, where the __init__ dataclasses generates runs as Python (~0.8 us).
    def __init__(self, indicator: int, hun: tuple[int, ...], concealed: tuple[int, ...],
                 melds: tuple[Meld, ...], win_tile: int, win_by: str, heavenly: bool,
                 discarded_hun: bool, flowers: tuple[int, ...] = (), earthly: bool = False,
                 ready_declared: bool = False) -> None:
        object.__setattr__(self, "indicator", indicator)
        object.__setattr__(self, "hun", hun)
        object.__setattr__(self, "concealed", concealed)
        object.__setattr__(self, "melds", melds)
        object.__setattr__(self, "win_tile", win_tile)
        object.__setattr__(self, "win_by", win_by)
        object.__setattr__(self, "heavenly", heavenly)
        object.__setattr__(self, "discarded_hun", discarded_hun)
        object.__setattr__(self, "flowers", flowers)
        object.__setattr__(self, "earthly", earthly)
        object.__setattr__(self, "ready_declared", ready_declared)


_JSON_TYPE_NAMES = {type(None): "null", bool: "boolean", int: "number", float: "number",
                    str: "string", list: "array", tuple: "array", dict: "object"}


def _type_name(value: object) -> str:
    if isinstance(value, Mapping):
        return "object"
    return _JSON_TYPE_NAMES.get(type(value), type(value).__name__)


def _string(field: str, value: object) -> str:
    if not isinstance(value, str):
        raise HandError(field, f"expected a string, got {_type_name(value)}")
    return value


def _bool(field: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise HandError(field, f"expected true or false, got {_type_name(value)}")
    return value


def _tiles(field: str, value: object, *, flowers: bool = False) -> tuple[int, ...]:
    """Parse a tile field; flowers belong only in `flowers`, and nothing else does."""
    try:
        tiles = parse_tiles(_string(field, value))
    except TileError as err:
        raise HandError(field, excerpt(str(err))) from None
    if not tiles or (min(tiles) >= NUM_KINDS if flowers else max(tiles) < NUM_KINDS):
        return tiles                # all allowed: no need to find the first that is not
    for t in tiles:
        if is_flower(t) != flowers:
            what = "only flower tiles belong here" if flowers else "flower tiles belong only in 'flowers'"
            raise HandError(field, f"{TILE_NAMES[t]} is not allowed: {what}")
    return tiles


def _flowers(value: object) -> tuple[int, ...]:
    """The flowers shown, sorted: one of each flower exists, so none may appear twice."""
    flowers = tuple(sorted(_tiles("flowers", value, flowers=True)))
    for a, b in zip(flowers, flowers[1:]):
        if a == b:
            raise HandError("flowers", f"{TILE_NAMES[a]} appears more than once: there is "
                            "one of each flower")
    return flowers


def win_by_allowed_by(win_by: str, allowed: frozenset[str]) -> bool:
    """`win_by` is allowed by a ruleset allowing `allowed`; a last-tile win is a self-draw."""
    return win_by in allowed or (win_by == LAST_DRAW and SELF_DRAW in allowed)


def _one_tile(field: str, value: object) -> int:
    tiles = _tiles(field, value)
    if len(tiles) != 1:
        raise HandError(field, f"expected exactly one tile, got {len(tiles)} in "
                        f"{excerpt(repr(value))}")
    return tiles[0]


def _meld(field: str, value: object, hun: tuple[int, ...]) -> Meld:
    if not isinstance(value, Mapping):
        raise HandError(field, f"expected an object, got {_type_name(value)}")
    if "kind" not in value:
        raise HandError(f"{field}.kind", "required field is missing")
    kind = _string(f"{field}.kind", value["kind"])
    if kind not in MELD_KINDS:
        raise HandError(f"{field}.kind", f"unknown meld kind {excerpt(repr(kind))}; expected "
                        "'pung' or 'kong'")
    if "tiles" not in value:
        raise HandError(f"{field}.tiles", "required field is missing")
    tiles = _tiles(f"{field}.tiles", value["tiles"])
    size = 4 if kind == KONG else 3
    if len(tiles) != size or len(set(tiles)) != 1:
        raise HandError(f"{field}.tiles",
                        f"a {kind} is {size} identical tiles, got {excerpt(repr(value['tiles']))}")
    concealed = _bool(f"{field}.concealed", value.get("concealed", False))
    if concealed and kind == PUNG:
        raise HandError(f"{field}.concealed", "a pung is always exposed; only a kong may be concealed")
    tile = tiles[0]
    if tile in hun and not concealed:
        raise HandError(f"{field}.tiles",
                        f"an exposed {kind} of hun {TILE_NAMES[tile]}: hun can only be konged "
                        f"concealed (金杠)")
    return Meld(kind, tile, concealed, golden=concealed and tile in hun)


def _check_copies(indicator: int, concealed: tuple[int, ...], melds: tuple[Meld, ...],
                  win_tile: int) -> None:
    """At most 4 of a kind in a hand, 3 of the indicator's kind (its 4th is face up on the wall).

    The field named is the one where the count first goes over, reading hand, melds, win_tile.
    """
    counts = [0] * NUM_KINDS
    for t in concealed:
        counts[t] += 1
    for m in melds:
        counts[m.tile] += m.size
    counts[win_tile] += 1
    if max(counts) <= 4 and counts[indicator] <= 3:
        return                      # the common case; the walk below only names the field
    seen = [0] * NUM_KINDS
    sources: list[tuple[str, tuple[int, ...]]] = [("hand", concealed)]
    sources += [(f"melds[{i}].tiles", (m.tile,) * m.size) for i, m in enumerate(melds)]
    sources.append(("win_tile", (win_tile,)))
    for field, tiles in sources:
        for t in tiles:
            seen[t] += 1
            if t == indicator and seen[t] > 3:
                raise HandError(field, f"4 copies of {TILE_NAMES[t]}, the indicator's kind, "
                                "counting hand, melds and win_tile: the indicator stays face up "
                                "on the wall, so at most 3 can be in a hand")
            if seen[t] > 4:
                raise HandError(field, f"5 copies of {TILE_NAMES[t]} counting hand, melds and "
                                "win_tile: only 4 exist")


def parse_hand(doc: object, *, hun_kind_count: int = 2,
               win_by_allowed: frozenset[str] = DEFAULT_WIN_BY_ALLOWED,
               hun_successor: bool = False) -> Hand:
    """Validate a hand document (a JSON object) into a `Hand`; unknown fields are ignored.

    `hun_kind_count`, `win_by_allowed` and `hun_successor` (one hun kind, the indicator's
    successor: `game.single_hun`) come from the ruleset, so the same document can be legal at
    one table and rejected at another. A valid plain dict takes a fast path; every other
    document, and every error, goes through `_parse_checked`.
    """
    if type(doc) is dict:
        try:
            hand = _parse_plain(doc, hun_kind_count, win_by_allowed, hun_successor)
        except (KeyError, TypeError, TileError):
            hand = None             # a missing field, an unhashable value, bad flowers...
        if hand is not None:
            return hand
    return _parse_checked(doc, hun_kind_count, win_by_allowed, hun_successor)


def hun_of(indicator: int, hun_kind_count: int, hun_successor: bool = False
           ) -> tuple[int, ...]:
    """The hun kinds: `tiles.hun_kinds`, or with one kind and `hun_successor` the
    indicator's successor alone (000/Ⅲ's reading where the face-up kind has only 3 live)."""
    if hun_successor and hun_kind_count == 1:
        return (successor(indicator),)
    return hun_kinds(indicator, hun_kind_count)


# --- the fast path ---------------------------------------------------------------------------
#
# Hands are parsed on every score, and nearly every document is a plain dict in ASCII
# notation. `_parse_plain` accepts such documents when they are valid, with cheap whole-value
# checks; anything else (an error, Chinese notation, a Mapping that is not a dict) makes it
# return None, and `_parse_checked` then gives the answer or the message.

_HUN_1: Final = tuple(hun_kinds(t, 1) for t in range(NUM_KINDS))
_HUN_2: Final = tuple(hun_kinds(t, 2) for t in range(NUM_KINDS))
_HUN_1S: Final = tuple(hun_of(t, 1, True) for t in range(NUM_KINDS))
"""`hun_kinds(indicator, 1)` and `(indicator, 2)`, and the successor alone, by indicator."""
_MELD_MEMO: dict[tuple[str, object, bool], tuple[Meld, tuple[int, ...]]] = {}
"""(kind, tiles, concealed) -> the meld, not golden, and its tiles: melds not in canonical
notation (`5p5p5p`), which are rare. Only short texts are kept (`_MELD_MEMO_TEXT`): a
client's `5p` padded with spaces is still a meld, and would otherwise hold its bytes here."""
_MELD_MEMO_SIZE = 4096
_MELD_MEMO_TEXT: Final = 24
MELD_ENTRY_BYTES: Final = 450
"""What one `_MELD_MEMO` entry holds at most (tests/test_memo_bounds.py measures it)."""
_MELDS: Final = tuple(Meld(kind, t, concealed, golden) for t in range(NUM_KINDS)
                      for kind in MELD_KINDS for concealed in (False, True)
                      for golden in (False, True))
"""Every meld, at `_meld_index(tile, kind, concealed, golden)`: melds are values, so one
object serves every hand."""


def _meld_index(tile: int, kong: bool, concealed: bool, golden: bool) -> int:
    return tile * 8 + (4 if kong else 0) + (2 if concealed else 0) + (1 if golden else 0)


def _plain_tile(value: object) -> int:
    """The kind of a canonical single tile (`5m`), or -1 for anything else."""
    if type(value) is not str or len(value) != 2:
        return -1
    return plain_kind(ord(value[0]), ord(value[1]))


def _canonical_meld_tile(text: object, size: int) -> int:
    """The kind of `size` identical tiles in canonical notation (`555p`), else -1."""
    if type(text) is not str or len(text) != size + 1:
        return -1
    digit = ord(text[0])
    for j in range(1, size):
        if ord(text[j]) != digit:
            return -1
    return plain_kind(digit, ord(text[size]))


def _plain_meld(value: object) -> tuple[Meld, tuple[int, ...]] | None:
    """The meld `value` declares and its tiles, or None if invalid when nothing is hun.

    May raise KeyError or TypeError (a missing field, an unhashable value).
    """
    if type(value) is not dict:
        return None
    kind = value["kind"]
    concealed = value.get("concealed", False)
    if type(kind) is not str or (concealed is not False and concealed is not True):
        return None                 # (1 == True, so a bool check comes before the memo)
    key = (kind, value["tiles"], concealed)
    hit = _MELD_MEMO.get(key)
    if hit is None:
        try:
            meld = _meld("melds", value, ())
        except HandError:
            return None
        hit = meld, (meld.tile,) * meld.size
        tiles = value["tiles"]
        if len(_MELD_MEMO) < _MELD_MEMO_SIZE and type(tiles) is str \
                and len(tiles) <= _MELD_MEMO_TEXT and len(kind) <= _MELD_MEMO_TEXT:
            _MELD_MEMO[key] = hit
    return hit


def _plain_melds(raw_melds: list[Any] | tuple[Any, ...], hun: tuple[int, ...],
                 counts: list[int]) -> tuple[Meld, ...] | None:
    """The declared melds, their tiles added to `counts`; None where `_parse_checked` may
    refuse (or may raise KeyError or TypeError). Canonical tiles (`555p`) need no parse."""
    built: list[Meld] = []
    for value in raw_melds:
        if type(value) is not dict:
            return None
        kind = value["kind"]
        concealed = value.get("concealed", False)
        if type(kind) is not str or (concealed is not False and concealed is not True):
            return None             # (1 == True, so only identity tells a bool)
        kong = kind == KONG
        tile = _canonical_meld_tile(value["tiles"], 4 if kong else 3) \
            if kong or kind == PUNG else -1
        if tile >= 0:
            if concealed and not kong:
                return None         # a concealed pung
            meld = _MELDS[_meld_index(tile, kong, concealed, False)]
        else:
            hit = _plain_meld(value)
            if hit is None:
                return None
            meld = hit[0]
            tile = meld.tile
        if tile in hun:
            if not meld.concealed:
                return None         # an exposed meld of hun
            meld = _MELDS[_meld_index(tile, True, True, True)]
        n = counts[tile] + meld.size
        if n > 4:
            return None
        counts[tile] = n
        built.append(meld)
    return tuple(built)


def _plain_win_by(value: object) -> str:
    """The `WIN_BY` name equal to `value` ("" if none): the constant's hash is computed once,
    where a string just read from JSON would be hashed by every set lookup."""
    if type(value) is not str:
        return ""
    if value == SELF_DRAW:
        return SELF_DRAW
    if value == "kong_draw":
        return "kong_draw"
    if value == "discard":
        return "discard"
    return LAST_DRAW if value == LAST_DRAW else ""


def _parse_plain(doc: dict[Any, Any], hun_kind_count: int,
                 win_by_allowed: frozenset[str], hun_successor: bool = False) -> Hand | None:
    """`parse_hand` for a valid plain document, else None (or KeyError, TypeError, TileError).

    It returns a Hand only where `_parse_checked` returns an equal one, so a None or an
    exception costs nothing but time. Tiles are counted by kind as they are read, for the
    copies check.
    """
    indicator = _plain_tile(doc["indicator"])
    win_tile = _plain_tile(doc["win_tile"])
    if indicator < 0 or win_tile < 0:
        return None
    if hun_kind_count == 2:
        hun = _HUN_2[indicator]
    elif hun_kind_count == 1:
        hun = _HUN_1S[indicator] if hun_successor else _HUN_1[indicator]
    else:
        return None
    text = doc["hand"]
    if type(text) is not str:
        return None
    counts = [0] * NUM_KINDS
    counts[win_tile] = 1
    kinds = plain_tiles_counted(text, counts)
    if kinds is None:
        return None

    raw_melds = doc.get("melds", ())
    melds: tuple[Meld, ...] = ()
    if raw_melds:
        if type(raw_melds) is not list and type(raw_melds) is not tuple or len(raw_melds) > 4:
            return None
        plain = _plain_melds(raw_melds, hun, counts)
        if plain is None:
            return None
        melds = plain
    elif raw_melds != [] and raw_melds != ():
        return None                 # another empty value, say "" or {}
    if len(kinds) != 13 - 3 * len(melds) or counts[indicator] > 3:
        return None

    win_by = _plain_win_by(doc.get("win_by", SELF_DRAW))
    if not win_by or not win_by_allowed_by(win_by, win_by_allowed):
        return None
    heavenly = doc.get("heavenly", False)
    discarded_hun = doc.get("discarded_hun", False)
    earthly = doc.get("earthly", False)
    ready_declared = doc.get("ready_declared", False)
    if heavenly is not False and heavenly is not True \
            or discarded_hun is not False and discarded_hun is not True \
            or earthly is not False and earthly is not True \
            or ready_declared is not False and ready_declared is not True:
        return None             # (1 == True, so only identity tells a bool)
    if win_by == "kong_draw" and not any(m.kind == KONG for m in melds):
        return None
    if heavenly and (win_by != SELF_DRAW or melds):
        return None

    flowers: tuple[int, ...] = ()
    raw_flowers = doc.get("flowers", "")
    if type(raw_flowers) is not str:
        return None
    if raw_flowers:
        flowers = tuple(sorted(parse_tiles(raw_flowers)))   # may raise TileError
        if flowers and flowers[0] < NUM_KINDS or any(map(eq, flowers, flowers[1:])):
            return None             # a tile that is not a flower, or a flower twice
    return Hand(indicator, hun, tuple(kinds), melds, win_tile, win_by, heavenly, discarded_hun,
                flowers, earthly, ready_declared)


def _parse_checked(doc: object, hun_kind_count: int, win_by_allowed: frozenset[str],
                   hun_successor: bool = False) -> Hand:
    """`parse_hand` field by field: the reference behaviour, and the source of every error."""
    if not isinstance(doc, Mapping):
        raise HandError("document", f"expected an object, got {_type_name(doc)}")
    for field in REQUIRED_FIELDS:
        if field not in doc:
            raise HandError(field, "required field is missing")

    indicator = _one_tile("indicator", doc["indicator"])
    hun = hun_of(indicator, hun_kind_count, hun_successor)
    concealed = tuple(sorted(_tiles("hand", doc["hand"])))

    raw_melds = doc.get("melds", [])
    if not isinstance(raw_melds, (list, tuple)):
        raise HandError("melds", f"expected an array, got {_type_name(raw_melds)}")
    if len(raw_melds) > 4:
        raise HandError("melds", f"{len(raw_melds)} melds declared; a hand has at most 4")
    melds = tuple(_meld(f"melds[{i}]", m, hun) for i, m in enumerate(raw_melds))

    win_tile = _one_tile("win_tile", doc["win_tile"])
    win_by = _string("win_by", doc.get("win_by", "self_draw"))
    heavenly = _bool("heavenly", doc.get("heavenly", False))
    discarded_hun = _bool("discarded_hun", doc.get("discarded_hun", False))
    flowers = _flowers(doc.get("flowers", ""))
    earthly = _bool("earthly", doc.get("earthly", False))
    ready_declared = _bool("ready_declared", doc.get("ready_declared", False))

    expected = 13 - 3 * len(melds)
    if len(concealed) != expected:
        melds_text = f"{len(melds)} meld{'s' if len(melds) != 1 else ''}"
        raise HandError("hand", f"has {len(concealed)} tiles, expected {expected} with "
                        f"{melds_text} (13 - 3 per meld, without the winning tile)")
    _check_copies(indicator, concealed, melds, win_tile)

    if win_by not in WIN_BY:
        raise HandError("win_by", f"unknown win type {excerpt(repr(win_by))}; expected one of "
                        + ", ".join(WIN_BY))
    if not win_by_allowed_by(win_by, win_by_allowed):
        raise HandError("win_by", f"{win_by!r} is not allowed by this ruleset (allowed: "
                        + ", ".join(w for w in WIN_BY if win_by_allowed_by(w, win_by_allowed))
                        + ")")
    if heavenly and win_by == "kong_draw":
        raise HandError("heavenly", "a win on a kong replacement (kong_draw) is not 天和")
    if heavenly and win_by != SELF_DRAW:
        raise HandError("heavenly", f"天和 is the dealer's own first fourteen tiles, a "
                        f"self-draw (win_by: self_draw), not win_by: {win_by}")
    if win_by == "kong_draw" and not any(m.kind == KONG for m in melds):
        raise HandError("win_by", "'kong_draw' needs a kong among the melds")
    if heavenly and melds:
        raise HandError("heavenly", "a heavenly win (天和) is on the first 14 tiles, so it "
                        "cannot have melds")

    # heavenly and earthly together: a 地和 scored as 天和 (game.earthly_as_heavenly, 000/Ⅳ
    # 「一般認為和天和處理方法相同」); the settlement checks that a non-dealer won it
    return Hand(indicator, hun, concealed, melds, win_tile, win_by, heavenly, discarded_hun,
                flowers, earthly, ready_declared)


def hand_doc(hand: Hand) -> dict[str, Any]:
    """The canonical document for `hand`: parse_hand(hand_doc(h)) == h at the same hun count.

    The hun kinds are not written: they follow from the indicator and the ruleset.
    """
    return {
        "indicator": tile_name(hand.indicator),
        "hand": format_tiles(hand.concealed),
        "melds": [{"kind": m.kind, "tiles": format_tiles((m.tile,) * m.size),
                   "concealed": m.concealed} for m in hand.melds],
        "win_tile": tile_name(hand.win_tile),
        "win_by": hand.win_by,
        "heavenly": hand.heavenly,
        "discarded_hun": hand.discarded_hun,
        "flowers": format_tiles(hand.flowers),
        "earthly": hand.earthly,
        "ready_declared": hand.ready_declared,
    }
