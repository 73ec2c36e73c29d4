"""Optimal play of one turn: the expected value of every state under play that maximises points.

A state is (turn points at risk, dice in hand) at the moment the player chooses between rolling
and banking. Keeping more points never hurts, so after a throw only the best-scoring keep for
each number of dice left matters; throws with the same such options are merged. Values are then
filled from high turn points down, since every keep adds points. Far enough up, banking is
always best, which bounds the table (``cap``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cache, reduce
from math import gcd

from .outcomes import throws
from .scoring import keeps
from .tables import DEFAULT_TABLE, Table, get_table

# Far above any threshold of the seeds' tables: with six dice, rolling stops paying off well
# before 20,000 points at risk, and the cap is checked after solving.
DEFAULT_CAP = 40_000


@dataclass(frozen=True)
class Decision:
    """The best play after a throw: which positions to keep, then roll or bank."""

    positions: tuple[int, ...]
    then: str
    expected: float


@dataclass(frozen=True)
class Solution:
    """Expected values of a table's states; points are counted in ``unit`` steps."""

    table: Table
    unit: int
    cap_units: int
    # roll[n][u]: expected banked points when throwing n dice with u units at risk.
    roll: tuple[tuple[float, ...], ...]
    # groups[n]: the throws of n dice as (probability, ((dice left, units gained), ...)).
    groups: dict[int, list[tuple[float, tuple[tuple[int, int], ...]]]]

    def roll_value(self, turn_points: int, dice: int) -> float:
        """Expected banked points of throwing ``dice`` dice with ``turn_points`` at risk."""
        u = self._units(turn_points)
        if u <= self.cap_units:
            return self.roll[dice][u]
        # Beyond the cap every state banks, so one throw's expectation is exact.
        return self.unit * sum(
            probability * max(u + gain for _, gain in options)
            for probability, options in self.groups[dice]
        )

    def value(self, turn_points: int, dice: int) -> float:
        """Expected banked points with ``turn_points`` at risk and ``dice`` in hand, played best."""
        return max(float(turn_points), self.roll_value(turn_points, dice))

    def should_roll(self, turn_points: int, dice: int) -> bool:
        """Whether rolling ``dice`` dice beats banking ``turn_points``."""
        return self.roll_value(turn_points, dice) > turn_points

    def expected_turn(self) -> float:
        """Expected points of one turn, from six dice and nothing at risk."""
        return self.roll[self.table.dice][0]

    def best(self, turn_points: int, throw: tuple[int, ...] | list[int]) -> Decision | None:
        """The best keep of a throw and what to do next; None for a Farkle."""
        hand = self.table.dice
        choices = []
        for positions, points in keeps(throw, self.table):
            total = turn_points + points
            left = len(throw) - len(positions) or hand
            roll = self.roll_value(total, left)
            then = "roll" if roll > total else "bank"
            # Prefer more points, then fewer dice kept (more left to throw), on exact ties.
            choices.append((max(roll, float(total)), points, -len(positions), positions, then))
        if not choices:
            return None
        expected, _, _, positions, then = max(choices)
        return Decision(positions=positions, then=then, expected=expected)

    def bank_thresholds(self) -> dict[int, int]:
        """Per dice in hand, the turn points from which banking is always best."""
        found = {}
        for n in range(self.table.dice, 0, -1):
            u = self.cap_units
            while u > 0 and self.roll[n][u - 1] <= (u - 1) * self.unit:
                u -= 1
            found[n] = u * self.unit
        return found

    def _units(self, turn_points: int) -> int:
        if turn_points < 0 or turn_points % self.unit:
            raise ValueError(f"Turn points are a multiple of {self.unit}.")
        return turn_points // self.unit


def _option_groups(
    table: Table, dice: int, unit: int
) -> list[tuple[float, tuple[tuple[int, int], ...]]]:
    """Throws of ``dice`` dice merged by their best keep per dice left: (probability, options)."""
    hand = table.dice
    merged: dict[tuple, float] = defaultdict(float)
    for throw, probability in throws(dice):
        best_by_left: dict[int, int] = {}
        for positions, points in keeps(throw, table):
            left = dice - len(positions) or hand
            best_by_left[left] = max(best_by_left.get(left, 0), points // unit)
        options = tuple(sorted(best_by_left.items()))
        merged[options] += float(probability)
    # A Farkle is worth nothing, so its throws drop out of every expectation.
    return [(p, options) for options, p in merged.items() if options]


@cache
def solve(table: str | Table = DEFAULT_TABLE, cap: int = DEFAULT_CAP) -> Solution:
    """Solve a table (cached per table)."""
    t = get_table(table)
    unit = reduce(gcd, (c.points for c in t.combos()))
    top = cap // unit
    groups = {n: _option_groups(t, n, unit) for n in range(1, t.dice + 1)}
    # value[n][u] for u up to top + the largest keep; beyond ``top`` the player banks.
    reach = top + max(c.points for c in t.combos()) * 2 // unit + 1
    value = {n: [float(u * unit) for u in range(reach + 1)] for n in range(1, t.dice + 1)}
    roll = {n: [0.0] * (top + 1) for n in range(1, t.dice + 1)}
    for u in range(top, -1, -1):
        for n, options_by_throw in groups.items():
            expected = 0.0
            for probability, options in options_by_throw:
                expected += probability * max(value[left][u + gain] for left, gain in options)
            roll[n][u] = expected
            value[n][u] = max(u * unit, expected)
    for n in roll:
        if roll[n][top] > top * unit:
            raise ValueError(f"Cap {cap} is too low for {t.id}: rolling still pays there.")
    return Solution(
        table=t,
        unit=unit,
        cap_units=top,
        roll=tuple(tuple(roll.get(n, ())) for n in range(t.dice + 1)),
        groups=groups,
    )
