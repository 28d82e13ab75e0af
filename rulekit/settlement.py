"""Settlement of one hand: who pays whom for the win, the kongs and 鏟, and who deals next.

Every multiplier and payout is read from the ruleset (`settlement`, `chan`, `kong_points`,
the fan algebra), so a table's house rules change numbers in YAML, never code here.
Amounts are computed exactly from decimal text (`rulekit.money`): a stake of 0.1 is one
tenth, and the payments of a hand sum to exactly zero, in Python and in the printed JSON.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeGuard

from rulekit.errors import HandError, SettleError
from rulekit.limits import INT_DIGITS, excerpt
from rulekit.money import Amount, NotExact, amount, exact, json_number, within_doubles
from rulekit.ruleset.model import Ruleset
from rulekit.scoring import ScoreResult, score_document

Number = Amount
"""A payment: an int when whole, else an exact `decimal.Decimal`."""

Exact = int | Fraction
"""A value while the payments are worked out: an int when whole (int arithmetic is several
times quicker than Fraction's, and a hand's values are almost always whole), else the
exact Fraction."""


def _whole(x: Fraction) -> Exact:
    return x.numerator if x.denominator == 1 else x


WHOLE_FLOAT = float(2 ** 53)
"""Below this, a float with no fraction is the integer its shortest text reads (each such
integer is a double of its own): `int(value)` is `_whole(exact(value))`, made without a
`Fraction` (a hand's fans and the ruleset's points are whole floats; settling a simulated
hand made several Fractions in Python)."""

HAND = "hand"
KONG = "kong"
CHAN = "chan"
MAX_KONGS_PER_SEAT = 4      # a hand has at most four melds


@dataclass(frozen=True, slots=True, init=False)
class Transfer:
    """One payment between two seats, for one reason (`hand`, `kong` or `chan`)."""

    from_seat: int
    to_seat: int
    amount: Number
    why: str

    # Written out (init=False), as `Hand`'s: compiled, the __init__ dataclasses writes stays
    # interpreted (~6,000 instructions; ~4 transfers a simulated hand)
    def __init__(self, from_seat: int, to_seat: int, amount: Number, why: str) -> None:
        object.__setattr__(self, "from_seat", from_seat)
        object.__setattr__(self, "to_seat", to_seat)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "why", why)

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.from_seat, "to": self.to_seat, "amount": json_number(self.amount),
                "why": self.why}


@dataclass(frozen=True, slots=True, init=False)
class SettleResult:
    """Net payments per seat (summing to zero), the transfers behind them, the next dealer."""

    payments: tuple[Number, ...]
    transfers: tuple[Transfer, ...]
    next_dealer: int
    score: ScoreResult | None            # the winner's score; None on a draw

    def __init__(self, payments: tuple[Number, ...], transfers: tuple[Transfer, ...],
                 next_dealer: int, score: ScoreResult | None) -> None:
        object.__setattr__(self, "payments", payments)     # written out: as `Transfer`'s
        object.__setattr__(self, "transfers", transfers)
        object.__setattr__(self, "next_dealer", next_dealer)
        object.__setattr__(self, "score", score)

    def to_dict(self) -> dict[str, Any]:
        return {
            "payments": [json_number(p) for p in self.payments],
            "transfers": [t.to_dict() for t in self.transfers],
            "next_dealer": self.next_dealer,
            "score": self.score.to_dict() if self.score is not None else None,
        }


class _Table:
    """The validated settle document. A plain class, not a dataclass: compiled, a
    dataclass's `__init__` stays the interpreted one (~14,000 instructions here, once a
    simulated hand); only read after it is made."""

    __slots__ = ("players", "dealer", "dealer_sits", "pulls", "winner", "kongs", "chan",
                 "stake", "discarder")

    def __init__(self, players: int, dealer: int, dealer_sits: bool, pulls: tuple[int, ...],
                 winner: int | None, kongs: tuple[tuple[str, ...], ...], chan: bool,
                 stake: Exact, discarder: int | None = None) -> None:
        self.players = players
        self.dealer = dealer
        self.dealer_sits = dealer_sits
        self.pulls = pulls
        self.winner = winner
        self.kongs = kongs
        self.chan = chan
        self.stake = stake
        self.discarder = discarder       # who discarded the winning tile (點炮 only)


# --- validation --------------------------------------------------------------------------------

def _type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float, Decimal)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, (list, tuple)):
        return "array"
    return type(value).__name__


def _is_int(value: object) -> TypeGuard[int]:
    """JSON integers only: `true` is not seat 1."""
    return isinstance(value, int) and not isinstance(value, bool)


def show_value(value: object) -> str:
    """`value` for an error message: a number of at most 30 digits, else its JSON type."""
    if _is_int(value) and value.bit_length() <= 96:
        return str(value)
    return _type_name(value)


def _kong_shown(value: object) -> str:
    return excerpt(repr(value)) if isinstance(value, str) else _type_name(value)


def _seat(field: str, value: object, players: int) -> int:
    if _is_int(value) and 0 <= value < players:
        return value
    raise SettleError(field, f"expected a seat number 0..{players - 1}, got {show_value(value)}")


def _bool(field: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise SettleError(field, f"expected true or false, got {_type_name(value)}")
    return value


def _per_seat(field: str, value: object, players: int) -> list[Any]:
    if not isinstance(value, (list, tuple)):
        raise SettleError(field, f"expected an array with one entry per seat, got "
                          f"{_type_name(value)}")
    if len(value) != players:
        raise SettleError(field, f"expected {players} entries (one per seat), got {len(value)}")
    return list(value)


def _pulls(value: object, players: int, dealer: int, max_pulls: int) -> tuple[int, ...]:
    pulls = _per_seat("pulls", value, players)
    for s, p in enumerate(pulls):
        if not _is_int(p) or not 0 <= p <= max_pulls:
            raise SettleError(f"pulls[{s}]", f"expected a number of 拉莊 0..{max_pulls}, "
                              f"got {show_value(p)}")
    if pulls[dealer] != 0:
        raise SettleError(f"pulls[{dealer}]", f"seat {dealer} is the dealer and cannot pull "
                          f"(拉莊 is a non-dealer's choice), got {pulls[dealer]}")
    return tuple(pulls)


def _kongs(value: object, players: int, rs: Ruleset) -> tuple[tuple[str, ...], ...]:
    known = tuple(rs.kong_points)
    out = []
    for s, seat in enumerate(_per_seat("kongs", value, players)):
        if not isinstance(seat, (list, tuple)):
            raise SettleError(f"kongs[{s}]", f"expected an array of kong types, got "
                              f"{_type_name(seat)}")
        if len(seat) > MAX_KONGS_PER_SEAT:
            raise SettleError(f"kongs[{s}]", f"{len(seat)} kongs; a hand has at most "
                              f"{MAX_KONGS_PER_SEAT} melds")
        for j, k in enumerate(seat):
            if not isinstance(k, str) or k not in known:
                raise SettleError(f"kongs[{s}][{j}]", f"unknown kong type {_kong_shown(k)}; expected "
                                  "one of " + ", ".join(known))
            if k == "golden" and not rs.golden_kong_allowed:
                raise SettleError(f"kongs[{s}][{j}]", "this ruleset does not allow 金杠 "
                                  "(a kong of four hun)")
        out.append(tuple(seat))
    return tuple(out)


def _stake(value: object) -> Exact:
    """The stake as written: 0.1 is exactly one tenth (a float by its shortest text)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
        raise SettleError("stake", f"expected a positive number, got {_type_name(value)}")
    if isinstance(value, int) and value.bit_length() > 100:
        raise SettleError("stake", f"expected a positive number of at most {INT_DIGITS} "
                          "digits")
    try:
        stake = value if type(value) is int else _whole(exact(value))
    except NotExact as err:
        raise SettleError("stake", f"expected a positive number, got {err}") from None
    if stake <= 0:
        raise SettleError("stake", f"expected a positive number, got {excerpt(str(value), 40)}")
    return stake


