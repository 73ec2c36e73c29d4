"""Every distinct throw of n dice, with its exact probability."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import factorial, prod

from .tables import FACES


@cache
def throws(n: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Each multiset of n dice (sorted) with the probability that n fair dice show it."""
    total = 6**n
    found = []
    for dice in combinations_with_replacement(FACES, n):
        orders = factorial(n) // prod(factorial(c) for c in Counter(dice).values())
        found.append((dice, Fraction(orders, total)))
    return tuple(found)
