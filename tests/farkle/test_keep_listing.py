"""The keeps of a throw, listed afresh (``farkle.turn._options``, uncached), against a brute force
of every subset of the throw, and as records equal to ``KeepOption``'s own."""

import dataclasses
from itertools import combinations, product

import pytest

from farkle import TABLES, KeepOption
from farkle.scoring import scorer
from farkle.turn import _options

PLAIN = [
    name
    for name, table in TABLES.items()
    if not (table.extend_sets or table.whole_sets or table.whole_straights)
]
FIELDS = [field.name for field in dataclasses.fields(KeepOption)]


def _throws(dice: int):
    for count in range(1, dice + 1):
        yield from product(range(1, 7), repeat=count)


def _brute(throw: tuple[int, ...], table: str) -> list[tuple]:
    # Every subset of positions, smallest mask first (the listing's order), scored whole by the
    # table's scorer on its dice alone; hot dice when every die scored (seed 000).
    s = scorer(table)
    t = s.table
    subsets = [c for n in range(1, len(throw) + 1) for c in combinations(range(len(throw)), n)]
    if t.whole_straights and tuple(sorted(throw)) in t.straights:
        # Seed 004: a thrown straight is kept whole.
        subsets = [tuple(range(len(throw)))]
    if t.whole_sets:
        # Seed 004: a face thrown three times or more is kept all together or not at all.
        sets = [face for face in set(throw) if throw.count(face) >= 3]
        subsets = [
            c
            for c in subsets
            if all(sum(throw[p] == face for p in c) in (0, throw.count(face)) for face in sets)
        ]
    found = []
    for positions in sorted(subsets, key=lambda c: sum(1 << p for p in c)):
        points = s.score([throw[p] for p in positions])
        if points is not None:
            left = len(throw) - len(positions)
            found.append(
                (
                    positions,
                    points,
                    left or t.dice,
                    not left,
                    bool(left) or not t.full_hand_must_roll,
                )
            )
    return found


@pytest.mark.parametrize("table", [*PLAIN, "dix-mille"])
def test_every_throw_lists_the_subsets_that_score_whole(table):
    for throw in _throws(TABLES[table].dice):
        listed = _options.__wrapped__(throw, table, ())
        assert [
            (o.positions, o.points, o.dice_left, o.hot_dice, o.may_bank) for o in listed
        ] == _brute(throw, table), throw
        for option in listed:
            assert option.dice == tuple(throw[p] for p in option.positions)
            assert option.sets == ()


@pytest.mark.parametrize("table", list(TABLES))
def test_a_listed_keep_is_the_record_its_own_constructor_makes(table):
    dice = TABLES[table].dice
    for throw in [(1, 5, 5, 2, 3, 1)[:dice], (2, 2, 2, 3, 4, 6)[:dice], (1, 2, 3, 4, 5, 6)[:dice]]:
        for option in _options.__wrapped__(throw, table, ()):
            assert list(vars(option)) == FIELDS
            rebuilt = KeepOption(**{name: getattr(option, name) for name in FIELDS})
            assert option == rebuilt and hash(option) == hash(rebuilt)
            with pytest.raises(dataclasses.FrozenInstanceError):
                option.points = 0
