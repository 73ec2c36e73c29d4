"""Leaderboard benchmark: a million finished official attempts on one day (docs/performance.md).

Creates a database of its own (``farkle_bench``, on the server ``DATABASE_URL`` names, by default
the local one), migrates it, loads players and attempts with COPY and the days' score counts,
times the leaderboard's reads in process and over HTTP (gunicorn, as bench/api.py starts it),
closes the largest day with 1 % of its games half-played while a rank reader and a player run
beside it, prints the issue's targets in a final table, then drops the database. Run with
``python bench/leaderboard.py`` from the repository root; ``--sizes`` picks the days' attempts.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import math
import os
import random
import statistics
import sys
import tempfile
import time
import warnings
from collections import defaultdict
from collections.abc import Callable
from functools import cache
from pathlib import Path

from databases import bench_database, on_database, recreate_database, server_url

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import farkle  # noqa: E402

# Never the site's own database: the benchmark drops what it creates, and only this name
# (the site's with this suffix: farkle_bench by default).
BENCH_SUFFIX = "bench"
UTC = datetime.UTC
CHUNK = 50_000


def turn_distribution(table: str = farkle.DEFAULT_TABLE) -> dict[int, float]:
    """Exact distribution of one turn's banked points under optimal play (the solver's policy)."""
    solution = farkle.solve(table)
    unit = solution.unit

    def worth(units: int, option) -> float:
        (dice, sets), gain, may_bank = option
        points = (units + gain) * unit
        return (solution.value if may_bank else solution.roll_value)(points, dice, sets)

    @cache
    def throw(hand, units: int) -> tuple[tuple[int, float], ...]:
        outcome: dict[int, float] = defaultdict(float)
        scoring = 0.0
        for probability, options in solution.groups[hand]:
            scoring += probability
            after, gain, may_bank = max(options, key=lambda o: worth(units, o))
            held = units + gain
            if not may_bank or solution.should_roll(held * unit, *after):
                for banked, p in throw(after, held):
                    outcome[banked] += probability * p
            else:
                outcome[held] += probability
        # A Farkle loses the turn's points (farkle-challenge throws no pair again).
        outcome[0] += 1.0 - scoring
        return tuple(outcome.items())

    return {units * unit: p for units, p in throw((solution.table.dice, ()), 0)}


def game_distribution(turn: dict[int, float], turns: int = farkle.TURNS) -> dict[int, float]:
    """Distribution of a ten-turn game's score: the sum of independent turns."""
    game = {0: 1.0}
    for _ in range(turns):
        following: dict[int, float] = defaultdict(float)
        for total, p in game.items():
            for points, q in turn.items():
                following[total + points] += p * q
        # Scores rarer than one in a trillion never show up among a million players.
        game = {s: p for s, p in following.items() if p > 1e-12}
    return game


SCORES: list[int] = []
WEIGHTS: list[float] = []


def score_weights() -> None:
    """The exact distribution of an optimal player's game, the bench's scores drawn from it."""
    distribution = game_distribution(turn_distribution())
    SCORES[:] = sorted(distribution)
    WEIGHTS[:] = [distribution[v] for v in SCORES]


def setup_django(server: str, suffix: str = BENCH_SUFFIX) -> None:
    """Django on the benchmark's own database (migrated), with production settings."""
    os.environ["DATABASE_URL"] = on_database(server, bench_database(server, suffix))
    # Production settings (no query log kept in memory) with throwaway secrets.
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", "leaderboard-benchmark-" + "x" * 40)
    os.environ.setdefault("FARKLE_SEED_SECRET", "leaderboard-benchmark-seed")
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ["SECURE_SSL_REDIRECT"] = "0"
    os.environ["LOG_LEVEL"] = "WARNING"
    os.environ["FARKLE_FIRST_DAY"] = "2000-01-01"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "farkle_site.settings")
    # The site's static files are not collected for a benchmark; WhiteNoise would say so.
    warnings.filterwarnings("ignore", message="No directory at")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def load_players(players: int) -> None:
    """``players`` fresh browsers, ids 1 to ``players``."""
    from django.db import connection

    opens = datetime.datetime(2000, 1, 1, tzinfo=UTC).isoformat()
    with connection.cursor() as cursor:
        with cursor.copy("COPY daily_player (id, display_name, created_at) FROM STDIN") as copy:
            for start in range(1, players + 1, CHUNK):
                copy.write(
                    "".join(
                        f"{i}\tBench Player {i}\t{opens}\n"
                        for i in range(start, min(start + CHUNK, players + 1))
                    )
                )
        cursor.execute("SELECT setval(pg_get_serial_sequence('daily_player', 'id'), %s)", [players])


