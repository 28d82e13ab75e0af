"""A whole hand typed as one line, read into a hand document (`POST /v1/parse`).

The calculator's text box takes what a player would say at the table: the concealed tiles,
then the winning tile, the indicator, melds and flowers, each after its word, in ASCII or
Chinese (`46m 123456789s 22z win 5m ind 7p`, `四六萬 一二三四五六七八九條 南南 和五萬 混七筒
碰555p`). Tiles are read by `rulekit.tiles.parse_tiles`, the parser of the CLI and of hand
documents, so the page has no second one. The result is only a document: scoring it (and
every check of counts and copies) is `/v1/score`'s job.
"""
from __future__ import annotations

import re
from typing import Any

from rulekit.errors import TileError
from rulekit.tiles import FLOWER, SUIT_OF, format_tiles, parse_tiles, tile_name
from rulekit.serve.errors import ApiError

MAX_TEXT = 400
"""Characters in one typed hand: a full hand in the longest spelling is under 120."""

# each section's words, ASCII (any case) or Chinese; `+` also announces the winning tile
_WORDS = {
    "win": ("--win", "win", "+", "和", "胡"),
    "indicator": ("--indicator", "indicator", "ind", "混"),
    "pung": ("--pung", "pung", "碰"),
    "kong": ("--kong", "kong", "明杠", "明槓", "杠", "槓"),
    "ckong": ("--concealed-kong", "ckong", "暗杠", "暗槓"),
    "flowers": ("--flowers", "flowers", "flower", "花"),
}
_SECTION = {w.lower(): key for key, words in _WORDS.items() for w in words}
_SPLIT = re.compile("(" + "|".join(re.escape(w) for w in sorted(_SECTION, key=len, reverse=True))
                    + ")", re.IGNORECASE)


def parse(text: Any) -> dict[str, Any]:
    """`text` → `{"hand": {hand document}}`: only the parts the text names."""
    if not isinstance(text, str):
        raise ApiError(400, "text", "expected the hand as a string, e.g. \"46m 123456789s 22z "
                                    "win 5m ind 7p\"")
    if len(text) > MAX_TEXT:
        raise ApiError(413, "text", f"a typed hand is at most {MAX_TEXT} characters")
    sections = _sections(text)
    found: dict[str, tuple[int, ...]] = {}
    melds: list[dict[str, Any]] = []
    for key, tiles in sections:
        if key in ("pung", "kong", "ckong"):
            melds += _melds(key, tiles)
        else:
            found[key] = found.get(key, ()) + tiles
    doc: dict[str, Any] = {}
    concealed = list(found.get("hand", ()))
    flowers = [t for t in concealed if SUIT_OF[t] == FLOWER] + list(found.get("flowers", ()))
    concealed = [t for t in concealed if SUIT_OF[t] != FLOWER]
    if "win" in found:
        doc["win_tile"] = _one("win", found["win"])
    elif len(concealed) == 14 - 3 * len(melds):
        doc["win_tile"] = tile_name(concealed.pop())     # a full hand: the last tile typed
    if "indicator" in found:
        doc["indicator"] = _one("indicator", found["indicator"])
    doc["hand"] = format_tiles(concealed)
    if melds:
        doc["melds"] = melds
    if any(SUIT_OF[t] != FLOWER for t in flowers):
        raise ApiError(422, "text", "flowers: only flower tiles (1f-8f, 春夏秋冬梅蘭竹菊) here")
    if flowers:
        doc["flowers"] = format_tiles(flowers)
    return {"hand": doc}


def _sections(text: str) -> list[tuple[str, tuple[int, ...]]]:
    """Each word's section and its tiles, in order (those before any word: `hand`)."""
    out: list[tuple[str, tuple[int, ...]]] = []
    parts = _SPLIT.split(text)
    key = "hand"
    seen = set()
    for i, part in enumerate(parts):
        if i % 2:
            key = _SECTION[part.lower()]
            if key in seen and key in ("win", "indicator"):
                raise ApiError(422, "text", f"{part}: the {key} is named twice")
            seen.add(key)
            continue
        try:
            tiles = parse_tiles(part) if part.strip() else ()
        except TileError as err:
            raise ApiError(422, "text", f"{key}: {err}") from None
        out.append((key, tiles))
    return out


def _one(key: str, tiles: tuple[int, ...]) -> str:
    if len(tiles) != 1:
        raise ApiError(422, "text", f"{key}: one tile, got {len(tiles)}")
    return tile_name(tiles[0])


def _melds(key: str, tiles: tuple[int, ...]) -> list[dict[str, Any]]:
    """`碰5p` or `碰555p` is one pung; runs of one kind make one meld each (`碰555p222z`)."""
    size = 3 if key == "pung" else 4
    out = []
    i = 0
    while i < len(tiles):
        j = i
        while j < len(tiles) and tiles[j] == tiles[i]:
            j += 1
        n = j - i
        if n != 1 and n % size:
            raise ApiError(422, "text", f"{key}: {n} × {tile_name(tiles[i])} is not a whole "
                                        f"{'pung' if size == 3 else 'kong'}")
        for _ in range(max(1, n // size)):
            meld: dict[str, Any] = {"kind": "pung" if size == 3 else "kong",
                                    "tiles": format_tiles([tiles[i]] * size)}
            if size == 4:
                meld["concealed"] = key == "ckong"
            out.append(meld)
        i = j
    return out
