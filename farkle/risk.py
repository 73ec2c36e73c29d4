"""Exact Farkle risk: the probability that throwing n dice ends the turn with nothing."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from .outcomes import throws
from .tables import DEFAULT_TABLE, Table, get_table
from .turn import FARKLE, RETHROW, Sets, throw_kind


def farkle_risk(dice: int, table: str | Table = DEFAULT_TABLE, sets: Sets = ()) -> Fraction:
    """Probability, over all outcomes, that throwing ``dice`` dice is a Farkle.

    With seed 004's pairs thrown again, a pair is not a Farkle but a new throw: the risk is
    that of the turn ending, however many pairs come first. Seed 003's sets kept in the hand
    lower it, since a die of their face scores.
    """
    t = get_table(table)
    if not 1 <= dice <= t.dice:
        raise ValueError(f"Throw 1 to {t.dice} dice.")
    return _risk(dice, t, sets)


@cache
def _risk(dice: int, table: Table, sets: Sets) -> Fraction:
    kinds = [(throw_kind(d, table, sets), p) for d, p in throws(dice)]
    farkle = sum((p for kind, p in kinds if kind == FARKLE), Fraction(0))
    again = sum((p for kind, p in kinds if kind == RETHROW), Fraction(0))
    return farkle / (1 - again)


def risk_table(table: str | Table = DEFAULT_TABLE) -> dict[int, Fraction]:
    """Farkle risk for every number of dice the table throws, most dice first."""
    t = get_table(table)
    return {n: farkle_risk(n, t) for n in range(t.dice, 0, -1)}
