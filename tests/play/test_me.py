import datetime
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.test import Client

from daily.services.puzzles import daily_get_or_create
from play.apis import schemas
from play.models import Attempt, Player, Puzzle
from play.rules.days import day_start
from play.selectors.stats import HISTORY_LENGTH, player_stats, streaks
from play.services.attempts import score_count_add
from play.services.players import player_create
from play.web.session import session_bind
from tests.daily.helpers import play_greedy, start_daily
from tests.moments import NOON

UTC = datetime.UTC
TODAY = datetime.date(2026, 11, 29)
DAY = "2026-11-29"

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


def day(n: int) -> datetime.date:
    """November ``n``, 2026."""
    return datetime.date(2026, 11, n)


def played(
    player: Player,
    on: datetime.date,
    *,
    score: int = 1000,
    finished: bool = True,
    official: bool = True,
) -> Attempt:
    """An attempt on the daily of ``on``, stored directly."""
    puzzle = daily_get_or_create(day=on, now=NOON)
    started = day_start(on) + datetime.timedelta(hours=9)
    return Attempt.objects.create(
        player=player,
        puzzle=puzzle,
        official=official,
        state=Attempt.State.FINISHED if finished else Attempt.State.AWAITING_ROLL,
        score=score,
        started_at=started,
        updated_at=started,
        finished_at=started + datetime.timedelta(minutes=5) if finished else None,
    )


def challenge_puzzle() -> Puzzle:
    return Puzzle.objects.create(
        kind=Puzzle.Kind.CHALLENGE,
        code="K7M2QX",
        commitment="0" * 64,
        opens_at=day_start(day(20)),
        ends_at=day_start(day(27)),
        closes_at=day_start(day(27)),
    )


def guest(client: Client, name: str = "Lucky Otter") -> Player:
    """A player tied to the test client's session."""
    player = player_create(now=NOON, display_name=name)
    session = client.session
    session_bind(SimpleNamespace(session=session), player)
    session.save()
    return player


def patch_me(client: Client, body, **extra):
    return client.patch("/api/me", body, content_type="application/json", **extra)


# Streaks


@pytest.mark.parametrize(
    ("days", "expected"),
    [
        ([], (0, 0)),
        ([day(29)], (1, 1)),
        ([day(28)], (1, 1)),  # Alive: today's daily may not be played yet.
        ([day(27)], (0, 1)),  # Two days ago: the streak is broken.
        ([day(26), day(27), day(28), day(29)], (4, 4)),
        ([day(20), day(21), day(22), day(27), day(28)], (2, 3)),
        ([day(28), day(27), day(28)], (2, 2)),  # Unordered, repeated.
        ([day(10), day(11), day(12), day(13), day(25)], (0, 4)),
        ([datetime.date(2026, 10, 31), day(1), day(2)], (0, 3)),  # Across a month.
    ],
)
def test_streaks_current_and_best(days, expected):
    assert streaks(days, today=TODAY) == expected


def test_player_stats_streak_across_a_gap_and_practice_only_days():
    player = player_create(now=NOON)
    for n in (20, 21, 22):
        played(player, day(n), score=n * 100)
    # November 23 is played as practice only: the streak breaks there.
    played(player, day(23), official=False, score=9000)
    for n in (24, 25, 26, 27, 28):
        played(player, day(n), score=1000)
    played(player, day(29), finished=False, score=350)  # Today's, in progress.
    # A friend challenge, finished: not a daily, so it counts for nothing here.
    Attempt.objects.create(
        player=player,
        puzzle=challenge_puzzle(),
        official=True,
        state=Attempt.State.FINISHED,
        score=8000,
        started_at=NOON,
        updated_at=NOON,
        finished_at=NOON,
    )

    stats = player_stats(player=player, today=TODAY)

    assert (
        stats.games,
        stats.finished,
        stats.best,
        stats.average,
        stats.current_streak,
        stats.best_streak,
        stats.last_played,
    ) == (9, 8, 2200, round((2000 + 2100 + 2200 + 5 * 1000) / 8), 5, 5, day(29))
    assert [(r.day, r.state, r.score) for r in stats.history[:3]] == [
        (day(29), "awaiting_roll", 350),
        (day(28), "finished", 1000),
        (day(27), "finished", 1000),
    ]


def test_player_stats_streak_broken_two_days_ago():
    player = player_create(now=NOON)
    for n in (25, 26, 27):
        played(player, day(n))

    stats = player_stats(player=player, today=TODAY)

    assert (stats.current_streak, stats.best_streak) == (0, 3)


def test_player_stats_unfinished_official_days_do_not_make_a_streak():
    player = player_create(now=NOON)
    played(player, day(27))
    played(player, day(28), finished=False)  # Left unfinished (not yet finalised at close).
    played(player, day(29))

    stats = player_stats(player=player, today=TODAY)

    assert (stats.games, stats.finished, stats.current_streak, stats.best_streak) == (3, 2, 1, 1)