def _ruleset_value(value: object, key: str) -> Exact:
    """A number from the ruleset, exactly as written in its YAML."""
    if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
        if type(value) is int:
            return value
        if type(value) is float and value.is_integer() and -WHOLE_FLOAT < value < WHOLE_FLOAT:
            return int(value)         # what its decimal text makes, without a Fraction
        try:
            return _whole(exact(value))
        except NotExact:
            pass
    raise SettleError("ruleset", f"{key} is not a finite number: {value!r}")


def _table(doc: object, rs: Ruleset) -> _Table:
    if not isinstance(doc, Mapping):
        raise SettleError("document", f"expected an object, got {_type_name(doc)}")
    players = rs.players
    dealer = _seat("dealer", doc.get("dealer", 0), players)
    winner_raw = doc.get("winner")
    winner = None if winner_raw is None else _seat("winner", winner_raw, players)
    has_hand = doc.get("hand") is not None
    if winner is not None and not has_hand:
        raise SettleError("hand", f"seat {winner} won, so the winner's hand is required")
    if winner is None and has_hand:
        raise SettleError("hand", "a draw (winner null or absent) has no winning hand; "
                          "remove 'hand' or name the winner")
    max_pulls = int(rs.settlement["max_pulls"])
    if winner is None and doc.get("discarder") is not None:
        raise SettleError("discarder", "a draw (no winner) has no discarder: only a win on a "
                          "discard (win_by: discard) has one")
    return _Table(
        players=players,
        dealer=dealer,
        dealer_sits=_bool("dealer_sits", doc.get("dealer_sits", False)),
        pulls=_pulls(doc.get("pulls", [0] * players), players, dealer, max_pulls),
        winner=winner,
        kongs=_kongs(doc.get("kongs", [[]] * players), players, rs),
        chan=_bool("chan", doc.get("chan", False)),
        stake=_stake(doc.get("stake", 1)),
        discarder=(None if doc.get("discarder") is None
                   else _seat("discarder", doc["discarder"], players)),
    )


