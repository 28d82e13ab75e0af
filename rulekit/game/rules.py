"""The ruleset's `game:` section as a typed value, its defaults read from the schema."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulekit.ruleset.model import Ruleset
from rulekit.ruleset.schema import schema


@dataclass(frozen=True, slots=True)
class GameRules:
    """How a hand is played (docs/game.md); each field is a `game:` key of the ruleset."""

    players: int
    hun_kinds: int
    golden_kong: bool            # hun.golden_kong: four hun may be konged (金杠)
    break_dice: str              # "dealer" (000/Ⅲ 拿牌) or "two_rolls" (000/Ⅷ 開牌)
    draw_game_at: str            # "before_indicator_stack" (000/Ⅳ 術語 4) or "wall_empty"
    pung_hun: bool               # a discarded hun may be punged (000/Ⅲ: no)
    rob_kong: bool               # 搶杠 (000/Ⅳ: no)
    flowers: bool                # the eight flowers in the wall (000/Ⅰ, Ⅲ)
    win_on_discard: bool         # "discard" in win.by
    dealer_sits: bool            # 坐莊 in simulation
    pulls: int                   # 拉莊 per non-dealer in simulation


def defaults() -> dict[str, Any]:
    """Each `game:` key's default, as the schema states it (one source for both)."""
    props = schema()["properties"]["game"]["properties"]
    return {k: v["default"] for k, v in props.items()}


def game_rules(rs: Ruleset) -> GameRules:
    """The ruleset's game section over the schema's defaults."""
    g = dict(defaults())
    g.update({k: v for k, v in (rs.data.get("game") or {}).items() if v is not None})
    pulls = min(int(g["pulls"]), int(rs.settlement["max_pulls"]))
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
    )