def test_player_stats_history_is_the_latest_days_newest_first(settings):
    settings.FARKLE_FIRST_DAY = datetime.date(2026, 10, 1)
    player = player_create(now=NOON)
    for n in range(HISTORY_LENGTH + 5):
        played(player, TODAY - datetime.timedelta(days=n))

    stats = player_stats(player=player, today=TODAY)

    assert [r.day for r in stats.history] == [
        TODAY - datetime.timedelta(days=n) for n in range(HISTORY_LENGTH)
    ]
    assert (stats.games, stats.current_streak) == (HISTORY_LENGTH + 5, HISTORY_LENGTH + 5)


# GET /api/me


def test_me_without_a_player_is_not_found(client):
    response = client.get("/api/me")

    assert (response.status_code, response.json()) == (
        404,
        {
            "detail": "This browser has no player yet: start a game or choose a name.",
            "code": "not_found",
        },
    )
    assert Player.objects.count() == 0


def test_me_after_a_game(client):
    attempt = play_greedy(client, start_daily(client, DAY))
    player = Player.objects.get()
    # The 28th, closed: six others' scores; 4500 is below 9000 and 5000, above 4000, 100, 50
    # and level with one 4500: rank 3, beating 3 of the 6 others (50 %).
    yesterday = played(player, day(28), score=4500)
    others = [9000, 5000, 4500, 4000, 100, 50]
    for n, score in enumerate(others):
        played(player_create(display_name=f"Other {n}", now=NOON), day(28), score=score)
    for score in [4500, *others]:
        score_count_add(puzzle=yesterday.puzzle, score=score)

    response = client.get("/api/me")

    assert (response.status_code, response.json()) == (
        200,
        {
            "name": player.display_name,
            "account": None,
            "stats": {
                "games": 2,
                "finished": 2,
                "best": max(4500, attempt["score"]),
                "average": round((4500 + attempt["score"]) / 2),
                "current_streak": 2,
                "best_streak": 2,
                "last_played": DAY,
            },
            "history": [
                {
                    "date": DAY,
                    "attempt": attempt["id"],
                    "state": "finished",
                    "score": attempt["score"],
                    "finished_at": "2026-11-29T12:00:00Z",
                    # Today's rank is live, as on the leaderboard (the only player: #1, and
                    # nobody else to beat); it is stored when the day closes.
                    "rank": 1,
                    "percentile": None,
                },
                {
                    "date": "2026-11-28",
                    "attempt": yesterday.pk,
                    "state": "finished",
                    "score": 4500,
                    "finished_at": "2026-11-28T09:05:00Z",
                    "rank": 3,
                    "percentile": 50.0,
                },
            ],
            # No day rated: today is open, and the 28th's rows were written without its close.
            "rating": {"current": None, "days": 0, "history": []},
        },
    )


def test_me_practice_does_not_count(client):
    start_daily(client, DAY)
    # Yesterday's daily, closed, is played from the archive: practice.
    practice = play_greedy(client, start_daily(client, "2026-11-28"))

    stats = client.get("/api/me").json()["stats"]

    assert practice["official"] is False
    assert stats == {
        "games": 1,
        "finished": 0,
        "best": None,
        "average": None,
        "current_streak": 0,
        "best_streak": 0,
        "last_played": DAY,
    }


def test_me_payload_has_the_fields_the_schema_documents(client):
    player = guest(client)
    played(player, day(28))

    body = client.get("/api/me").json()

    assert set(body) == set(schemas.MeSerializer().fields)
    assert set(body["stats"]) == set(schemas.MeStatsSerializer().fields)
    assert set(body["history"][0]) == set(schemas.MeResultSerializer().fields)


@pytest.mark.parametrize("days", [1, 3])
def test_me_queries_do_not_grow_with_history(client, django_assert_num_queries, days):
    player = guest(client)
    for n in range(days):
        played(player, day(29 - n))

    # The session, the player, the stats, the listed results' ranks, the rating's history.
    # The session is read from the shared cache (cached_db), not from the database.
    with django_assert_num_queries(4):
        response = client.get("/api/me")

    assert response.json()["stats"]["games"] == days


@pytest.mark.parametrize("days", [1, 3])
def test_me_logged_in_queries_do_not_grow_with_history(
    client, django_assert_num_queries, settings, days
):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    client.post(
        "/api/auth/signup",
        {"username": "alice", "password": "correct horse battery staple"},
        content_type="application/json",
    )
    for n in range(days):
        played(Player.objects.get(), day(29 - n))

    # The session, the user, the player, the stats, the listed results' ranks, the rating's
    # history.
    with django_assert_num_queries(5):
        response = client.get("/api/me")

    assert (response.json()["account"], response.json()["stats"]["games"]) == ("alice", days)


# PATCH /api/me


def test_me_patch_renames(client):
    guest(client)

    response = patch_me(client, {"name": "  Calm   Heron "})

    assert (response.status_code, response.json()["name"]) == (200, "Calm Heron")
    assert list(Player.objects.values_list("display_name", flat=True)) == ["Calm Heron"]


