"""Each ranked attempt's place within its score (``Attempt.score_position``, issue 15 item 3): given
by every way a game is counted (its last action, its clock, the close, an operator's release),
always 1 to the score's count in finish order, and the leaderboard's pages read from it.

The expected places and pages are counted here from the stored scores and finish times alone."""

import datetime
import random
import threading
from collections import defaultdict

import pytest
import time_machine
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from daily.services.rollover import puzzle_close
from play.models import Attempt, Puzzle, ScoreCount
from play.services.attempts import attempt_act, attempt_clock, attempt_start
from play.services.foresight import attempt_hold, attempt_release
from play.services.players import player_create
from tests.daily.helpers import act, every_page, play_greedy, post, start_daily
from tests.helpers import race
from tests.moments import NOON

UTC = datetime.UTC
DAY = "2026-11-29"
# The end of the day's grace: the day closes (docs/play.md).
CLOSE = datetime.datetime(2026, 11, 30, 0, 1, 30, tzinfo=UTC)


def ranked_rows(puzzle_id: int) -> list[tuple[int, int, datetime.datetime, int | None]]:
    """(id, score, finished_at, score_position) of the puzzle's ranked attempts."""
    return list(
        Attempt.objects.filter(
            puzzle_id=puzzle_id, official=True, finished_at__isnull=False, held=False
        ).values_list("id", "score", "finished_at", "score_position")
    )


def by_finish(rows) -> dict[int, int]:
    """Every attempt's place among those of its score, counted in finish order, then by id."""
    places = {}
    seen: dict[int, int] = defaultdict(int)
    for attempt_id, score, _, _ in sorted(rows, key=lambda r: (r[2], r[0])):
        seen[score] += 1
        places[attempt_id] = seen[score]
    return places


def assert_places_and_pages(puzzle: Puzzle, now: datetime.datetime) -> list[int]:
    """Places as counted by finish, and every page of every size the brute-force order (the
    puzzle closed: the entries carry their attempts); the ranked attempts' ids in that order."""
    rows = ranked_rows(puzzle.pk)
    assert {r[0]: r[3] for r in rows} == by_finish(rows)
    counts = dict(
        ScoreCount.objects.filter(puzzle=puzzle, count__gt=0).values_list("score", "count")
    )
    tallied: dict[int, int] = defaultdict(int)
    for _, score, _, _ in rows:
        tallied[score] += 1
    assert counts == tallied
    ordered = sorted(rows, key=lambda r: (-r[1], r[2], r[0]))
    expected = [(r[0], 1 + sum(o[1] > r[1] for o in rows)) for r in ordered]
    for size in range(1, len(rows) + 1):
        pages = every_page(puzzle, size=size, ranked=len(rows), now=now)
        assert [(e.attempt, e.rank) for e in pages] == expected, size
    return [r[0] for r in ordered]


@pytest.mark.django_db
def test_games_played_through_the_api_and_the_close_take_their_places_in_finish_order(clock):
    rng = random.Random(15)
    players = [Client() for _ in range(16)]
    # Few strategies for many players on the same dice: long runs of equal scores.
    for client in players[:13]:
        clock.shift(datetime.timedelta(seconds=rng.randrange(1, 600)))
        play_greedy(client, start_daily(client, DAY), bank_at=rng.choice([200, 300, 300, 1000]))
    # A practice game is never ranked, nor placed.
    practice = play_greedy(players[0], start_daily(players[0], DAY))
    # Left midway, or never rolled: the close finalises them, after every finished game.
    for client in players[13:]:
        attempt = start_daily(client, DAY)
        for _ in range(rng.randrange(0, 6)):
            if attempt["state"] != "awaiting_roll":
                break
            attempt = act(client, attempt, {"action": "roll"}).json()
    puzzle = Puzzle.objects.get(day=DAY)
    assert Attempt.objects.filter(official=True, score_position__isnull=True).count() == 3

    clock.move_to(CLOSE)
    assert puzzle_close(puzzle_id=puzzle.pk, now=CLOSE).finalised == 3
    puzzle.refresh_from_db()

    order = assert_places_and_pages(puzzle, CLOSE)
    assert len(order) == 16
    assert Attempt.objects.get(pk=practice["id"]).score_position is None
    # Long runs of equal scores, the close's games among them.
    counts = ScoreCount.objects.filter(puzzle=puzzle).values_list("count", flat=True)
    assert max(counts) >= 4