def score_positions(scores: list[int], finishes: list[int]) -> list[int]:
    """Each attempt's ``score_position``, as the site gives it and as migration 0008 numbered
    the attempts already there: its place among the attempts of its score by finish, then by
    id (the rows are copied in this order, so their ids follow it)."""
    positions = [0] * len(scores)
    last: dict[int, int] = defaultdict(int)
    for i in sorted(range(len(scores)), key=lambda i: (finishes[i], i)):
        last[scores[i]] += 1
        positions[i] = last[scores[i]]
    return positions


def load(day: datetime.date, players: int, rng: random.Random, *, analyze: bool = True):
    """The day's puzzle with finished official attempts of players 1 to ``players`` and its
    score counts (the players must exist)."""
    from django.db import connection

    from daily.services.puzzles import daily_get_or_create
    from play.rules.days import day_start

    now = day_start(day) + datetime.timedelta(hours=12)
    puzzle = daily_get_or_create(day=day, now=now)
    scores = rng.choices(SCORES, weights=WEIGHTS, k=players)
    # Finishes spread over the whole day, to the microsecond.
    finishes = [rng.randrange(86_400_000_000) for _ in range(players)]
    positions = score_positions(scores, finishes)
    opens = day_start(day)
    with connection.cursor() as cursor:
        columns = (
            "player_id, puzzle_id, official, actions, state, step, turn, score, started_at, "
            "updated_at, finished_at, deadline, finalised_at_close, dice_source, held, "
            "time_taken, score_position"
        )
        deadline = puzzle.closes_at.isoformat()
        with cursor.copy(f"COPY daily_attempt ({columns}) FROM STDIN") as copy:
            for start in range(0, players, CHUNK):
                lines = []
                for i in range(start, min(start + CHUNK, players)):
                    finished = opens + datetime.timedelta(microseconds=finishes[i])
                    started = (finished - datetime.timedelta(minutes=5)).isoformat()
                    lines.append(
                        f"{i + 1}\t{puzzle.pk}\tt\t[]\tfinished\t40\t10\t{scores[i]}\t{started}\t"
                        f"{finished.isoformat()}\t{finished.isoformat()}\t{deadline}\tf\tpuzzle\tf\t0\t"
                        f"{positions[i]}\n"
                    )
                copy.write("".join(lines))
        # The counts the site keeps as attempts finish, rebuilt here in one statement.
        cursor.execute(
            "INSERT INTO daily_scorecount (puzzle_id, score, count) "
            "SELECT puzzle_id, score, count(*) FROM daily_attempt "
            "WHERE puzzle_id = %s AND official AND state = 'finished' GROUP BY puzzle_id, score",
            [puzzle.pk],
        )
        cursor.execute("UPDATE daily_puzzle SET players = %s WHERE id = %s", [players, puzzle.pk])
        if analyze:
            # What autovacuum does soon after a real day's load: statistics, and the visibility
            # map that lets index-only scans skip the table.
            cursor.execute("VACUUM ANALYZE daily_player, daily_attempt, daily_scorecount")
    puzzle.refresh_from_db()
    return puzzle


def pages_check(puzzle, players: int) -> None:
    """A few random pages as the site reads them (ranges of places within a score) against the
    same rows by a plain OFFSET in the order of finish: the loaded places are the site's. Its
    own random pages, so that the measures draw what they drew without it."""
    from django.db import connection
    from django.utils import timezone

    from play.selectors.leaderboards import leaderboard_page

    rng = random.Random(players)
    for _ in range(3):
        page = rng.randrange(1, players // 50 + 1)
        board = leaderboard_page(puzzle=puzzle, page=page, now=timezone.now())
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT score, finished_at FROM daily_attempt WHERE puzzle_id = %s AND official "
                "AND finished_at IS NOT NULL AND NOT held "
                "ORDER BY score DESC, finished_at, id LIMIT 50 OFFSET %s",
                [puzzle.pk, (page - 1) * 50],
            )
            expected = cursor.fetchall()
        assert [(e.score, e.finished_at) for e in board.entries] == expected, page


