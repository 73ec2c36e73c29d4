"""Engine benchmark: scoring, keep listing, the solver, the analysis of a game and the optimal
player beside docs/performance.md's and issue 12's targets.

Run with ``make bench`` (or ``python bench/engine.py`` from the repository root). The last lines
compare what a fresh process pays for the rules (reading the stored solutions, its first
``/rules``) with what solving would cost, and its first ``/rules`` with its tenth.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from farkle import TABLES, analyse, keep_options, play, score  # noqa: E402
from farkle.scoring import scorer  # noqa: E402
from farkle.solver import compute, stored  # noqa: E402
from farkle.turn import _options  # noqa: E402

THROWS = [
    tuple(random.Random(i).choices(range(1, 7), k=random.Random(-i).randint(1, 6)))
    for i in range(20_000)
]

# A fresh site process, as gunicorn starts one: import the WSGI module, then ten /rules.
FRESH_SITE = """
import json, time
from django.conf import settings
settings.STORAGES = {**settings.STORAGES, "staticfiles": {
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
settings.WHITENOISE_USE_FINDERS = True
start = time.perf_counter()
import farkle_site.wsgi
started = time.perf_counter() - start
from django.test import Client
from django.test.utils import setup_test_environment
setup_test_environment()
client, seconds = Client(), []
for _ in range(10):
    start = time.perf_counter()
    assert client.get("/rules").status_code == 200
    seconds.append(time.perf_counter() - start)
print(json.dumps({"started": started, "requests": seconds}))
"""


def per_call_us(fn, items) -> float:
    """Best of five passes over ``items``, in microseconds per call."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, time.perf_counter() - start)
    return best / len(items) * 1e6


# Ten-turn games of the Medium bot (more decisions than Easy's) to analyse, and puzzles for the
# optimal player, on seeds of their own.
GAME_SEEDS = [bytes([i]) * 32 for i in range(50)]


def fresh_site() -> dict:
    """Start-up and ten /rules timings of a new site process (DEBUG on: no secrets needed)."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "farkle_site.settings",
        "DEBUG": "1",
        "PYTHONPATH": str(ROOT),
    }
    done = subprocess.run(
        [sys.executable, "-c", FRESH_SITE], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit(done.stderr)
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    scorer("farkle-challenge")
    uncached = _options.__wrapped__
    rows = [
        ("score a throw (all dice kept)", per_call_us(score, THROWS), 10.0, "µs"),
        (
            "list the valid keeps of a throw, uncached",
            per_call_us(lambda t: uncached(t, "farkle-challenge", ()), THROWS),
            10.0,
            "µs",
        ),
        ("list the valid keeps of a throw, cached", per_call_us(keep_options, THROWS), 10.0, "µs"),
    ]
    games = [play(seed, "medium").game for seed in GAME_SEEDS]
    rows.append(("analyse a ten-turn game", per_call_us(analyse, games) / 1000, 20.0, "ms"))

    def analyse_cold(game):
        # A process that has listed no keep yet: every throw's keeps computed afresh.
        _options.cache_clear()
        return analyse(game)

    rows.append(
        (
            "analyse a ten-turn game, keeps uncached",
            per_call_us(analyse_cold, games) / 1000,
            20.0,
            "ms",
        )
    )
    rows.append(
        (
            "the optimal player's game on a puzzle",
            per_call_us(lambda seed: play(seed, "hard"), GAME_SEEDS) / 1000,
            20.0,
            "ms",
        )
    )
    scorer.cache_clear()
    _options.cache_clear()
    start = time.perf_counter()
    expected = compute("farkle-challenge").expected_turn()
    solve_one = time.perf_counter() - start
    rows.append(("solve farkle-challenge from nothing", solve_one, 2.0, "s"))
    start = time.perf_counter()
    for table in TABLES:
        compute(table)
    solve_all = time.perf_counter() - start
    start = time.perf_counter()
    stored.__wrapped__()
    load = time.perf_counter() - start
    site = fresh_site()
    first, tenth = site["requests"][0], site["requests"][-1]
    print(f"{'measure':<44}{'value':>10}{'target':>10}{'ratio':>8}")
    for name, value, target, unit in rows:
        print(f"{name:<44}{value:>8.2f}{unit:>2}{target:>8.1f}{unit:>2}{value / target:>8.2f}")
    print(f"(expected points of one turn: {expected:.1f}; ratio below 1 meets the target)")
    print()
    print(f"{'a fresh process':<44}{'value':>10}{'against':>28}{'ratio':>8}")
    print(
        f"{'read every stored solution':<44}{load * 1000:>8.1f}ms"
        f"{'solving every table':>20}{solve_all:>6.2f}s{load / solve_all:>8.3f}"
    )
    print(
        f"{'start the site (import farkle_site.wsgi)':<44}{site['started']:>8.2f}s"
        f"{'solving every table':>20}{solve_all:>6.2f}s{site['started'] / solve_all:>8.2f}"
    )
    print(
        f"{'first /rules':<44}{first * 1000:>8.1f}ms"
        f"{'tenth /rules':>20}{tenth * 1000:>6.1f}ms{first / tenth:>8.2f}"
    )
    print(
        f"{'first /rules':<44}{first * 1000:>8.1f}ms"
        f"{'solving every table':>20}{solve_all:>6.2f}s{first / solve_all:>8.3f}"
    )
    print("(the first /rules should cost about what the tenth does, and far less than a solve)")


if __name__ == "__main__":
    main()
