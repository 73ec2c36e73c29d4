"""Scale benchmark: the attempts table as days of a million attempts pile up (docs/performance.md).

Creates a database of its own (the site's name with ``_bench_scale``, on the server
``DATABASE_URL`` names), loads ``--days`` past days of ``--players`` finished official attempts
each (COPY, as bench/leaderboard.py), and after the first day and after the last measures, through
the site's own functions in this process: a start (a new player's official attempt on today's
daily), an action (the first roll of such a game), a player's rank on the latest day, and the
table's size; then closes the latest day with 1 % of its games left half-played (as
bench/leaderboard.py does). The growth between the two columns is what 100 days
would add, a little at a time: B-tree depth grows with the logarithm of the rows, the close with
one day's. Run with ``python bench/scale.py`` from the repository root.
"""

from __future__ import annotations

import argparse
import datetime
import random
import statistics
import sys
import time
from pathlib import Path

from databases import bench_database, recreate_database, server_url
from leaderboard import leave_unfinished, load, load_players, p99, score_weights, setup_django

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

BENCH_SUFFIX = "bench_scale"


def measure(latest, players: int, runs: int, rng: random.Random) -> dict[str, tuple[float, float]]:
    """p50 and p99 (ms) of a start, an action and a rank, and the table's size (MB)."""
    from django.db import connection
    from django.utils import timezone

    from daily.services.puzzles import daily_get_or_create
    from play.models import Player
    from play.selectors.leaderboards import player_standing
    from play.services.attempts import attempt_act, attempt_start
    from play.services.players import player_create

    now = timezone.now()
    today = daily_get_or_create(day=now.date(), now=now)
    starts, actions, ranks = [], [], []
    for _ in range(runs):
        player = player_create(now=now)
        begin = time.perf_counter()
        attempt = attempt_start(player=player, puzzle=today, now=now)
        middle = time.perf_counter()
        attempt_act(
            attempt_id=attempt.pk, player_id=player.pk, step=0, action={"action": "roll"}, now=now
        )
        end = time.perf_counter()
        pk = rng.randrange(1, players + 1)
        player_standing(puzzle=latest, player=Player(pk=pk, display_name="x"))
        ranks.append((time.perf_counter() - end) * 1000)
        starts.append((middle - begin) * 1000)
        actions.append((end - middle) * 1000)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_total_relation_size('daily_attempt'), pg_relation_size('daily_attempt'), "
            "(SELECT count(*) FROM daily_attempt)"
        )
        total, heap, rows = cursor.fetchone()
    mb = 1024 * 1024
    return {
        "a start (attempt_start), ms": (statistics.median(starts), p99(starts)),
        "an action (attempt_act, a roll), ms": (statistics.median(actions), p99(actions)),
        "a rank on the latest day, ms": (statistics.median(ranks), p99(ranks)),
        "attempts table: rows (millions)": (rows / 1e6, rows / 1e6),
        "attempts table + indexes (MB)": (heap / mb, total / mb),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=3)
    parser.add_argument("--players", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(2027)
    server = server_url()
    name = bench_database(server, BENCH_SUFFIX)
    recreate_database(server, name)
    try:
        setup_django(server, BENCH_SUFFIX)
        run(args.days, args.players, args.runs, rng)
    finally:
        if "django.db" in sys.modules:
            from django.db import connections

            connections.close_all()
        recreate_database(server, name, drop_only=True)


def run(days: int, players: int, runs: int, rng: random.Random) -> None:
    from django.utils import timezone

    from daily.services.rollover import puzzle_close

    score_weights()
    load_players(players)
    today = timezone.now().date()
    columns = []
    start = time.perf_counter()
    for back in range(days, 0, -1):
        latest = load(today - datetime.timedelta(days=back), players, rng)
        if back in (days, 1):
            columns.append(measure(latest, players, runs, rng))
            print(
                f"{days - back + 1} day(s) loaded ({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
    first, last = columns[0], columns[-1]
    print(
        f"{'measure (p50 / p99; sizes: heap / with indexes)':<48}"
        f"{f'{players:,} rows':>20}{f'{days * players:,} rows':>22}{'growth (p50)':>14}"
    )
    for measure_name, (p50_1, p99_1) in first.items():
        p50_n, p99_n = last[measure_name]
        print(
            f"{measure_name:<48}{p50_1:>10.2f}{p99_1:>10.2f}{p50_n:>11.2f}{p99_n:>11.2f}"
            f"{p50_n / p50_1:>13.2f}×"
        )
    leave_unfinished(latest, rng)
    # Due from 00:01:30 UTC: a run in the minute and a half after midnight waits for it (a
    # close before its time is refused).
    time.sleep(max(0.0, (latest.closes_at - timezone.now()).total_seconds()))
    begin = time.perf_counter()
    closed = puzzle_close(puzzle_id=latest.pk, now=timezone.now())
    print(
        f"close of the latest day ({closed.finalised:,} half-played games finalised, "
        f"{closed.players:,} ranked) with {days * players:,} rows: "
        f"{time.perf_counter() - begin:.1f} s (bench/leaderboard.py: the same day alone)"
    )


if __name__ == "__main__":
    main()