def _winning_score(doc: Mapping[str, Any], t: _Table, winner: int, rs: Ruleset,
                   scored: ScoreResult | None = None) -> ScoreResult:
    """Score the winner's hand; a hand that cannot win, or whose kongs disagree, is bad input."""
    try:
        score = scored if scored is not None else score_document(doc["hand"], rs)
    except HandError as err:
        raise SettleError(f"hand.{err.field}", err.message) from None
    if not score.win:
        why = score.explain[-1] if score.explain else ""
        raise SettleError("hand", f"seat {winner}'s hand cannot win ({score.reason}: {why}); "
                          "a player who cannot win is not a winner")
    win_by = doc["hand"].get("win_by", "self_draw") if isinstance(doc["hand"], Mapping) else None
    if win_by == "discard" and rs.settlement.get("discard_payer", "all") != "all" \
            and t.discarder is None:
        raise SettleError("discarder", "a win on a discard needs the discarder's seat "
                          "under this ruleset (settlement.discard_payer)")
    if t.discarder is not None and win_by != "discard":
        raise SettleError("discarder", "only a win on a discard (win_by: discard) has a "
                          "discarder")
    if t.discarder is not None and t.discarder == winner:
        raise SettleError("discarder", "the winner cannot have discarded its own winning tile")
    _check_first_draw(doc["hand"], t, winner)
    if sorted(t.kongs[winner]) != sorted(score.kongs):       # the same kongs, any order
        raise SettleError(f"kongs[{winner}]", f"the winner's kongs {list(t.kongs[winner])} "
                          f"do not match the kongs in its hand {list(score.kongs)}")
    return score


def _check_first_draw(hand: Mapping[str, Any], t: _Table, winner: int) -> None:
    """天和 is the dealer's first 14 tiles (000/Ⅲ); 地和 a non-dealer's first draw (000/Ⅳ),
    which a table may score as 天和 too (`heavenly` and `earthly`, game.earthly_as_heavenly:
    「一般認為和天和處理方法相同」)."""
    if hand.get("heavenly") is True and winner != t.dealer and hand.get("earthly") is not True:
        raise SettleError("hand.heavenly", f"天和 is the dealer's own first fourteen tiles "
                          f"(000/Ⅲ); seat {winner} won, seat {t.dealer} deals")
    if hand.get("earthly") is True and winner == t.dealer:
        raise SettleError("hand.earthly", f"地和 is a non-dealer's win on the first draw; "
                          f"seat {winner} won and deals (the dealer's is 天和)")


# --- payments ----------------------------------------------------------------------------------

def _dealer_multipliers(t: _Table, rs: Ruleset) -> tuple[Exact, ...]:
    """Per seat, its multiplier with the dealer: 坐莊 and 拉莊 (000/Ⅲ, 000/Ⅳ 術語 1)."""
    sits = (_ruleset_value(rs.settlement["dealer_sits_multiplier"],
                           "settlement.dealer_sits_multiplier") if t.dealer_sits
            else 1)
    pull = _ruleset_value(rs.settlement["pull_multiplier"], "settlement.pull_multiplier")
    return tuple(sits * pull ** p for p in t.pulls)


def _multiplier(t: _Table, with_dealer: tuple[Exact, ...], a: int, b: int) -> Exact:
    """坐莊 and 拉莊 count only between the dealer and a non-dealer; 1 between two others."""
    if t.dealer not in (a, b):
        return 1
    return with_dealer[b if a == t.dealer else a]