def greedy_games(clock, count: int) -> list[dict]:
    """``count`` fresh players' games of the day, three minutes apart, each played greedily: the
    same play on the same dice, so one score."""
    games = []
    for _ in range(count):
        clock.shift(datetime.timedelta(minutes=3))
        client = Client()
        games.append(play_greedy(client, start_daily(client, DAY)))
    return games


@pytest.mark.django_db
def test_a_hold_closes_the_places_and_a_release_returns_the_game_to_its_finish(clock):
    games = greedy_games(clock, 5)
    # The same play on the same dice: one score, places 1 to 5.
    assert len({g["score"] for g in games}) == 1
    puzzle = Puzzle.objects.get(day=DAY)
    ids = [g["id"] for g in games]
    assert [Attempt.objects.get(pk=i).score_position for i in ids] == [1, 2, 3, 4, 5]

    assert attempt_hold(attempt_id=ids[1])
    clock.shift(datetime.timedelta(minutes=3))
    later = Client()
    ids.append(play_greedy(later, start_daily(later, DAY))["id"])
    places = dict(Attempt.objects.filter(pk__in=ids).values_list("id", "score_position"))
    assert [places[i] for i in ids] == [1, None, 2, 3, 4, 5]
    assert assert_places_and_pages(puzzle, CLOSE) == [ids[0], *ids[2:]]

    assert attempt_release(attempt_id=ids[1], now=NOON)
    places = dict(Attempt.objects.filter(pk__in=ids).values_list("id", "score_position"))
    assert [places[i] for i in ids] == [1, 2, 3, 4, 5, 6]
    assert assert_places_and_pages(puzzle, CLOSE) == ids


@pytest.mark.django_db
def test_a_game_counted_without_a_place_can_still_be_held(clock):
    # As a web process older than migration 0008 would leave it (docs/operations.md): counted,
    # no place. Holding it takes it off the count and moves no other game.
    games = greedy_games(clock, 3)
    ids = [g["id"] for g in games]
    Attempt.objects.filter(pk=ids[2]).update(score_position=None)
    puzzle = Puzzle.objects.get(day=DAY)

    assert attempt_hold(attempt_id=ids[2])

    places = dict(Attempt.objects.filter(pk__in=ids).values_list("id", "score_position"))
    assert [places[i] for i in ids] == [1, 2, None]
    assert ScoreCount.objects.get(puzzle=puzzle, score=games[0]["score"]).count == 2
    assert assert_places_and_pages(puzzle, CLOSE) == ids[:2]


CLOCK_CODE = "C10CK5"


@pytest.mark.django_db
def test_games_ended_by_their_clock_take_places_as_they_are_counted(db, monkeypatch, settings):
    from challenges import services
    from challenges.services import challenge_create

    # Dice of a fixed code and secret, not random ones: the tenth turn's first throw must not be
    # a Farkle (about one game in forty), or a Farkle rather than the clock would end the game.
    settings.FARKLE_SEED_SECRET = "test-secret"
    monkeypatch.setattr(services, "code_generate", lambda: CLOCK_CODE)
    creator = player_create(now=NOON)
    puzzle = challenge_create(creator=creator, turn_seconds=30, now=NOON).puzzle
    assert puzzle.code == CLOCK_CODE
    ended = []
    for n in range(2):
        player = creator if n == 0 else player_create(now=NOON)
        attempt = attempt_start(player=player, puzzle=puzzle, now=NOON)
        game = attempt.game()
        now = NOON + datetime.timedelta(hours=n)
        # Each turn's first throw, then nothing until its time runs out: the tenth timeout
        # finishes the game with nothing banked.
        while not game.finished:
            now += datetime.timedelta(seconds=1)
            attempt, game = attempt_act(
                attempt_id=attempt.pk,
                player_id=player.pk,
                step=game.step,
                action={"action": "roll"},
                now=now,
            )
            by_clock = game.state == "awaiting_keep"
            if by_clock:
                now += datetime.timedelta(seconds=30)
                attempt, game = attempt_clock(attempt=attempt, now=now)
        # The clock, not a Farkle of the last throw, ended it.
        assert by_clock
        ended.append(attempt.pk)
    stored = Attempt.objects.filter(pk__in=ended).order_by("finished_at")
    assert [(a.pk, a.score, a.score_position) for a in stored] == [
        (ended[0], 0, 1),
        (ended[1], 0, 2),
    ]


