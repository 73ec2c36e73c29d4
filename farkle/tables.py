"""Scoring tables as data.

A table lists which groups of dice score and how much. Everything else (the best split of a
keep, the valid keeps of a throw, Farkle risk, optimal play) is derived from these fields, so a
new system from the seeds is a new ``Table(...)`` rather than new code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import combinations
from types import MappingProxyType

FACES = (1, 2, 3, 4, 5, 6)
DEFAULT_TABLE = "farkle-challenge"
# The ids of the rules that change the turn itself, each a flag of ``Table``; their texts for
# people live with the site (``play.texts``) and the command line.
TURN_RULES = ("extend_sets", "whole_straights", "whole_sets", "pair_rethrow", "full_hand_must_roll")


def _frozen(mapping: Mapping) -> Mapping:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class Combo:
    """One scoring group: the faces it uses (sorted), what it is worth, and what it is."""

    faces: tuple[int, ...]
    points: int
    # single, set (three or more of one face), straight, three_pairs or two_triplets: the id a
    # site or the command line names the group by, with ``count`` and ``face``.
    kind: str

    @property
    def count(self) -> int:
        """How many dice the group uses."""
        return len(self.faces)

    @property
    def face(self) -> int | None:
        """The face of a single or a set; None for a group of several faces."""
        return self.faces[0] if self.kind in ("single", "set") else None


@dataclass(frozen=True)
class Table:
    """A scoring system: singles, n-of-a-kind, straights and the six-dice combinations."""

    id: str
    source: str
    singles: Mapping[int, int] = field(default_factory=lambda: _frozen({1: 100, 5: 50}))
    # Three of a kind by face; seed 000: three 1s are 1,000, other faces 100 × face.
    triples: Mapping[int, int] = field(
        default_factory=lambda: _frozen({1: 1000, 2: 200, 3: 300, 4: 400, 5: 500, 6: 600})
    )
    # Four, five and six of a kind: fixed points, or a multiple of the triple of that face.
    kinds: Mapping[int, int] = field(default_factory=lambda: _frozen({4: 1000, 5: 2000, 6: 3000}))
    kinds_multiply_triple: bool = False
    # Exceptions to ``kinds`` for one face, keyed by (face, count).
    kind_overrides: Mapping[tuple[int, int], int] = field(default_factory=lambda: _frozen({}))
    straights: Mapping[tuple[int, ...], int] = field(
        default_factory=lambda: _frozen({(1, 2, 3, 4, 5, 6): 1500})
    )
    # Three pairs of three different values; None when the table has no such combination.
    three_pairs: int | None = 1500
    # Two triplets of two different values; None scores them as two separate triples.
    two_triplets: int | None = 2500
    dice: int = 6
    # Seed 003 (Royal): a set kept earlier in the hand grows with newly thrown dice of its face.
    extend_sets: bool = False
    # Seed 004 (Le 10.000): a thrown straight is kept whole, never split for its 1 or its 5.
    whole_straights: bool = False
    # Seed 004: three or more dice of one face in a throw are one group, kept all or not at all.
    whole_sets: bool = False
    # Seed 004: two dice showing a pair that does not score are thrown again, points kept.
    pair_rethrow: bool = False
    # Seed 004: once every die has scored ("main pleine"), all of them must be thrown again.
    full_hand_must_roll: bool = False

    # Tables are identified by their id (the mappings inside are not hashable).
    def __hash__(self) -> int:
        return hash(self.id)

    def kind_points(self, face: int, count: int) -> int | None:
        """Points of ``count`` dice showing ``face`` taken as one group, or None."""
        if (face, count) in self.kind_overrides:
            return self.kind_overrides[(face, count)]
        if count == 3:
            return self.triples.get(face)
        if count not in self.kinds:
            return None
        if self.kinds_multiply_triple:
            return self.triples[face] * self.kinds[count]
        return self.kinds[count]

    def turn_rules(self) -> tuple[str, ...]:
        """Ids of the table's rules beyond scoring (its flags that are set), in a fixed order."""
        return tuple(rule for rule in TURN_RULES if getattr(self, rule))

    def combos(self) -> tuple[Combo, ...]:
        """Every scoring group of this table, at most ``dice`` dice each."""
        found: list[Combo] = []
        for face, points in self.singles.items():
            found.append(Combo((face,), points, "single"))
        for count in range(3, self.dice + 1):
            for face in FACES:
                points = self.kind_points(face, count)
                if points is not None:
                    found.append(Combo((face,) * count, points, "set"))
        for run, points in self.straights.items():
            found.append(Combo(tuple(sorted(run)), points, "straight"))
        if self.three_pairs is not None and self.dice >= 6:
            for trio in combinations(FACES, 3):
                found.append(Combo(tuple(sorted(trio * 2)), self.three_pairs, "three_pairs"))
        if self.two_triplets is not None and self.dice >= 6:
            for pair in combinations(FACES, 2):
                found.append(Combo(tuple(sorted(pair * 3)), self.two_triplets, "two_triplets"))
        return tuple(c for c in found if len(c.faces) <= self.dice)


