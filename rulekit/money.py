"""Exact amounts of money: decimal stakes in, payments that sum to exactly zero out.

A stake of 0.1 is one tenth, not the binary float nearest it: every value is turned into a
`Fraction` from its decimal text, all arithmetic is exact, and each amount comes out as an
`int` when whole, else a `Decimal` of at most `AMOUNT_DIGITS` significant digits, so that
it also prints as a JSON number that a reader parses back to the same decimal. Every
amount, and the sum of a hand's amounts (`within_doubles`), is at most `AMOUNT_WHOLE` (2**53)
in magnitude: a reader that parses JSON numbers as doubles (JavaScript, the calculator)
reads whole amounts exactly and sums them without rounding.
"""
from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

from collections.abc import Iterable

from rulekit.limits import AMOUNT_DIGITS, AMOUNT_EXPONENT, AMOUNT_WHOLE

Amount = int | Decimal
"""A payment: an int when whole, else an exact Decimal."""


class NotExact(ValueError):
    """A value that has no exact decimal amount within the limits; callers name the field."""


def exact(value: int | float | Decimal) -> Fraction:
    """The decimal value `value` was written as: a float by its shortest text (0.1 → 1/10)."""
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NotExact(f"{value} is not a finite number")
        return Fraction(repr(value))
    if not value.is_finite():
        raise NotExact(f"{value} is not a finite number")
    if value and abs(value.adjusted()) > AMOUNT_EXPONENT:
        raise NotExact(f"a number outside 1e-{AMOUNT_EXPONENT} .. 1e{AMOUNT_EXPONENT}")
    return Fraction(value)


def amount(x: int | Fraction) -> Amount:
    """`x` as an int when whole, else as an exact Decimal of at most AMOUNT_DIGITS digits;
    never over AMOUNT_WHOLE in magnitude."""
    if x > AMOUNT_WHOLE or -x > AMOUNT_WHOLE:
        raise NotExact(f"an amount over 2**53 ({AMOUNT_WHOLE:,}) in magnitude")
    if x.denominator == 1:
        return int(x)
    den = x.denominator
    twos = fives = 0
    while den % 2 == 0:
        den //= 2
        twos += 1
    while den % 5 == 0:
        den //= 5
        fives += 1
    if den != 1:
        raise NotExact(f"{x} has no finite decimal expansion")
    places = max(twos, fives)
    digits = x.numerator * 10 ** places // x.denominator
    if len(str(abs(digits))) > AMOUNT_DIGITS or places > AMOUNT_EXPONENT:
        raise NotExact(f"an amount of {x} needs more than {AMOUNT_DIGITS} significant digits")
    return Decimal(f"{digits}E-{places}")


def json_number(x: Amount) -> int | float:
    """`x` for JSON: the float's shortest text is exactly `x` (at most 15 significant digits)."""
    return x if isinstance(x, int) else float(x)


def within_doubles(amounts: Iterable[int | Fraction]) -> None:
    """Refuse amounts whose magnitudes sum past AMOUNT_WHOLE: every partial sum a reader
    forms (a seat's transfers, the payments) then stays a number a double holds exactly."""
    if sum(x if x >= 0 else -x for x in amounts) > AMOUNT_WHOLE:
        raise NotExact(f"amounts moving over 2**53 ({AMOUNT_WHOLE:,}) in all")
