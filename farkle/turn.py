"""The keeps of a throw and what follows each: the one keep model the game, the solver, the
foresight check and the site all read.

Most tables only need the scorer. Two of the seeds' systems change the turn itself:
Royal (seed 003) lets a set kept earlier in the hand grow with newly thrown dice of its face,
so a keep's worth depends on the sets already kept; Le 10.000 (seed 004) keeps straights and
sets whole, throws a non-scoring pair again instead of ending the turn, and forbids banking once
every die has scored.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .errors import FarkleError
from .scoring import POSITIONS, check_dice, check_positions, pack, scorer
from .tables import DEFAULT_TABLE, FACES, TABLES, Table, get_table

# Sets kept in the current hand, for extension: ((face, count), ...) sorted by face.
Sets = tuple[tuple[int, int], ...]
# What the player throws next: dice in hand and the sets those dice may extend.
Hand = tuple[int, Sets]

SCORING = "scoring"
FARKLE = "farkle"
RETHROW = "rethrow"


@dataclass(frozen=True)
class KeepOption:
    """One valid keep of a throw and everything that follows from it."""

    # Positions in the throw, ascending, and the faces they show.
    positions: tuple[int, ...]
    dice: tuple[int, ...]
    points: int
    # Dice in hand after the keep: every die comes back on hot dice.
    dice_left: int
    # Sets of the hand after the keep (seed 003), forgotten on hot dice.
    sets: Sets
    hot_dice: bool
    # Seed 004: once every die has scored, all of them must be thrown again.
    may_bank: bool

    @property
    def hand(self) -> Hand:
        """The hand thrown next if the player rolls on."""
        return (self.dice_left, self.sets)


def keep_options(
    throw: Sequence[int], table: str | Table = DEFAULT_TABLE, sets: Sets = ()
) -> tuple[KeepOption, ...]:
    """Every valid keep of a throw (the dice in hand) given the hand's sets, in mask order."""
    t = get_table(table)
    check_dice(throw, t.dice)
    # A table outside the site's (a test's reduced game) is its own cache key.
    key = t.id if TABLES.get(t.id) is t else t
    return _options(tuple(throw), key, tuple(sets) if t.extend_sets else ())


def keep_option(
    throw: Sequence[int],
    positions: Sequence[int],
    table: str | Table = DEFAULT_TABLE,
    sets: Sets = (),
) -> KeepOption:
    """The keep of these positions of a throw; FarkleError when it is refused."""
    check_positions(throw, positions)
    wanted = tuple(sorted(positions))
    for option in keep_options(throw, table, sets):
        if option.positions == wanted:
            return option
    raise FarkleError("not_scoring", "Every kept die must score.")


def throw_kind(throw: Sequence[int], table: str | Table = DEFAULT_TABLE, sets: Sets = ()) -> str:
    """Whether a throw can be kept from, ends the turn (a Farkle), or (seed 004) is thrown
    again."""
    t = get_table(table)
    if keep_options(throw, t, sets):
        return SCORING
    if t.pair_rethrow and len(throw) == 2 and throw[0] == throw[1]:
        return RETHROW
    return FARKLE


def is_farkle(throw: Sequence[int], table: str | Table = DEFAULT_TABLE, sets: Sets = ()) -> bool:
    """True when the throw ends the turn with nothing."""
    return throw_kind(throw, table, sets) == FARKLE


@lru_cache(maxsize=65536)
def _options(throw: tuple[int, ...], table_id: str | Table, sets: Sets) -> tuple[KeepOption, ...]:
    t = scorer(table_id).table
    found = _extending(throw, table_id, sets) if t.extend_sets else _plain(throw, table_id)
    options = []
    for positions, points, after in found:
        left = len(throw) - len(positions)
        # Built without the frozen dataclass's __init__, whose seven object.__setattr__ calls
        # were a third of an uncached listing (the record has no __post_init__ to skip; a test
        # holds these to KeepOption's own).
        option = object.__new__(KeepOption)
        option.__dict__.update(
            positions=positions,
            dice=tuple(throw[p] for p in positions),
            points=points,
            # Hot dice (seed 000): once every die of the hand has scored, all come back, and
            # (seed 003) the hand's sets are forgotten.
            dice_left=left or t.dice,
            sets=after if left else (),
            hot_dice=not left,
            may_bank=bool(left) or not t.full_hand_must_roll,
        )
        options.append(option)
    return tuple(options)


