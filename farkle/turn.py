"""The rules of a turn beyond scoring a set of dice, shared by the game and the solver.

Most tables only need the scorer. Two of the seeds' systems change the turn itself:
Royal (seed 003) lets a set kept earlier in the hand grow with newly thrown dice of its face,
so a keep's worth depends on the sets already kept; Le 10.000 (seed 004) throws a non-scoring
pair again instead of ending the turn, and forbids banking once every die has scored.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from .scoring import keeps, scorer
from .tables import DEFAULT_TABLE, Table, get_table

# Sets kept in the current hand, for extension: ((face, count), ...) sorted by face.
Sets = tuple[tuple[int, int], ...]

SCORING = "scoring"
FARKLE = "farkle"
RETHROW = "rethrow"


def throw_kind(throw: tuple[int, ...], table: Table, sets: Sets = ()) -> str:
    """Whether a throw can be kept from, ends the turn (a Farkle), or (seed 004) is thrown
    again."""
    if keep_options(throw, table, sets):
        return SCORING
    if table.pair_rethrow and len(throw) == 2 and throw[0] == throw[1]:
        return RETHROW
    return FARKLE


def is_farkle(
    throw: tuple[int, ...] | list[int], table: str | Table = DEFAULT_TABLE, sets: Sets = ()
) -> bool:
    """True when the throw ends the turn with nothing."""
    return throw_kind(tuple(throw), get_table(table), sets) == FARKLE


def keep_options(
    throw: tuple[int, ...], table: Table, sets: Sets = ()
) -> tuple[tuple[tuple[int, ...], int, Sets], ...]:
    """Every valid keep of a throw: (positions, points, the sets kept in the hand after it)."""
    table = get_table(table)
    if not table.extend_sets:
        return tuple((positions, points, ()) for positions, points in keeps(throw, table))
    return _extending_keeps(tuple(throw), table.id, sets)


@lru_cache(maxsize=16384)
def _extending_keeps(
    throw: tuple[int, ...], table_id: str, sets: Sets
) -> tuple[tuple[tuple[int, ...], int, Sets], ...]:
    found = []
    for mask in range(1, 1 << len(throw)):
        positions = tuple(i for i in range(len(throw)) if mask >> i & 1)
        best = _extended_value(tuple(sorted(throw[i] for i in positions)), table_id, sets)
        if best is not None:
            found.append((positions, *best))
    return tuple(found)


@lru_cache(maxsize=16384)
def _extended_value(kept: tuple[int, ...], table_id: str, sets: Sets) -> tuple[int, Sets] | None:
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


def keep_points(
    throw: tuple[int, ...], positions: tuple[int, ...], table: Table, sets: Sets = ()
) -> tuple[int, Sets] | None:
    """Points of keeping these positions and the sets after, or None when a kept die can't score."""
    for option_positions, points, after in keep_options(throw, table, sets):
        if option_positions == positions:
            return points, after
    return None
