"""The ruleset's `game:` section as a typed value, its defaults read from the schema."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rulekit.ruleset.model import Ruleset
from rulekit.ruleset.schema import schema


@dataclass(frozen=True, slots=True)
class GameRules:
    """How a hand is played (docs/game.md); each field is a `game:` key of the ruleset, or
    read from another section where the ruleset already says it."""

    players: int
    hun_kinds: int
    golden_kong: bool            # hun.golden_kong: four hun may be konged (金杠)
    break_dice: str              # "dealer" (000/Ⅲ 拿牌) or "two_rolls" (000/Ⅷ 開牌)
    draw_game_at: str            # "before_indicator_stack" (000/Ⅳ 術語 4) or "wall_empty"
    pung_hun: bool               # a discarded hun may be punged (000/Ⅲ: no)
    rob_kong: bool               # 搶杠 (000/Ⅳ: no)
    flowers: bool                # the eight flowers in the wall (000/Ⅰ, Ⅲ)
    win_on_discard: bool         # "discard" in win.by
    dealer_sits: bool            # the built-in players' 坐莊 choice (and the table's, if not asked)
    pulls: int                   # the built-in players' 拉莊 count per non-dealer
    claims_on_last_four: bool    # pung / exposed kong of a discard with 4 or fewer tiles left
    earthly_as_heavenly: bool    # 地和 is scored and paid as 天和 (000/Ⅳ 特殊規則)
    hun_successor: bool          # one hun kind, the indicator's successor (game.single_hun)
    ask_sit: bool                # 坐莊 is a choice the dealer makes (it changes payments)
    max_pulls: int               # 拉莊 is a choice of up to this many (0: not asked)
    ready: bool                  # 天聽 can be declared (game.declare_ready)
    hun_discard_rule: str        # a discarded hun's event label: the forbid rules reading it


def defaults() -> dict[str, Any]:
    """Each `game:` key's default, as the schema states it (one source for both)."""
    props = schema()["properties"]["game"]["properties"]
    return {k: v["default"] for k, v in props.items()}


_DISCARDED_HUN = re.compile(r"\bcontext\.discarded_hun\b")


def hun_discard_rule(rs: Ruleset) -> str:
    """What the event of a discarded hun says: the `forbid` rules whose condition reads
    `context.discarded_hun` (小相公 in tianjin), by name, or nothing where none does."""
    names = [str((e or {}).get("name") or fid) for fid, e in (rs.data.get("forbid") or {}).items()
             if _DISCARDED_HUN.search(str((e or {}).get("when") or ""))]
    return f"{' / '.join(names)}: this seat cannot win this hand" if names else ""


def game_rules(rs: Ruleset) -> GameRules:
    """The ruleset's game section over the schema's defaults."""
    g = dict(defaults())
    g.update({k: v for k, v in (rs.data.get("game") or {}).items() if v is not None})
    st = rs.settlement
    max_pulls = int(st["max_pulls"]) if st.get("pull_multiplier") != 1 else 0
    pulls = min(int(g["pulls"]), int(st["max_pulls"]))
    return GameRules(
        players=rs.players,
        hun_kinds=rs.hun_kinds,
        golden_kong=rs.golden_kong_allowed,
        break_dice=str(g["break_dice"]),
        draw_game_at=str(g["draw_game_at"]),
        pung_hun=bool(g["pung_hun"]),
        rob_kong=bool(g["rob_kong"]) and "discard" in rs.win_by,
        flowers=bool(g["flowers"]),
        win_on_discard="discard" in rs.win_by,
        dealer_sits=bool(g["dealer_sits"]),
        pulls=pulls,
        claims_on_last_four=bool(g["claims_on_last_four"]),
        earthly_as_heavenly=bool(g["earthly_as_heavenly"]),
        hun_successor=rs.hun_successor,
        ask_sit=st.get("dealer_sits_multiplier") != 1,
        max_pulls=max_pulls,
        ready=bool(g["declare_ready"]),
        hun_discard_rule=hun_discard_rule(rs),
    )