def test_me_patch_without_a_player_creates_one_with_that_name(client):
    response = patch_me(client, {"name": "Calm Heron"})

    player = Player.objects.get()
    assert (response.status_code, response.json()["name"], player.display_name) == (
        200,
        "Calm Heron",
        "Calm Heron",
    )
    assert client.session[settings.PLAYER_SESSION_KEY] == player.pk
    # The player is this browser's: its first game uses it.
    start_daily(client, DAY)
    assert Attempt.objects.get().player == player


def test_me_patch_name_held_in_other_case_is_a_conflict(client):
    player_create(now=NOON, display_name="Calm Heron")
    guest(client, "Lucky Otter")

    response = patch_me(client, {"name": "CALM heron"})

    assert (response.status_code, response.json()) == (
        409,
        {"detail": "The name “CALM heron” is taken; please choose another.", "code": "name_taken"},
    )
    assert sorted(Player.objects.values_list("display_name", flat=True)) == [
        "Calm Heron",
        "Lucky Otter",
    ]


def test_me_patch_held_name_without_a_player_creates_nothing(client):
    player_create(now=NOON, display_name="Calm Heron")

    response = patch_me(client, {"name": "calm heron"})

    assert (response.status_code, response.json()["code"]) == (409, "name_taken")
    assert Player.objects.count() == 1
    assert settings.PLAYER_SESSION_KEY not in client.session


@pytest.mark.parametrize(
    ("name", "detail"),
    [
        ("ab", "A name has at least 3 characters."),
        (
            "10000",
            "A name cannot look like a score or a throw of dice: at most two digits in a row.",
        ),
        ("Admin", "A name cannot pass for the site's staff."),
        ("Connard", "This name is not allowed; please choose another."),
    ],
)
def test_me_patch_invalid_name_changes_nothing(client, name, detail):
    guest(client)

    response = patch_me(client, {"name": name})

    assert (response.status_code, response.json()) == (
        400,
        {"detail": detail, "code": "invalid_name"},
    )
    assert list(Player.objects.values_list("display_name", flat=True)) == ["Lucky Otter"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("[]", "invalid"),
        ('"Calm Heron"', "invalid"),
        ("{", "parse_error"),
        ({}, "invalid_name"),
        ({"name": 42}, "invalid_name"),
        ({"name": True}, "invalid_name"),
        ({"name": None}, "invalid_name"),
        ({"name": ["Calm Heron"]}, "invalid_name"),
        ({"name": {"first": "Calm"}}, "invalid_name"),
        ({"name": "x" * 201}, "invalid_name"),
        ({"name": "Bob!"}, "invalid_name"),
    ],
)
def test_me_patch_malformed_body_stores_nothing(client, body, code):
    response = patch_me(client, body)

    assert (response.status_code, response.json()["code"]) == (400, code)
    assert Player.objects.count() == 0
    assert settings.PLAYER_SESSION_KEY not in client.session


def test_me_patch_needs_the_csrf_token():
    browser = Client(enforce_csrf_checks=True)
    token = browser.get("/api/daily/today").cookies["csrftoken"].value

    refused = patch_me(browser, {"name": "Calm Heron"})
    accepted = patch_me(browser, {"name": "Calm Heron"}, headers={"X-CSRFToken": token})

    assert (refused.status_code, refused.json()) == (
        403,
        {"detail": "CSRF Failed: CSRF token missing.", "code": "forbidden"},
    )
    assert (accepted.status_code, accepted.json()["name"]) == (200, "Calm Heron")
    assert list(Player.objects.values_list("display_name", flat=True)) == ["Calm Heron"]


def test_me_patch_is_throttled_per_player(client):
    guest(client)
    statuses = [patch_me(client, {"name": f"Calm Heron {n}"}).status_code for n in range(20)]

    response = patch_me(client, {"name": "Calm Heron"})

    assert statuses == [200] * 20
    assert (response.status_code, response.json()["code"]) == (429, "throttled")
    assert Player.objects.get().display_name == "Calm Heron 19"
    # Reading is never throttled.
    assert client.get("/api/me").status_code == 200


def test_me_todays_rank_is_the_leaderboards(client):
    # Issue 9, item 15: /me showed "–" for today while the leaderboard showed #1.
    others = [player_create(display_name=name, now=NOON) for name in ("Ann Otter", "Bo Heron")]
    for other, score in zip(others, (9000, 100), strict=True):
        attempt = played(other, TODAY, score=score)
        score_count_add(puzzle=attempt.puzzle, score=score)
    attempt = play_greedy(client, start_daily(client, DAY))

    today_row = client.get("/api/me").json()["history"][0]
    board = client.get(f"/api/daily/{DAY}/leaderboard").json()

    # Between 9000 and 100 (a greedy game scores neither): second, beating one of two others.
    assert 100 < attempt["score"] < 9000
    assert (today_row["rank"], today_row["percentile"]) == (2, 50.0)
    assert (board["me"]["rank"], board["me"]["percentile"]) == (2, 50.0)
