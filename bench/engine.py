"""Engine benchmark: scoring, keep listing and the solver beside docs/performance.md's targets.

Run with ``make bench`` (or ``python bench/engine.py`` from the repository root).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from farkle import keeps, score, solve  # noqa: E402
from farkle.scoring import _keeps, scorer  # noqa: E402

THROWS = [
    tuple(random.Random(i).choices(range(1, 7), k=random.Random(-i).randint(1, 6)))
    for i in range(20_000)
]


def per_call_us(fn, items) -> float:
    """Best of five passes over ``items``, in microseconds per call."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, time.perf_counter() - start)
    return best / len(items) * 1e6


def main() -> None:
    scorer("farkle-challenge")
    uncached = _keeps.__wrapped__
    rows = [
        ("score a throw (all dice kept)", per_call_us(score, THROWS), 10.0, "µs"),
        (
            "list the valid keeps of a throw, uncached",
            per_call_us(lambda t: uncached(t, "farkle-challenge"), THROWS),
            10.0,
            "µs",
        ),
        ("list the valid keeps of a throw, cached", per_call_us(keeps, THROWS), 10.0, "µs"),
    ]
    solve.cache_clear()
    scorer.cache_clear()
    _keeps.cache_clear()
    start = time.perf_counter()
    expected = solve("farkle-challenge").expected_turn()
    rows.append(("solve farkle-challenge from nothing", time.perf_counter() - start, 2.0, "s"))
    print(f"{'measure':<44}{'value':>10}{'target':>10}{'ratio':>8}")
    for name, value, target, unit in rows:
        print(f"{name:<44}{value:>8.2f}{unit:>2}{target:>8.1f}{unit:>2}{value / target:>8.2f}")
    print(f"(expected points of one turn: {expected:.1f}; ratio below 1 meets the target)")


if __name__ == "__main__":
    main()
