"""Playing hands under a ruleset: the wall, the deal, 開混, play and claims, scoring through
the ruleset's patterns and payment through the settle pipeline (docs/game.md).

`Table` is the referee of one hand: it asks each seat for its decisions and shows each only
what that seat may know (`Observation`; docs/bots.md). `play_hand` plays one hand with
in-process players; `simulate` plays many and summarises them; `replay` re-plays a logged
hand from its record. Nothing here holds a Tianjin value: the procedure's options are the
ruleset's `game:` section (`GameRules`), scores and payments come from `rulekit.settle`.
"""
from __future__ import annotations

from rulekit.game.actions import Action
from rulekit.game.observation import Observation, WinOffer
from rulekit.game.players import PLAYERS, Player, make_player
from rulekit.game.procedure import HandRecord, IllegalMove
from rulekit.game.rules import GameRules, game_rules
from rulekit.game.table import Table, play_hand
from rulekit.game import procedure as _procedure

# `play_hand` lives in rulekit.game.table (a loop over `Table`, which drives the procedure);
# the old import path `rulekit.game.procedure.play_hand` still works. Set here, not by a
# module `__getattr__` in procedure.py, which mypyc-compiled modules cannot have (setup.py).
setattr(_procedure, "play_hand", play_hand)

__all__ = ["Action", "GameRules", "game_rules", "HandRecord", "IllegalMove", "Observation",
           "play_hand", "Player", "PLAYERS", "make_player", "Table", "WinOffer"]