def _plain(
    throw: tuple[int, ...], table_id: str | Table
) -> list[tuple[tuple[int, ...], int, Sets]]:
    """Keeps scored by the dice kept alone: every subset of the throw that scores whole."""
    s = scorer(table_id)
    best = s.best
    if s.table.whole_straights and tuple(sorted(throw)) in s.table.straights:
        # Seed 004: a thrown straight is taken whole, never split for its 1 or its 5.
        return [(tuple(range(len(throw))), best[pack(throw)][0], ())]
    weights = [pack((d,)) for d in throw]
    sums = [0] * (1 << len(throw))
    # Seed 004: «Ce n'est pas une combinaison liée tant qu'il n'y a pas de brelan»: once a face
    # shows three or more times, its dice are one group, kept all together or not at all.
    bound = _bound_groups(throw) if s.table.whole_sets else ()
    found = []
    for mask, rest, die in _SUBSETS[len(throw)]:
        key = sums[mask] = sums[rest] + weights[die]
        # Tested only where a table binds sets: a generator per mask cost a third of a listing.
        if bound and any(mask & group not in (0, group) for group in bound):
            continue
        hit = best.get(key)
        if hit is not None:
            found.append((POSITIONS[mask], hit[0], ()))
    return found


# For each number of dice, every non-empty subset of positions as a bit mask, in increasing
# order, with the subset less its lowest position and that position: a subset's key is then
# the key of a smaller one plus one die's.
_SUBSETS = tuple(
    tuple((mask, mask & (mask - 1), (mask & -mask).bit_length() - 1) for mask in range(1, 1 << n))
    for n in range(7)
)


def _bound_groups(throw: tuple[int, ...]) -> tuple[int, ...]:
    """Bit masks of the positions of each face thrown three or more times."""
    masks = {face: 0 for face in FACES}
    for position, face in enumerate(throw):
        masks[face] |= 1 << position
    return tuple(mask for mask in masks.values() if mask.bit_count() >= 3)


def _extending(
    throw: tuple[int, ...], table_id: str | Table, sets: Sets
) -> list[tuple[tuple[int, ...], int, Sets]]:
    """Keeps on a table whose kept sets grow (seed 003), with the sets of the hand after."""
    found = []
    for mask in range(1, 1 << len(throw)):
        positions = POSITIONS[mask]
        best = _extended_value(tuple(sorted(throw[i] for i in positions)), table_id, sets)
        if best is not None:
            found.append((positions, *best))
    return found


@lru_cache(maxsize=16384)
def _extended_value(
    kept: tuple[int, ...], table_id: str | Table, sets: Sets
) -> tuple[int, Sets] | None:
    """The best worth of kept dice when some may extend the hand's sets, and the sets after."""
    s = scorer(table_id)
    counts = Counter(kept)
    held = dict(sets)
    options = []
    # Each face with a set may take any number of the kept dice of that face.
    plans: list[dict[int, int]] = [{}]
    for face in held:
        plans = [{**plan, face: extra} for plan in plans for extra in range(counts[face] + 1)]
    for plan in plans:
        points = 0
        grown = dict(held)
        for face, extra in plan.items():
            if extra:
                bigger = s.table.kind_points(face, held[face] + extra)
                if bigger is None:
                    break
                points += bigger - s.table.kind_points(face, held[face])
                grown[face] = held[face] + extra
        else:
            rest = list((counts - Counter({f: e for f, e in plan.items() if e})).elements())
            split = s.split(rest) if rest else ()
            if split is None:
                continue
            new_sets = [c.faces for c in split if c.kind == "set"]
            # A second set of a face already held is that set extended, not a set of its own.
            if any(faces[0] in held for faces in new_sets):
                continue
            points += sum(combo.points for combo in split)
            grown.update({faces[0]: len(faces) for faces in new_sets})
            options.append((points, tuple(sorted(grown.items()))))
    return max(options) if options else None