def timings(fn: Callable[[], object], runs: int, warmup: int = 20) -> tuple[float, float]:
    """p50 and p99 of ``fn`` in milliseconds."""
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    # Nearest-rank p99: the smallest sample at or above 99 % of them.
    return statistics.median(samples), samples[math.ceil(0.99 * len(samples)) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes",
        default="100000,1000000",
        help="attempts on each measured day, comma-separated (the last day is closed)",
    )
    parser.add_argument("--runs", type=int, default=500)
    args = parser.parse_args()
    sizes = [int(n) for n in args.sizes.split(",")]
    rng = random.Random(2026)
    server = server_url()
    name = bench_database(server, BENCH_SUFFIX)
    recreate_database(server, name)
    try:
        setup_django(server)
        run(sizes, args.runs, rng)
    finally:
        if "django.db" in sys.modules:
            from django.db import connections

            connections.close_all()
        recreate_database(server, name, drop_only=True)


# Each read: a name, its target p99 in ms (None: shown, not a target).
READS = (
    ("a random player's rank + percentile", 1.0),
    ("top 100 (page of 100, with the distribution)", 3.0),
    ("a random page of 50 + caller + distribution", None),
    ("GET …/leaderboard (WSGI in process), page 1", 10.0),
    ("GET …/leaderboard, a random page, with a caller", 10.0),
)


