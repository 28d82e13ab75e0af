"""Playing hands under a ruleset: the wall, the deal, 開混, play and claims, scoring through
the ruleset's patterns and payment through the settle pipeline (docs/game.md).

`play_hand` plays one hand; `simulate` plays many and summarises them; `replay` re-plays a
logged hand from its record. Nothing here holds a Tianjin value: the procedure's options are
the ruleset's `game:` section (`GameRules`), scores and payments come from `rulekit.settle`.
"""
from __future__ import annotations

from rulekit.game.players import Player, make_player
from rulekit.game.procedure import HandRecord, IllegalMove, play_hand
from rulekit.game.rules import GameRules, game_rules

__all__ = ["GameRules", "game_rules", "HandRecord", "IllegalMove", "play_hand", "Player",
           "make_player"]