def _times_triple(four: int, five: int, six: int) -> Mapping[int, int]:
    return _frozen({4: four, 5: five, 6: six})


# Seed 000 is the reference; the others come from seeds 001 to 004 (docs/rules.md).
TABLES: Mapping[str, Table] = _frozen(
    {
        t.id: t
        for t in (
            Table(
                id="farkle-challenge",
                source="seed 000",
            ),
            Table(
                id="farkle-games",
                source="seed 001",
                kinds=_times_triple(2, 3, 4),
                kinds_multiply_triple=True,
                three_pairs=750,
                straights=_frozen({(1, 2, 3, 4, 5, 6): 1000}),
                two_triplets=None,
            ),
            Table(
                id="dice-game-depot",
                source="seed 001",
                kinds=_times_triple(2, 3, 4),
                kinds_multiply_triple=True,
                three_pairs=1500,
                straights=_frozen({(1, 2, 3, 4, 5, 6): 3000}),
                two_triplets=None,
            ),
            Table(
                id="popular",
                source="seed 001",
                straights=_frozen({(1, 2, 3, 4, 5, 6): 2500}),
                two_triplets=None,
            ),
            Table(
                id="kingdom-come",
                source="seed 001",
                # Four of a kind doubles the triple, and each further die doubles again.
                kinds=_times_triple(2, 4, 8),
                kinds_multiply_triple=True,
                straights=_frozen(
                    {(1, 2, 3, 4, 5): 500, (2, 3, 4, 5, 6): 750, (1, 2, 3, 4, 5, 6): 1500}
                ),
                three_pairs=None,
                two_triplets=None,
            ),
            Table(
                id="smart-box",
                source="seed 002",
                # No groups beyond a triple: extra dice score only as single 1s and 5s.
                kinds=_frozen({}),
                three_pairs=500,
                straights=_frozen({(1, 2, 3, 4, 5, 6): 1000}),
                two_triplets=None,
            ),
            Table(
                id="royal",
                source="seed 003",
                kinds=_times_triple(2, 3, 4),
                kinds_multiply_triple=True,
                # Two triplets score as the sum of the two triples (3-3-3-5-5-5 = 800).
                two_triplets=None,
                extend_sets=True,
            ),
            Table(
                id="dix-mille",
                source="seed 004",
                dice=5,
                # Seed 004's «Carrés» lists 4,000 (four 1s), 800, 1,200, 1,600, 2,000 and 2,400:
                # four times the triple. Its sentence says «le double du brelan», but every
                # figure it gives is four times, which is also why four 1s need no exception.
                kinds=_frozen({4: 4}),
                kinds_multiply_triple=True,
                # «Cinq dés identiques rapportent la valeur du dé × 1000, sauf les cinq 1»: five
                # 1s are an instant win in the original game, 10,000 here.
                kind_overrides=_frozen({(1, 5): 10_000, **{(f, 5): f * 1000 for f in range(2, 7)}}),
                straights=_frozen({(1, 2, 3, 4, 5): 500, (2, 3, 4, 5, 6): 1000}),
                three_pairs=None,
                two_triplets=None,
                whole_straights=True,
                whole_sets=True,
                pair_rethrow=True,
                full_hand_must_roll=True,
            ),
        )
    }
)


def get_table(table: str | Table) -> Table:
    """The table with this id (or the table itself); KeyError for an unknown id."""
    if isinstance(table, Table):
        return table
    return TABLES[table]


# Seed 000 «Paramètres»: many tables ask for 500 in one turn before a first bank, some 350 or
# 1,000; seed 004 opens at 500.
ENTRY_MINIMUMS = (0, 350, 500, 1000)
# Seed 000: three Farkles in a row usually cost 1,000, sometimes 500; seed 001 takes 1,000,
# seed 004's three crosses 500.
FARKLE_PENALTIES = (0, 500, 1000)


@dataclass(frozen=True)
class HouseRules:
    """Challenge-only house rules (seed 000: the daily never uses them); zero means off."""

    # No bank below this many points in one turn until the player has banked once.
    entry_minimum: int = 0
    # Taken from the banked score (never below 0) at the third Farkle in a row.
    farkle_penalty: int = 0

    def __post_init__(self) -> None:
        if self.entry_minimum < 0 or self.farkle_penalty < 0:
            raise ValueError("House rules are zero or positive points.")

    @property
    def off(self) -> bool:
        """Neither rule is in play."""
        return not self.entry_minimum and not self.farkle_penalty


NO_HOUSE_RULES = HouseRules()
