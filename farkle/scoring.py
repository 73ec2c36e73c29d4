"""Scoring a set of dice: its best split into the scoring groups of a table.

A multiset of dice is packed into one integer, three bits of count per face, so that the dice
picked by any subset of a throw's positions add up to the key of their multiset. Each table
precomputes the best split of every multiset of up to six dice once (there are 923), and a
throw's keeps (``farkle.turn``) are then 63 additions and look-ups at most.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement

from .errors import FarkleError
from .tables import DEFAULT_TABLE, FACES, Combo, Table, get_table

_WEIGHT = {face: 1 << (3 * (face - 1)) for face in FACES}
# The faces a die shows, as a set: checking a throw against it is one call, not one per die (the
# engine checks every throw it scores, the close's replays tens of thousands of them).
_FACE_SET = frozenset(_WEIGHT)
# The positions of every bit mask over six dice, shared by all keep lists.
POSITIONS = tuple(tuple(i for i in range(6) if mask >> i & 1) for mask in range(64))


def pack(dice: Iterable[int]) -> int:
    """The key of a multiset of dice: three bits of count per face."""
    return sum(_WEIGHT[d] for d in dice)


def _count(key: int, face: int) -> int:
    return key >> (3 * (face - 1)) & 7


def _subtract_combos(key: int, combos: Sequence[tuple[int, Combo]]) -> Iterable[tuple[int, Combo]]:
    """Each combo that fits in the multiset ``key``, with what is left once it is taken."""
    for combo_key, combo in combos:
        if all(_count(combo_key, f) <= _count(key, f) for f in FACES):
            yield key - combo_key, combo


@dataclass(frozen=True)
class Scorer:
    """A table's precomputed best split of every multiset of up to ``table.dice`` dice."""

    table: Table
    best: dict[int, tuple[int, tuple[Combo, ...]]]

    @classmethod
    def build(cls, table: Table) -> Scorer:
        combos = [(pack(c.faces), c) for c in table.combos()]
        best: dict[int, tuple[int, tuple[Combo, ...]]] = {0: (0, ())}
        # Smaller multisets first, so every remainder is already solved.
        for size in range(1, table.dice + 1):
            for dice in combinations_with_replacement(FACES, size):
                key = pack(dice)
                options = [
                    (best[rest][0] + combo.points, (combo, *best[rest][1]))
                    for rest, combo in _subtract_combos(key, combos)
                    if rest in best
                ]
                if options:
                    best[key] = max(options, key=lambda option: option[0])
        return cls(table=table, best=best)

    def score(self, dice: Sequence[int]) -> int | None:
        found = self.best.get(pack(dice))
        return None if found is None else found[0]

    def split(self, dice: Sequence[int]) -> tuple[Combo, ...] | None:
        found = self.best.get(pack(dice))
        return None if found is None else found[1]


@cache
def scorer(table: str | Table = DEFAULT_TABLE) -> Scorer:
    """The precomputed scorer of a table (built once per table)."""
    return Scorer.build(get_table(table))


def check_dice(dice: Sequence[int], limit: int) -> None:
    """FarkleError ``invalid_dice`` unless there are 1 to ``limit`` dice with faces 1 to 6."""
    if not 0 < len(dice) <= limit or not _FACE_SET.issuperset(dice):
        raise FarkleError("invalid_dice", f"Expected 1 to {limit} dice with faces 1 to 6.")


def score(dice: Sequence[int], table: str | Table = DEFAULT_TABLE) -> int | None:
    """Best score that uses every one of ``dice``; None when some die cannot score."""
    s = scorer(table)
    check_dice(dice, s.table.dice)
    return s.score(dice)


def best_split(dice: Sequence[int], table: str | Table = DEFAULT_TABLE) -> tuple[Combo, ...] | None:
    """The scoring groups of the best split of ``dice``, or None when some die cannot score."""
    s = scorer(table)
    check_dice(dice, s.table.dice)
    return s.split(dice)


def leftover(dice: Sequence[int], table: str | Table = DEFAULT_TABLE) -> tuple[int, ...]:
    """The dice that cannot score beside the others: what the largest scoring part of ``dice``
    leaves out (most dice, then most points), sorted; empty when every die scores."""
    s = scorer(table)
    check_dice(dice, s.table.dice)
    best: tuple[int, int, int] = (0, 0, 0)
    for mask in range(1, 1 << len(dice)):
        points = s.score([dice[i] for i in POSITIONS[mask]])
        if points is not None:
            best = max(best, (mask.bit_count(), points, mask))
    return tuple(sorted(d for i, d in enumerate(dice) if not best[2] >> i & 1))


def check_positions(throw: Sequence[int], positions: Sequence[int]) -> None:
    """FarkleError ``invalid_dice`` unless ``positions`` name distinct dice of the throw."""
    if not positions:
        raise FarkleError("invalid_dice", "Keep at least one die.")
    if any(not isinstance(p, int) or isinstance(p, bool) for p in positions):
        raise FarkleError("invalid_dice", "Positions are whole numbers.")
    if len(set(positions)) != len(positions):
        raise FarkleError("invalid_dice", "A position is listed more than once.")
    if any(not 0 <= p < len(throw) for p in positions):
        raise FarkleError(
            "invalid_dice", f"Positions go from 0 to {len(throw) - 1} for this throw."
        )
