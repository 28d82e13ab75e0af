"""TEMPORARY (until rulekit.game.Table lands from branch r1-table): a bot seat inside
`play_hand`. The engine's `choose_*` calls become protocol requests with a seat-only
observation built from the HandState, and events are filtered per seat as the Table
contract says. Built-in players play as they do in `simulate`."""
from __future__ import annotations

from typing import Any, Sequence

from rulekit.game.players import GreedyPlayer, Kong, Player, make_player
from rulekit.game.procedure import Event, HandRecord, event_dict, play_hand
from rulekit.game.rules import GameRules, game_rules
from rulekit.game.simulate import hand_seed
from rulekit.game.state import HandState
from rulekit.ruleset.model import Ruleset
from rulekit.scoring import ScoreResult
from rulekit.tiles import NUM_KINDS, TILE_NAMES, format_tiles

_KIND = {TILE_NAMES[k]: k for k in range(len(TILE_NAMES))}
_PRIVATE = ("draw", "replacement")
_HIDDEN_KONG = "concealed_kong"


class _Obs:
    def __init__(self, d: dict[str, Any]) -> None:
        self.d = d

    def to_dict(self) -> dict[str, Any]:
        return dict(self.d)


def seat_event(e: Event, seat: int) -> dict[str, Any]:
    d = event_dict(e)
    if e[0] != seat and (e[1] in _PRIVATE and e[2] < NUM_KINDS or e[1] == _HIDDEN_KONG):
        d["tile"] = None
    if e[0] != seat and e[1] == "deal":
        d.pop("rule", None)
    return d


def observation(st: HandState, rules: GameRules, seat: int, drawn: int | None,
                last: int | None) -> dict[str, Any]:
    def melds(s: int) -> list[dict[str, Any]]:
        out = []
        for m in st.seats[s].melds:
            hidden = m.shape in ("concealed", "golden") and s != seat
            out.append({"kind": m.shape, "tile": None if hidden else TILE_NAMES[m.kind]})
        return out
    n = st.players
    own = [k for k in range(NUM_KINDS) for _ in range(st.seats[seat].counts[k])]
    return {"seat": seat, "dealer": st.dealer, "hand": format_tiles(own),
            "drawn": TILE_NAMES[drawn] if drawn is not None else None,
            "melds": [melds(s) for s in range(n)],
            "discards": [format_tiles(st.seats[s].river) for s in range(n)],
            "flowers": [format_tiles(st.seats[s].flowers) for s in range(n)],
            "indicator": TILE_NAMES[st.wall.indicator],
            "hun": [TILE_NAMES[k] for k in st.hun],
            "tiles_held": [st.seats[s].size() for s in range(n)],
            "wall_left": st.wall.live(rules.draw_game_at), "scores": None,
            "turn": seat, "last_discard": TILE_NAMES[last] if last is not None else None}


class _View:
    def __init__(self, obs: dict[str, Any], legal: list[dict[str, Any]],
                 events: list[dict[str, Any]]) -> None:
        self.obs, self.legal_, self.events_ = obs, legal, events

    def observation(self, seat: int) -> _Obs:
        return _Obs(self.obs)

    def legal(self, seat: int) -> list[dict[str, Any]]:
        return self.legal_

    def events(self, seat: int, since: int = 0) -> list[dict[str, Any]]:
        return self.events_[since:]


class BotSeat(Player):
    """A participant's bot behind the old Player interface; greedy once the bot fails."""

    name = "bot"

    def __init__(self, part: Any, rules: GameRules, log: list[Event], seat: int) -> None:
        self.part, self.rules, self.log, self.seat = part, rules, log, seat
        self.fallback = GreedyPlayer()

    def _ask(self, st: HandState, legal: list[dict[str, Any]],
             drawn: int | None = None, last: int | None = None) -> dict[str, Any] | None:
        obs = observation(st, self.rules, self.seat, drawn, last)
        evs = [seat_event(e, self.seat) for e in self.log]
        return self.part.ask_bot(_View(obs, legal, evs))  # type: ignore[no-any-return]

    def choose_discard(self, st: HandState, seat: int, options: tuple[int, ...]) -> int:
        got = self._ask(st, [{"action": "discard", "tile": TILE_NAMES[k]} for k in options],
                        drawn=self._drawn(seat))
        return _KIND[got["tile"]] if got else self.fallback.choose_discard(st, seat, options)

    def _drawn(self, seat: int) -> int | None:
        e = self.log[-1] if self.log else None
        return e[2] if e and e[0] == seat and e[1] in _PRIVATE and e[2] >= 0 else None

    def choose_claim(self, st: HandState, seat: int, tile: int, options: tuple[str, ...]) -> str:
        got = self._ask(st, [{"action": o} for o in options], last=tile)
        return str(got["action"]) if got else self.fallback.choose_claim(st, seat, tile,
                                                                          options)

    def choose_kong(self, st: HandState, seat: int, options: tuple[Kong, ...]) -> Kong | None:
        legal = [{"action": "kong", "tile": TILE_NAMES[k], "kind": kind}
                 for k, kind in options] + [{"action": "pass"}]
        got = self._ask(st, legal)
        if got is None:
            return self.fallback.choose_kong(st, seat, options)
        return None if got["action"] == "pass" else (_KIND[got["tile"]], got["kind"])

    def choose_win(self, st: HandState, seat: int, score: ScoreResult) -> bool:
        got = self._ask(st, [{"action": "win"}, {"action": "pass"}])
        return got is None or got["action"] == "win"


def play(rs: Ruleset, seated: Sequence[Any], seed: int, dealer: int, hand: int
         ) -> HandRecord:
    rules = game_rules(rs)
    log: list[Event] = []
    players: list[Player] = []
    for s, p in enumerate(seated):
        p.begin(hand, s, seed)
        players.append(BotSeat(p, rules, log, s) if p.bot is not None
                       else make_player(p.spec if not p.is_bot else "greedy", rs,
                                        hand_seed(seed, s)))
    rec = play_hand(rs, players, seed=seed, dealer=dealer, rules=rules,
                    observer=lambda st, e: log.append(e))
    for s, p in enumerate(seated):
        evs = [seat_event(e, s) for e in log]
        p.end(_View({}, [], evs), dict(rec.result))
    return rec
