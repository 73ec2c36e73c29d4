"""Exact Farkle risk: the probability that a throw of n dice scores nothing."""

from __future__ import annotations

from fractions import Fraction

from .outcomes import throws
from .scoring import is_farkle
from .tables import DEFAULT_TABLE, Table, get_table


def farkle_risk(dice: int, table: str | Table = DEFAULT_TABLE) -> Fraction:
    """Probability, over all outcomes, that throwing ``dice`` dice is a Farkle."""
    t = get_table(table)
    if not 1 <= dice <= t.dice:
        raise ValueError(f"Throw 1 to {t.dice} dice.")
    return sum((p for d, p in throws(dice) if is_farkle(d, t)), Fraction(0))


def risk_table(table: str | Table = DEFAULT_TABLE) -> dict[int, Fraction]:
    """Farkle risk for every number of dice the table throws, most dice first."""
    t = get_table(table)
    return {n: farkle_risk(n, t) for n in range(t.dice, 0, -1)}