def _chan_unit(rs: Ruleset) -> Exact:
    """One 鏟 share: a 明杠's points, or the fan of the named pattern on the base alone."""
    payout = rs.chan["payout"]
    if payout == "exposed_kong":
        return _ruleset_value(rs.kong_points["exposed"], "kong_points.exposed")
    held = {payout} if rs.algebra.base is None else {rs.algebra.base[0], payout}
    return _ruleset_value(rs.algebra.fan(frozenset(held)).fan, "chan.payout")


def _transfers(t: _Table, rs: Ruleset, score: ScoreResult | None
               ) -> dict[tuple[int, int, str], Exact]:
    owed: dict[tuple[int, int, str], Exact] = {}

    def pay(frm: int, to: int, why: str, amount: Exact) -> None:
        owed[frm, to, why] = owed.get((frm, to, why), 0) + amount

    seats = range(t.players)
    with_dealer = _dealer_multipliers(t, rs)
    if score is not None and t.winner is not None:
        hand_part = (_ruleset_value(score.total_fan, "hand total_fan")
                     - _ruleset_value(score.kong_fan, "hand kong_fan"))
        rule = rs.settlement.get("discard_payer", "all")
        for loser in seats:
            if loser == t.winner:
                continue
            share = hand_part * t.stake * _multiplier(t, with_dealer, loser, t.winner)
            if t.discarder is None or rule == "all":
                pay(loser, t.winner, HAND, share)
            elif rule == "discarder_for_all":
                pay(t.discarder, t.winner, HAND, share)      # 包: the discarder pays it all
            elif loser == t.discarder:
                pay(loser, t.winner, HAND, share)
    multiplied = bool(rs.settlement["kong_points_multiplied"])
    points = {k: _ruleset_value(rs.kong_points[k], f"kong_points.{k}")
              for k in set(k for seat in t.kongs for k in seat)}
    for owner in seats:
        for k in t.kongs[owner]:
            for payer in seats:
                if payer != owner:
                    m = _multiplier(t, with_dealer, payer, owner) if multiplied else 1
                    pay(payer, owner, KONG, points[k] * t.stake * m)
    if t.chan and rs.chan.get("enabled", True):
        unit = _chan_unit(rs)
        for n in seats:
            if n != t.dealer:
                pay(t.dealer, n, CHAN, unit * t.stake * _multiplier(t, with_dealer, t.dealer, n))
    return owed


def _next_dealer(t: _Table, rs: Ruleset) -> int:
    passed = (t.dealer + 1) % t.players
    if t.winner is not None:
        return t.dealer if t.winner == t.dealer else passed
    if rs.settlement["dealer_on_draw"] == "pass_if_no_kong":
        others_konged = any(t.kongs[s] for s in range(t.players) if s != t.dealer)
        if not t.kongs[t.dealer] and others_konged:
            return passed
    return t.dealer


def _out(x: Exact) -> Number:
    """An exact amount: an int when whole, else a Decimal that prints exactly as JSON."""
    try:
        return amount(x)
    except NotExact as err:
        raise SettleError("stake", f"{err}, more than a JSON number carries exactly; use a "
                          "smaller stake, or one with fewer digits") from None


def settle_document(doc: Mapping[str, Any], rs: Ruleset, *,
                    scored: ScoreResult | None = None) -> SettleResult:
    """Validate a settle document, score the winner's hand, and work out every payment.

    `scored`: the winner's hand already scored under `rs` (the game scored it when it
    offered the win): used instead of scoring it again. Only for a score the caller made
    itself from `doc["hand"]` and `rs`; every other check still runs."""
    t = _table(doc, rs)
    score = None if t.winner is None else _winning_score(doc, t, t.winner, rs, scored)
    owed = _transfers(t, rs, score)
    net: list[Exact] = [0] * t.players
    transfers = []
    for (frm, to, why), amount in owed.items():
        if amount == 0:
            continue
        net[frm] -= amount
        net[to] += amount
        transfers.append(Transfer(frm, to, _out(amount), why))
    try:
        within_doubles(a for a in owed.values())
    except NotExact as err:
        raise SettleError("stake", f"{err}, more than JSON numbers carry exactly; use a "
                          "smaller stake") from None
    return SettleResult(tuple(_out(x) for x in net), tuple(transfers), _next_dealer(t, rs),
                        score)
