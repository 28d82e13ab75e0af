"""rulekit.codes: the one place tile classes and group keys are spelled, in step with the
tile notation and the DSL's shape queries."""
from __future__ import annotations

import re
from pathlib import Path

from rulekit import codes, tiles
from rulekit.facts import run_key, shape_key


def test_tile_classes_match_the_notation() -> None:
    assert tiles.parse_tiles("1z")[0] == codes.HONOR_START == 27       # 東
    assert tiles.parse_tiles("5z")[0] == codes.DRAGON_START == 31      # 中
    assert tiles.parse_tiles("7z")[0] == codes.NUM_KINDS - 1 == 33     # 白
    assert tiles.FLOWERS == range(codes.FLOWER_START, codes.FLOWER_END)
    assert [tiles.parse_tiles(f"1{s}")[0] for s in "mpsz"] == list(codes.SUIT_BASES)


def test_group_keys_are_distinct_and_name_their_shape() -> None:
    keys = {codes.group_key(shape, first): (shape, first)
            for shape in (codes.RUN, codes.SET, codes.PAIR, codes.KONG)
            for first in range(codes.FLOWER_END)}
    assert len(keys) == 4 * 42
    assert all(codes.key_shape(k) == shape for k, (shape, _) in keys.items())
    # the skeleton index (facts) and the DSL's run(suit, rank) use the same keys
    assert shape_key(codes.PAIR, 31) == codes.group_key(codes.PAIR, 31) == 2 * 64 + 31
    assert run_key("tong", 4) == codes.group_key(codes.RUN, 9 + 3) == 12


# Lines that still spell a class boundary or a suit base, each with why. The shape tables'
# suit code is unrolled over the 34 counts for speed: its indices are the kinds themselves.
# shape._codes spells each class's base-5 code out index by index (34 reads unrolled: the
# shape tables' key, asked several times a greedy decision); the honour class's indices are
# literals there like the suits' (and in shape._codes_tiles, which reads them into locals).
LEFT = {
    "shape.py": ("(c[27] + 5 * (c[28]", "c[31] + 5 * (c[32]", "z6 = c[27], c[28]"),
}
SPELLED = re.compile(r"KEY_STRIDE|\* *64 *\+|(?<!:)[<>]=? *(27|31|34)\b|\b(27|31|34) *[<>]=?"
                     r"|range\((27|31|34)\)|\b(27|31|34) *\+ *i\b|\* *(27|34)\b|\[(27|31|34)\]"
                     r"|(//|%) *9\b|\b(0|9|18), *(9|18)\b")


def test_no_module_spells_a_group_key_a_class_boundary_or_a_suit_base() -> None:
    """The group key formula, the tile-class boundaries 27/31/34 and the suit bases 9/18
    (and suit arithmetic by 9) are written in codes.py only, in every module of the
    package but the lines `LEFT` names."""
    root = Path(codes.__file__).resolve().parent
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel == "codes.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#")[0]
            if SPELLED.search(code) and not any(x in code for x in LEFT.get(rel, ())):
                found.append(f"rulekit/{rel}:{n}: {line.strip()}")
    assert found == []


def test_the_scan_catches_what_it_should() -> None:
    for line in ("if k >= 27:", "start // 9", "counts = [0] * 34", "(0, 9)", "c[31]",
                 "shape * 64 + first", "for k in range(34):"):
        assert SPELLED.search(line), line
    for line in ("f\"{name:<34}\"", "zlib.compress(data, 9)", "UNKNOWN_SIZE = 18", "2 ** 31"):
        assert not SPELLED.search(line), line