@pytest.mark.django_db(transaction=True)
@time_machine.travel(NOON, tick=False)
def test_simultaneous_finishes_of_one_score_take_distinct_places():
    # One game played through, its actions recorded; the others follow them on the same dice
    # to one action before the end, then all send their last action at once.
    first = Client()
    attempt = start_daily(first, DAY)
    bodies = []
    while attempt["state"] != "finished":
        if attempt["state"] == "awaiting_roll":
            body = {"action": "roll"}
        else:
            best = max(attempt["keep_options"], key=lambda o: (o["score"], -len(o["dice"])))
            then = "bank" if attempt["turn_points"] + best["score"] >= 300 else "roll"
            body = {"action": "keep", "dice": best["dice"], "then": then}
        bodies.append(body)
        attempt = act(first, attempt, body).json()
    racers = [Client() for _ in range(4)]
    games = []
    for client in racers:
        game = start_daily(client, DAY)
        for body in bodies[:-1]:
            game = act(client, game, body).json()
        assert game["state"] != "finished"
        games.append(game)
    turn = iter(range(len(racers)))
    lock = threading.Lock()

    def finish():
        with lock:
            i = next(turn)
        return post(
            racers[i],
            f"/api/attempts/{games[i]['id']}/actions",
            {"step": games[i]["step"], **bodies[-1]},
        )

    responses = race(len(racers), finish)

    assert [r.status_code for r in responses] == [200] * len(racers)
    assert {r.json()["score"] for r in responses} == {attempt["score"]}
    places = Attempt.objects.filter(official=True).values_list("score_position", flat=True)
    assert sorted(places) == [1, 2, 3, 4, 5]
    assert ScoreCount.objects.get(score=attempt["score"]).count == 5


@pytest.mark.django_db(transaction=True)
def test_the_migration_numbers_the_ranked_attempts_already_there():
    before = [("daily", "0007_ranks_derived_leaderboard_covering")]
    after = [("daily", "0008_score_position")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    try:
        apps = executor.loader.project_state(before).apps
        Player = apps.get_model("daily", "Player")
        Puzzle_ = apps.get_model("daily", "Puzzle")
        Attempt_ = apps.get_model("daily", "Attempt")
        puzzles = [
            Puzzle_.objects.create(
                kind="daily",
                day=datetime.date(2026, 11, 27 + n),
                commitment="0" * 64,
                opens_at=NOON - datetime.timedelta(days=1),
                ends_at=NOON,
                closes_at=NOON,
            )
            for n in range(2)
        ]
        rng = random.Random(8)
        made = []
        for n in range(40):
            official = rng.random() > 0.15
            finished = rng.random() > 0.15
            held = official and finished and rng.random() < 0.15
            # Equal finish times too, told apart by the id.
            finished_at = NOON + datetime.timedelta(minutes=rng.choice([0, 1, 1, 2, 3]))
            attempt = Attempt_.objects.create(
                player=Player.objects.create(display_name=f"Player {n}", created_at=NOON),
                puzzle=rng.choice(puzzles),
                official=official,
                state="finished" if finished else "awaiting_roll",
                score=rng.choice([0, 300, 300, 500]),
                started_at=NOON,
                updated_at=NOON,
                finished_at=finished_at if finished else None,
                held=held,
            )
            made.append(
                (
                    attempt.pk,
                    attempt.puzzle_id,
                    attempt.score,
                    finished_at,
                    official and finished and not held,
                )
            )
        executor = MigrationExecutor(connection)
        executor.migrate(after)

        places = dict(Attempt.objects.values_list("id", "score_position"))
        expected = {}
        seen: dict[tuple[int, int], int] = defaultdict(int)
        for attempt_id, puzzle_id, score, _, ranked in sorted(made, key=lambda m: (m[3], m[0])):
            if ranked:
                seen[puzzle_id, score] += 1
            expected[attempt_id] = seen[puzzle_id, score] if ranked else None
        assert places == expected
        assert 0 < sum(p is None for p in places.values()) < len(places)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