def reads(puzzle, players: int, rng: random.Random) -> dict[str, Callable[[], object]]:
    """The timed reads of one day's leaderboard, each a function of no argument."""
    from django.conf import settings
    from django.test import Client
    from django.utils import timezone

    from play.models import Player
    from play.selectors.leaderboards import leaderboard_page, player_standing

    now = timezone.now()
    day = puzzle.day.isoformat()

    def some_player() -> Player:
        pk = rng.randrange(1, players + 1)
        return Player(pk=pk, display_name=f"Bench Player {pk}")

    def standing() -> None:
        assert player_standing(puzzle=puzzle, player=some_player()) is not None

    def top_100() -> None:
        board = leaderboard_page(puzzle=puzzle, page=1, page_size=100, now=now)
        assert len(board.entries) == 100

    def endpoint_selector() -> None:
        page = rng.randrange(1, -(-players // 50) + 1)
        board = leaderboard_page(puzzle=puzzle, page=page, now=now, player=some_player())
        assert board.entries and board.me is not None

    anonymous = Client()

    def http_page() -> None:
        response = anonymous.get(f"/api/daily/{day}/leaderboard?page=1")
        assert response.status_code == 200

    # A browser that played: its session holds its player, as the site's own start leaves it.
    caller = Client()
    session = caller.session
    session[settings.PLAYER_SESSION_KEY] = rng.randrange(1, players + 1)
    session["seen"] = now.date().isoformat()
    session.save()

    def http_page_caller() -> None:
        page = rng.randrange(1, -(-players // 50) + 1)
        response = caller.get(f"/api/daily/{day}/leaderboard?page={page}")
        assert response.status_code == 200

    return dict(
        zip(
            [name for name, _ in READS],
            [standing, top_100, endpoint_selector, http_page, http_page_caller],
            strict=True,
        )
    )


def http_reads(days: list, sizes: list[int], rng: random.Random):
    """The page over real HTTP: gunicorn serving the site as the Procfile does (bench/api.py's
    server, production settings), one keep-alive client; yields (name, per-day functions)."""
    from api import Server, empty_cache, site_environment
    from django.conf import settings

    # setup_django pointed DATABASE_URL at the benchmark's database; the sessions made here are
    # signed with this process's secret key, which the server must share.
    env = site_environment(os.environ["DATABASE_URL"])
    env.update(SECRET_KEY=settings.SECRET_KEY, FARKLE_SEED_SECRET=settings.FARKLE_SEED_SECRET)
    try:
        with tempfile.TemporaryFile() as log:
            yield from _http_reads(Server(env, workers=2, threads=4, log=log), days, sizes, rng)
    finally:
        empty_cache()


def _http_reads(server, days: list, sizes: list[int], rng: random.Random):
    from api import Browser
    from django.conf import settings
    from django.contrib.sessions.backends.db import SessionStore

    try:
        server.wait_ready()
        anonymous = Browser(server.port)
        callers = []
        for size in sizes:
            # A browser that played: its session (in the database, which the server's cached_db
            # sessions fall back on) holds a player of the day.
            session = SessionStore()
            session[settings.PLAYER_SESSION_KEY] = rng.randrange(1, size + 1)
            session.create()
            browser = Browser(server.port)
            browser.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
            callers.append(browser)

        def page_1(puzzle):
            def fn() -> None:
                status, _, _ = anonymous.request(
                    "GET", f"/api/daily/{puzzle.day.isoformat()}/leaderboard?page=1"
                )
                assert status == 200, status

            return fn

        def random_page(puzzle, size, browser):
            def fn() -> None:
                page = rng.randrange(1, -(-size // 50) + 1)
                status, body, _ = browser.request(
                    "GET", f"/api/daily/{puzzle.day.isoformat()}/leaderboard?page={page}"
                )
                assert status == 200 and b'"me":{' in body, status

            return fn

        yield HTTP_READS[0][0], [page_1(puzzle) for puzzle in days]
        yield (
            HTTP_READS[1][0],
            [
                random_page(puzzle, size, browser)
                for puzzle, size, browser in zip(days, sizes, callers, strict=True)
            ],
        )
    finally:
        server.stop()


HTTP_READS = (
    ("GET …/leaderboard over HTTP (gunicorn), page 1", 10.0),
    ("GET …/leaderboard over HTTP, a random page, caller", 10.0),
)


def measure(fns: list[Callable[[], object]], runs: int) -> list[list[float]]:
    """Milliseconds of ``runs`` calls of each function, alternated so that the machine's noise
    falls on every day alike."""
    for fn in fns:
        for _ in range(20):
            fn()
    samples: list[list[float]] = [[] for _ in fns]
    for _ in range(runs):
        for i, fn in enumerate(fns):
            begin = time.perf_counter()
            fn()
            samples[i].append((time.perf_counter() - begin) * 1000)
    return samples


def run(sizes: list[int], runs: int, rng: random.Random) -> None:
    from django.utils import timezone

    from play.selectors.leaderboards import score_counts

    start = time.perf_counter()
    score_weights()
    load_players(max(sizes))
    today = timezone.now().date()
    days = []
    for back, size in enumerate(sizes):
        day = today - datetime.timedelta(days=len(sizes) - back)
        days.append(load(day, size, rng, analyze=back == len(sizes) - 1))
    loaded = time.perf_counter() - start
    for puzzle, size in zip(days, sizes, strict=True):
        counts = score_counts(puzzle=puzzle)
        assert counts.total == size == puzzle.players
        pages_check(puzzle, size)
    print(
        f"{' and '.join(f'{n:,}' for n in sizes)} finished official attempts on "
        f"{len(sizes)} days, {len(counts.scores)} distinct scores on the last "
        f"(loaded in {loaded:.0f} s); p99 of {runs} lookups each"
    )
    header = "".join(f"{f'{n:,}: p50':>15}{'p99':>7}" for n in sizes)
    print(f"{'measure (ms)':<50}{header}{'target':>8}{'ratio':>7}{'growth':>8}", flush=True)
    measures = [reads(puzzle, size, rng) for puzzle, size in zip(days, sizes, strict=True)]
    results: dict[str, list[list[float]]] = {}

    def show(name: str, target: float | None, samples: list[list[float]]) -> None:
        results[name] = samples
        p99s = [p99(s) for s in samples]
        shown = "".join(
            f"{statistics.median(s):>15.2f}{v:>7.2f}" for s, v in zip(samples, p99s, strict=True)
        )
        goal = f"{target:>8.1f}{p99s[-1] / target:>7.2f}" if target else " " * 15
        # The medians: the p99 of a shared machine is mostly its other tenants.
        p50s = [statistics.median(s) for s in samples]
        growth = f"{p50s[-1] / p50s[0]:>7.2f}×" if len(sizes) > 1 else ""
        print(f"{name:<50}{shown}{goal}{growth}", flush=True)

    for name, target in READS:
        show(name, target, measure([fns[name] for fns in measures], runs))
    # Closed however the loop ends: its finally stops the server and empties the cache.
    with contextlib.closing(http_reads(days, sizes, rng)) as over_http:
        for (name, fns), (_, target) in zip(over_http, HTTP_READS, strict=True):
            show(name, target, measure(fns, runs))
    contrast(days[-1], sizes[-1], rng)
    print(
        "(targets are p99, docs/performance.md; a ratio below 1 meets the target; growth: the "
        "largest day's p50 over the smallest's, about 1 when the cost is independent of players)"
    )
    closing = close(days[-1], today, rng)
    print(
        f"close ({closing['finalised']:,} games left midway finalised, each checked for "
        f"foresight; {closing['ranked']:,} ranked): closed and final after "
        f"{closing['close']:.1f} s (a reader saw it final after {closing['final']:.1f} s); "
        f"beside it, {closing['read runs']:,} rank reads and {closing['act runs']:,} actions "
        "in processes of their own; the same probes' worst for 3 s before the close: a read "
        f"{closing['read worst before']:.1f} ms, an action {closing['act worst before']:.1f} ms; "
        f"{closing['lock samples']:,} samples of their sessions' lock waits",
        flush=True,
    )
    summary(results, sizes, closing)


# The targets (items 3 and 4): the growth of a read's p50 from the smallest day to the
# largest counts as "independent of the players" up to this (two medians of a noisy machine).
GROWTH_TARGET = 1.25


def summary(results: dict[str, list[list[float]]], sizes: list[int], closing: dict) -> None:
    """The final table: every target of the issue's items 3 and 4, measured in this run."""
    biggest = f"{sizes[-1]:,}"

    def largest_p99(name: str) -> float:
        return p99(results[name][-1])

    growths = {
        name: statistics.median(samples[-1]) / statistics.median(samples[0])
        for name, samples in results.items()
    }
    worst_growth = max(growths, key=growths.get)
    rows = [
        (f"rank + percentile p99, {biggest} (ms)", largest_p99(READS[0][0]), 1.0),
        (f"top 100 with the distribution p99, {biggest} (ms)", largest_p99(READS[1][0]), 3.0),
        (f"page 1 over HTTP p99, {biggest} (ms)", largest_p99(HTTP_READS[0][0]), 10.0),
        (f"a random page over HTTP p99, {biggest} (ms)", largest_p99(HTTP_READS[1][0]), 10.0),
        (
            f"growth of p50 {sizes[0]:,} → {biggest}, worst read (×)",
            growths[worst_growth],
            GROWTH_TARGET,
        ),
        (f"close of the {biggest}-attempt day (s)", closing["close"], 10.0),
        ("worst rank read during the close (ms)", closing["read worst"], 100.0),
        ("worst action on today's game during the close (ms)", closing["act worst"], 100.0),
        ("longest lock wait of a read or an action, close (ms)", closing["lock wait"], 100.0),
    ]
    print(f"{'measure':<56}{'value':>10}{'target':>10}{'ratio':>8}  met")
    for name, value, target in rows:
        print(
            f"{name:<56}{value:>10.2f}{'≤' + format(target, 'g'):>10}{value / target:>8.2f}  "
            f"{'yes' if value <= target else 'NO'}"
        )
    print(
        f"(the worst growth is {worst_growth!r}; in-process reads run through Django's WSGI "
        "handler in this process, HTTP reads through gunicorn and a keep-alive connection; a "
        "ratio below 1 meets the target)"
    )


def p99(samples: list[float]) -> float:
    """Nearest-rank p99: the smallest sample at or above 99 % of them."""
    samples = sorted(samples)
    return samples[math.ceil(0.99 * len(samples)) - 1]


def contrast(puzzle, players: int, rng: random.Random) -> None:
    """A rank computed by counting attempts, the way the counts avoid."""
    from play.models import Attempt

    def rank_by_counting() -> None:
        pk = rng.randrange(1, players + 1)
        score = Attempt.objects.get(puzzle=puzzle, player_id=pk, official=True).score
        higher = Attempt.objects.filter(
            puzzle=puzzle, official=True, state="finished", score__gt=score
        ).count()
        assert higher >= 0

    p50, worst = timings(rank_by_counting, 10, warmup=2)
    name = "contrast: a rank by counting attempts"
    print(f"{name:<50}{p50:>15.2f}{worst:>7.2f}   (worst of 10 runs)", flush=True)


def unfinished_games(puzzle, count: int, rng: random.Random) -> list[tuple[list, int, int, int]]:
    """``count`` games left midway on the puzzle's dice, as a real day's close finds them: played
    by a slightly noisy optimal player and stopped at a random action (actions, score, step,
    turn), so that the close's foresight check of each replays a real game."""
    from farkle import foresight

    seed = puzzle.seed()
    policy = foresight.noisy(foresight.solver_policy, 0.1)
    pool = []
    for i in range(min(count, 200)):
        _, actions = foresight.play_out(seed, policy, random.Random(f"unfinished:{i}"))
        cut = rng.randrange(1, len(actions))
        game = farkle.Game.replay(seed, actions[:cut], puzzle.table)
        if game.finished:
            continue
        pool.append((actions[:cut], game.score, cut, game.turn))
    return [pool[i % len(pool)] for i in range(count)]


def leave_unfinished(puzzle, rng: random.Random) -> int:
    """Leave 1 % of the day's games half-played (unfinished_games), its counts without them, as
    a close finds a real day; the number of games.

    The games taken are the last 1 % of each score (rounded; by place within the score), so that
    the places of those left stay 1 to their score's count, as the site keeps them."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT a.id FROM daily_attempt a JOIN daily_scorecount c "
            "ON c.puzzle_id = a.puzzle_id AND c.score = a.score "
            "WHERE a.puzzle_id = %s AND a.official AND a.finished_at IS NOT NULL AND NOT a.held "
            "AND a.score_position > c.count - (c.count + 50) / 100 ORDER BY a.id",
            [puzzle.pk],
        )
        ids = [row[0] for row in cursor.fetchall()]
        games = unfinished_games(puzzle, len(ids), rng)
        cursor.execute(
            "UPDATE daily_attempt a SET state = 'awaiting_roll', finished_at = NULL, "
            "score_position = NULL, "
            "actions = u.actions::jsonb, score = u.score, step = u.step, turn = u.turn "
            "FROM unnest(%s::bigint[], %s::text[], %s::integer[], %s::integer[], %s::integer[]) "
            "AS u(id, actions, score, step, turn) WHERE a.id = u.id",
            [
                ids,
                [json.dumps(g[0]) for g in games],
                [g[1] for g in games],
                [g[2] for g in games],
                [g[3] for g in games],
            ],
        )
        cursor.execute("DELETE FROM daily_scorecount WHERE puzzle_id = %s", [puzzle.pk])
        cursor.execute(
            "INSERT INTO daily_scorecount (puzzle_id, score, count) "
            "SELECT puzzle_id, score, count(*) FROM daily_attempt "
            "WHERE puzzle_id = %s AND official AND state = 'finished' AND NOT held "
            "GROUP BY puzzle_id, score",
            [puzzle.pk],
        )
        cursor.execute("VACUUM ANALYZE daily_attempt, daily_scorecount")
    return len(ids)


# The probes' phases: measuring beside no close, then beside the close, then done.
BEFORE, DURING, DONE = 0, 1, 2


def _probe(kind: str, puzzle_id: int, late_id: int, ranked: list[int], phase, worst, runs, final):
    """A reader of ranks or a player acting on today's game, in a process of its own (a web
    worker's, as in production: the close runs in a Celery worker), until the phase is DONE;
    its worst latency before the close and during it (``worst[BEFORE]``, ``worst[DURING]``)."""
    from django.db import connection
    from django.db.models import F
    from django.utils import timezone

    from play.models import Attempt, Player, Puzzle
    from play.selectors.leaderboards import player_standing

    puzzle = Puzzle.objects.get(pk=puzzle_id)
    pick = random.Random(kind)
    with connection.cursor() as cursor:
        # Named for the lock watcher (_lock_watch).
        cursor.execute("SELECT set_config('application_name', %s, false)", [f"probe-{kind}"])

    def read_rank() -> None:
        player_standing(puzzle=puzzle, player=Player(pk=pick.choice(ranked), display_name="x"))
        closed = Puzzle.objects.filter(pk=puzzle_id, closed_at__isnull=False)
        if not final.value and closed.exists():
            final.value = time.perf_counter()

    def act() -> None:
        # An action's write on today's game: a conditional update of its row.
        Attempt.objects.filter(pk=late_id, step=F("step")).update(
            step=F("step") + 1, updated_at=timezone.now()
        )

    fn = read_rank if kind == "read" else act
    try:
        # Once untimed: a new session's first statement on the table fills its catalog caches.
        fn()
        while phase.value != DONE:
            begin = time.perf_counter()
            fn()
            took = (time.perf_counter() - begin) * 1000
            # An operation the close began during counts as the close's.
            now = DURING if phase.value != BEFORE else BEFORE
            worst[now] = max(worst[now], took)
            if now == DURING:
                runs.value += 1
            # Paced like a busy site rather than a spin loop that would starve the close.
            time.sleep(0.005)
    finally:
        connection.close()


def _lock_watch(phase, longest, samples) -> None:
    """While the close runs, sample every 5 ms or so what the probes' Postgres sessions wait on,
    and keep the longest time one was seen waiting for a lock (``longest``, ms, counted from the
    sample before the first that saw it waiting: an upper bound within one sample's gap), and how
    many samples saw both probes: what the close's locks cost them, apart from CPU and disk."""
    from django.db import connection

    since: dict[str, float] = {}
    last = time.perf_counter()
    try:
        with connection.cursor() as cursor:
            while (now := phase.value) != DONE:
                if now == DURING:
                    cursor.execute(
                        "SELECT application_name, wait_event_type = 'Lock' FROM pg_stat_activity "
                        "WHERE application_name LIKE %s",
                        ["probe-%"],
                    )
                    rows = cursor.fetchall()
                    at = time.perf_counter()
                    if len(rows) == 2:
                        samples.value += 1
                    for name, waiting in rows:
                        if not waiting:
                            since.pop(name, None)
                            continue
                        began = since.setdefault(name, last)
                        longest.value = max(longest.value, (at - began) * 1000)
                    last = at
                time.sleep(0.005)
    finally:
        connection.close()


def close(puzzle, today: datetime.date, rng: random.Random) -> dict[str, float]:
    """Time the day's close, with 1 % of its games left unfinished midway, while a rank reader
    and a player acting on today's puzzle run beside it, each in a process of its own, and
    report their worst latencies."""
    import multiprocessing

    from django.db import connections
    from django.utils import timezone

    from daily.services.puzzles import daily_get_or_create
    from daily.services.rollover import puzzle_close
    from play.models import Attempt

    leave_unfinished(puzzle, rng)
    now = timezone.now()
    live = daily_get_or_create(day=today, now=now)
    late = Attempt.objects.create(
        player_id=1,
        puzzle=live,
        official=True,
        started_at=now,
        updated_at=now,
        deadline=live.closes_at,
    )
    ranked = list(
        Attempt.objects.filter(puzzle=puzzle, state="finished")
        .order_by("?")
        .values_list("player_id", flat=True)[:1000]
    )
    # No connection crosses the fork: each probe opens its own.
    connections.close_all()
    context = multiprocessing.get_context("fork")
    phase = context.Value("i", BEFORE)
    final = context.Value("d", 0.0)
    longest_lock, lock_samples = context.Value("d", 0.0), context.Value("i", 0)
    probes = {}
    for kind in ("read", "act"):
        worst, runs = context.Array("d", [0.0, 0.0]), context.Value("i", 0)
        process = context.Process(
            target=_probe,
            args=(kind, puzzle.pk, late.pk, ranked, phase, worst, runs, final),
            daemon=True,
        )
        process.start()
        probes[kind] = (process, worst, runs)
    watcher = context.Process(
        target=_lock_watch, args=(phase, longest_lock, lock_samples), daemon=True
    )
    watcher.start()
    # The probes' worst beside no close, the machine's own noise (its disk's fsync above all).
    time.sleep(3.0)
    # Yesterday is due from 00:01:30 UTC: a run in the minute and a half after midnight waits
    # for it (a close before its time is refused).
    time.sleep(max(0.0, (puzzle.closes_at - timezone.now()).total_seconds()))
    phase.value = DURING
    start = time.perf_counter()
    closed = puzzle_close(puzzle_id=puzzle.pk, now=timezone.now())
    elapsed = time.perf_counter() - start
    time.sleep(0.5)
    phase.value = DONE
    for process in [*(p for p, _, _ in probes.values()), watcher]:
        process.join()
        # A probe or watcher that died would leave its worst at 0, which reads as met.
        if process.exitcode != 0:
            raise SystemExit(f"a probe of the close failed (exit code {process.exitcode})")
    if not lock_samples.value or not probes["act"][2].value or not probes["read"][2].value:
        raise SystemExit("the close's probes took no measure during the close")
    return {
        "finalised": closed.finalised,
        "ranked": closed.players,
        "final": (final.value - start) if final.value else math.nan,
        "close": elapsed,
        "read worst": probes["read"][1][DURING],
        "read worst before": probes["read"][1][BEFORE],
        "read runs": probes["read"][2].value,
        "act worst": probes["act"][1][DURING],
        "act worst before": probes["act"][1][BEFORE],
        "act runs": probes["act"][2].value,
        "lock wait": longest_lock.value,
        "lock samples": lock_samples.value,
    }


if __name__ == "__main__":
    main()
