import datetime
import json
from types import SimpleNamespace

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.renderers import JSONRenderer

from daily.services.puzzles import daily_get_or_create
from farkle.bots import play
from play.apis.schemas import LeaderboardSerializer
from play.models import Attempt, Player, Puzzle
from play.selectors.leaderboards import (
    Bucket,
    Distribution,
    Entry,
    ScoreLadder,
    ScoreTally,
    Standing,
    attempt_ranks,
    leaderboard_page,
    player_standing,
)
from play.services.attempts import score_count_add
from play.web.session import session_bind
from tests.daily.helpers import every_page, play_greedy, post, start_daily
from tests.moments import NOON

UTC = datetime.UTC
DAY = "2026-11-29"
# The end of the day's grace: from this instant on the day is closed (docs/play.md).
CLOSE = datetime.datetime(2026, 11, 30, 0, 1, 30, tzinfo=UTC)
URL = f"/api/daily/{DAY}/leaderboard"


@pytest.fixture
def puzzle(db, clock) -> Puzzle:
    return daily_get_or_create(day=NOON.date(), now=NOON)


def at(hour: int, minute: int = 0) -> datetime.datetime:
    return datetime.datetime(2026, 11, 29, hour, minute, tzinfo=UTC)


def finish(
    puzzle: Puzzle, name: str, score: int, finished_at: datetime.datetime, *, official=True
) -> Attempt:
    """A finished attempt straight in the database, counted as the action service counts it:
    after the attempts finished before it (calls in finish order list ties in finish order)."""
    player, _ = Player.objects.get_or_create(
        display_name=name, defaults={"created_at": finished_at}
    )
    attempt = Attempt.objects.create(
        player=player,
        puzzle=puzzle,
        official=official,
        state=Attempt.State.FINISHED,
        step=40,
        turn=10,
        score=score,
        started_at=finished_at - datetime.timedelta(minutes=5),
        updated_at=finished_at,
        finished_at=finished_at,
        deadline=puzzle.closes_at,
    )
    if official:
        attempt.score_position = score_count_add(puzzle=puzzle, score=score)
        attempt.save(update_fields=["score_position"])
    return attempt


def as_player(client: Client, player: Player) -> Client:
    """Tie the client's session to a player, as its first game would."""
    session = client.session
    session_bind(SimpleNamespace(session=session), player)
    session.save()
    return client


def test_leaderboard_ties_share_a_rank_and_the_earlier_finish_comes_first(puzzle):
    finish(puzzle, "Dee", 500, at(8))
    finish(puzzle, "Cid", 700, at(9))
    finish(puzzle, "Ann", 900, at(10))
    finish(puzzle, "Bob", 700, at(11))

    board = leaderboard_page(puzzle=puzzle, page=1, now=NOON)

    assert board.entries == [
        Entry(rank=1, name="Ann", score=900, finished_at=at(10), attempt=None),
        Entry(rank=2, name="Cid", score=700, finished_at=at(9), attempt=None),
        Entry(rank=2, name="Bob", score=700, finished_at=at(11), attempt=None),
        Entry(rank=4, name="Dee", score=500, finished_at=at(8), attempt=None),
    ]


def test_leaderboard_ties_at_the_same_instant_are_listed_by_attempt(puzzle):
    first = finish(puzzle, "Ann", 700, at(9))
    second = finish(puzzle, "Bob", 700, at(9))

    board = leaderboard_page(puzzle=puzzle, page=1, now=CLOSE)

    assert [(e.rank, e.attempt) for e in board.entries] == [(1, first.pk), (1, second.pk)]


def test_leaderboard_percentile_is_the_share_of_other_players_strictly_below(puzzle):
    for name, score in [("Ann", 100), ("Bob", 200), ("Cid", 200), ("Dee", 300)]:
        finish(puzzle, name, score, at(9))

    standings = {
        name: player_standing(puzzle=puzzle, player=Player.objects.get(display_name=name))
        for name in ["Ann", "Bob", "Dee"]
    }

    assert {name: (s.rank, s.percentile) for name, s in standings.items()} == {
        "Ann": (4, 0.0),
        "Bob": (2, 33.3),
        "Dee": (1, 100.0),
    }


def test_leaderboard_percentile_is_rounded_down(puzzle):
    # 2 of the 3 others below: 66.67 % shows as 66.6, so 100 % is only ever beating everyone.
    for name, score in [("Ann", 100), ("Bob", 200), ("Cid", 300), ("Dee", 400)]:
        finish(puzzle, name, score, at(9))

    standing = player_standing(puzzle=puzzle, player=Player.objects.get(display_name="Cid"))

    assert standing.percentile == 66.6


def test_leaderboard_percentile_of_the_only_player_is_null(puzzle):
    attempt = finish(puzzle, "Ann", 650, at(9))

    standing = player_standing(puzzle=puzzle, player=attempt.player)

    assert standing == Standing(
        rank=1, name="Ann", score=650, finished_at=at(9), percentile=None, attempt=attempt.pk
    )


def test_a_standing_is_one_statement_and_agrees_with_counting_every_attempt(
    puzzle, django_assert_num_queries
):
    # Ranks and percentiles counted by hand from the scores (issue 15 item 3: one round trip).
    scores = [50, 300, 300, 0, 1250, 300, 900, 50, 4000, 650, 650, 300]
    attempts = [finish(puzzle, f"P{i:02}", s, at(9, i)) for i, s in enumerate(scores)]
    for attempt, score in zip(attempts, scores, strict=True):
        higher = sum(s > score for s in scores)
        lower = sum(s < score for s in scores)
        with django_assert_num_queries(1):
            standing = player_standing(puzzle=puzzle, player=attempt.player)
        assert (standing.rank, standing.percentile, standing.score, standing.attempt) == (
            1 + higher,
            int(1000 * lower / (len(scores) - 1)) / 10,
            score,
            attempt.pk,
        )


def test_a_held_game_has_no_standing(puzzle):
    attempt = finish(puzzle, "Ann", 650, at(9))
    Attempt.objects.filter(pk=attempt.pk).update(held=True)

    assert player_standing(puzzle=puzzle, player=attempt.player) is None


def test_leaderboard_caller_off_the_page_still_gets_their_rank(puzzle):
    finish(puzzle, "Ann", 900, at(9))
    finish(puzzle, "Bob", 800, at(9))
    mine = finish(puzzle, "Cid", 700, at(9))

    board = leaderboard_page(puzzle=puzzle, page=1, page_size=2, now=NOON, player=mine.player)

    assert ([e.name for e in board.entries], board.me) == (
        ["Ann", "Bob"],
        Standing(rank=3, name="Cid", score=700, finished_at=at(9), percentile=0.0, attempt=mine.pk),
    )


def test_leaderboard_distribution_has_buckets_of_500_from_zero_to_the_best(puzzle):
    for name, score in [("Ann", 0), ("Bob", 450), ("Cid", 500), ("Dee", 1200), ("Eve", 1200)]:
        finish(puzzle, name, score, at(9))

    board = leaderboard_page(puzzle=puzzle, page=1, now=NOON)

    assert board.distribution == Distribution(
        bucket_width=500,
        histogram=[
            Bucket(start=0, end=500, count=2),
            Bucket(start=500, end=1000, count=1),
            Bucket(start=1000, end=1500, count=2),
        ],
        scores=[
            ScoreTally(score=0, count=1),
            ScoreTally(score=450, count=1),
            ScoreTally(score=500, count=1),
            ScoreTally(score=1200, count=2),
        ],
        mean=670.0,
        median=500.0,
        best=1200,
    )


def test_leaderboard_distribution_median_of_an_even_count_is_the_middle_pair_average(puzzle):
    for name, score in [("Ann", 100), ("Bob", 200), ("Cid", 350), ("Dee", 5000)]:
        finish(puzzle, name, score, at(9))

    distribution = leaderboard_page(puzzle=puzzle, page=1, now=NOON).distribution

    assert (distribution.mean, distribution.median, distribution.best) == (1412.5, 275.0, 5000)


def test_leaderboard_without_players_is_empty(puzzle):
    board = leaderboard_page(puzzle=puzzle, page=1, now=NOON)

    assert (board.pages, board.ranked, board.entries, board.me, board.distribution) == (
        0,
        0,
        [],
        None,
        Distribution(500, histogram=[], scores=[], mean=None, median=None, best=None),
    )


def test_leaderboard_pages_cover_every_entry_once_in_order_whatever_the_page_size(puzzle):
    # Long runs of equal scores: pages start in the middle of a score, where the counts send
    # the query.
    scores = [500, 500, 500, 300, 300, 300, 300, 100]
    for i, score in reversed(list(enumerate(scores))):
        finish(puzzle, f"Player {i}", score, at(9, 59 - i))
    expected = [
        (e.name, e.rank)
        for e in leaderboard_page(puzzle=puzzle, page=1, page_size=50, now=NOON).entries
    ]

    for size in range(1, 9):
        pages = -(-len(scores) // size)
        seen = []
        for page in range(1, pages + 2):
            board = leaderboard_page(puzzle=puzzle, page=page, page_size=size, now=NOON)
            assert board.pages == pages
            seen += [(e.name, e.rank) for e in board.entries]
        assert seen == expected, size
    assert [rank for _, rank in expected] == [1, 1, 1, 4, 4, 4, 4, 8]
    assert expected[:3] == [("Player 2", 1), ("Player 1", 1), ("Player 0", 1)]


def test_leaderboard_practice_attempts_are_never_ranked(puzzle):
    official = finish(puzzle, "Ann", 300, at(9))
    finish(puzzle, "Ann", 5000, at(10), official=False)
    finish(puzzle, "Bob", 9000, at(11), official=False)

    board = leaderboard_page(puzzle=puzzle, page=1, now=NOON, player=official.player)

    assert (board.ranked, [e.name for e in board.entries], board.me.score) == (1, ["Ann"], 300)
    bob = Player.objects.get(display_name="Bob")
    assert player_standing(puzzle=puzzle, player=bob) is None


def test_leaderboard_unfinished_attempts_are_not_ranked(puzzle):
    finish(puzzle, "Ann", 300, at(9))
    bob = Player.objects.create(display_name="Bob", created_at=at(9))
    Attempt.objects.create(
        player=bob, puzzle=puzzle, official=True, score=800, started_at=at(9), updated_at=at(9)
    )

    board = leaderboard_page(puzzle=puzzle, page=1, now=NOON, player=bob)

    assert (board.ranked, [e.name for e in board.entries], board.me) == (1, ["Ann"], None)


def test_leaderboard_works_on_a_challenge_puzzle(db):
    challenge = Puzzle.objects.create(
        kind=Puzzle.Kind.CHALLENGE,
        code="K7M2QX",
        commitment="0" * 64,
        opens_at=at(0),
        ends_at=at(12),
        closes_at=at(12),
    )
    attempt = finish(challenge, "Ann", 1500, at(9))

    board = leaderboard_page(puzzle=challenge, page=1, now=at(13))

    assert board.entries == [
        Entry(rank=1, name="Ann", score=1500, finished_at=at(9), attempt=attempt.pk)
    ]


@given(st.lists(st.integers(min_value=0, max_value=40).map(lambda n: n * 50), max_size=60))
def test_score_counts_agree_with_counting_every_attempt(scores):
    counts = ScoreLadder.of([(s, scores.count(s)) for s in set(scores)])

    for score in {*scores, 0, 725, 2000}:
        higher = sum(s > score for s in scores)
        lower = sum(s < score for s in scores)
        assert (counts.total, counts.higher(score), counts.lower(score), counts.rank(score)) == (
            len(scores),
            higher,
            lower,
            1 + higher,
        )
    ranked = sorted(scores, reverse=True)
    for position, score in enumerate(ranked):
        assert counts.start_of(position) == (score, position - ranked.index(score))


# Through the API.


def test_leaderboard_api_shows_the_page_the_caller_and_the_distribution(client, puzzle):
    mine = finish(puzzle, "Cid", 5900, at(8))
    finish(puzzle, "Ann", 6500, at(9))
    finish(puzzle, "Bob", 5900, at(10))
    as_player(client, mine.player)
    optimal = play(puzzle.seed(), "hard", puzzle.table).score

    response = client.get(URL)

    assert (response.status_code, response.json()) == (
        200,
        {
            "kind": "daily",
            "date": DAY,
            "status": "open",
            "final": False,
            # The caller has finished their official game: they see everything.
            "revealed": True,
            "accounts": False,
            "page": 1,
            "page_size": 50,
            "pages": 1,
            "players": 3,
            "entries": [
                {
                    "rank": 1,
                    "name": "Ann",
                    "score": 6500,
                    "finished_at": "2026-11-29T09:00:00Z",
                    "attempt": None,
                    "mine": False,
                },
                {
                    "rank": 2,
                    "name": "Cid",
                    "score": 5900,
                    "finished_at": "2026-11-29T08:00:00Z",
                    "attempt": None,
                    "mine": True,
                },
                {
                    "rank": 2,
                    "name": "Bob",
                    "score": 5900,
                    "finished_at": "2026-11-29T10:00:00Z",
                    "attempt": None,
                    "mine": False,
                },
            ],
            "me": {
                "rank": 2,
                "name": "Cid",
                "score": 5900,
                "finished_at": "2026-11-29T08:00:00Z",
                "percentile": 0.0,
                "attempt": mine.pk,
            },
            "distribution": {
                "bucket_width": 500,
                "histogram": [
                    {"start": 500 * i, "end": 500 * (i + 1), "count": {11: 2, 13: 1}.get(i, 0)}
                    for i in range(14)
                ],
                "scores": [{"score": 5900, "count": 2}, {"score": 6500, "count": 1}],
                "mean": 6100.0,
                "median": 5900.0,
                "best": 6500,
            },
            # Issue 12: the caller has finished, so the optimal player's row shows, unranked.
            "reference": {"label": "optimal", "score": optimal},
        },
    )


def test_leaderboard_api_hides_attempt_ids_until_the_day_closes(client, puzzle, clock):
    attempt = finish(puzzle, "Ann", 6500, at(9))
    # A caller who has finished too, so that the entries show before the close.
    as_player(client, finish(puzzle, "Bob", 700, at(10)).player)

    seen = {}
    for instant in [NOON, CLOSE - datetime.timedelta(microseconds=1), CLOSE]:
        clock.move_to(instant)
        body = client.get(URL).json()
        seen[instant] = (body["status"], body["final"], body["entries"][0]["attempt"])

    assert list(seen.values()) == [
        ("open", False, None),
        ("grace", False, None),
        ("closed", False, attempt.pk),
    ]


def test_leaderboard_api_is_final_once_the_closed_day_is_finalised(client, puzzle, clock):
    finish(puzzle, "Ann", 6500, at(9))
    clock.move_to(CLOSE)
    Puzzle.objects.filter(pk=puzzle.pk).update(closed_at=CLOSE)

    body = client.get(URL).json()

    assert (body["status"], body["final"]) == ("closed", True)


def test_leaderboard_api_page_past_the_end_is_empty(client, puzzle):
    as_player(client, finish(puzzle, "Ann", 6500, at(9)).player)

    body = client.get(URL, {"page": 2}).json()

    assert (body["page"], body["pages"], body["players"], body["entries"]) == (2, 1, 1, [])


@pytest.mark.parametrize("page", ["0", "-1", "two", "1.5", "9" * 2000])
def test_leaderboard_api_bad_page_is_400(client, puzzle, page):
    response = client.get(URL, {"page": page})

    assert (response.status_code, response.json()["code"]) == (400, "invalid")


def test_leaderboard_api_bad_or_future_date_is_refused(client, puzzle):
    bad = client.get("/api/daily/2026-13-01/leaderboard")
    future = client.get("/api/daily/2026-12-01/leaderboard")

    assert [(r.status_code, r.json()["code"]) for r in (bad, future)] == [
        (400, "invalid_date"),
        (404, "not_found"),
    ]


@pytest.mark.parametrize("rows", [1, 3])
def test_leaderboard_api_queries_do_not_grow_with_the_entries(
    client, puzzle, django_assert_num_queries, rows
):
    attempts = [finish(puzzle, f"Player {i}", 500 * i, at(9)) for i in range(rows)]
    as_player(client, attempts[0].player)

    # The session, the puzzle, the caller's player, the score counts with the caller's own
    # attempt (one statement), the page.
    # The session is read from the shared cache (cached_db), not from the database.
    with django_assert_num_queries(4):
        response = client.get(URL)

    assert (len(response.json()["entries"]), response.json()["me"]["rank"]) == (rows, rows)


def test_leaderboard_of_real_games_played_through_the_api(clock, db):
    players = [Client() for _ in range(3)]
    games = []
    for client, bank_at in zip(players, [200, 350, 1000], strict=True):
        clock.shift(datetime.timedelta(minutes=7))
        games.append(play_greedy(client, start_daily(client, DAY), bank_at=bank_at))
    practice = play_greedy(players[0], start_daily(players[0], DAY), bank_at=2000)
    names = [Player.objects.get(attempts__id=game["id"]).display_name for game in games]

    bodies = [client.get(URL).json() for client in players]

    ranked = sorted(
        zip(games, names, strict=True), key=lambda g: (-g[0]["score"], g[0]["finished_at"])
    )
    assert bodies[0]["entries"] == [
        {
            "rank": 1 + sum(other["score"] > game["score"] for other in games),
            "name": name,
            "score": game["score"],
            "finished_at": game["finished_at"],
            "attempt": None,
            "mine": game is games[0],
        }
        for game, name in ranked
    ]
    assert [b["me"]["attempt"] for b in bodies] == [game["id"] for game in games]
    assert [b["me"]["rank"] for b in bodies] == [
        1 + sum(other["score"] > game["score"] for other in games) for game in games
    ]
    assert (bodies[0]["players"], practice["official"]) == (3, False)
    assert bodies[0]["distribution"]["scores"] == [
        {"score": s, "count": [g["score"] for g in games].count(s)}
        for s in sorted({g["score"] for g in games})
    ]


def test_leaderboard_filtered_to_account_holders(client, clock, db):
    players = [Client() for _ in range(3)]
    games = [
        play_greedy(p, start_daily(p, DAY), bank_at=b)
        for p, b in zip(players, (250, 400, 900), strict=True)
    ]
    for i in (0, 2):
        signed = post(
            players[i],
            "/api/auth/signup",
            {"username": f"user{i}", "password": "a long pass phrase 7"},
        )
        assert signed.status_code == 201
    everyone = players[1].get(URL).json()
    accounts = players[0].get(URL + "?accounts=true").json()
    guest_view = players[1].get(URL + "?accounts=true").json()
    assert (everyone["players"], accounts["players"], accounts["accounts"]) == (3, 2, True)
    expected = sorted((games[0]["score"], games[2]["score"]), reverse=True)
    assert [e["score"] for e in accounts["entries"]] == expected
    assert accounts["me"]["score"] == games[0]["score"]
    assert guest_view["me"] is None


def brute_ranks(games: list[dict]) -> dict[int, tuple[int, float | None]]:
    """Every ranked game's rank and percentile counted over all the games of its puzzle
    (docs/play.md): 1 + those ranked ahead (strictly higher, or on a timed puzzle the same score
    with less time taken, then the earlier finish, then the lower id); the share of the others
    strictly lower, rounded down to a tenth."""
    ranked = [g for g in games if g["official"] and g["finished"] and not g["held"]]
    out = {}
    for g in ranked:
        rivals = [o for o in ranked if o["puzzle"] == g["puzzle"]]

        def ahead(o, g=g):
            if o["score"] != g["score"]:
                return o["score"] > g["score"]
            key = ("time", "finished_at", "id")
            return g["timed"] and tuple(o[k] for k in key) < tuple(g[k] for k in key)

        others = len(rivals) - 1
        lower = sum(o["score"] < g["score"] for o in rivals)
        out[g["id"]] = (
            1 + sum(ahead(o) for o in rivals),
            None if others == 0 else int(1000 * lower / others) / 10,
        )
    return out


def test_attempt_ranks_of_many_puzzles_in_one_query_agree_with_counting_every_game(
    puzzle, django_assert_num_queries
):
    import random

    from challenges.services import challenge_create
    from play.services.players import player_create

    rng = random.Random(15)
    timed = challenge_create(creator=player_create(now=NOON), turn_seconds=30, now=NOON).puzzle
    other_day = daily_get_or_create(day=datetime.date(2026, 11, 28), now=NOON)
    lone_day = daily_get_or_create(day=datetime.date(2026, 11, 27), now=NOON)
    games = []
    # Ties (1, 2, 2, 4 among others), practice, unfinished and held games on three puzzles, a
    # timed one whose equal scores are told apart by time, and a day with one player.
    plan = [(puzzle, s) for s in [900, 500, 500, 100, 500, 0, 2500, 100, 900, 50]]
    plan += [(other_day, s) for s in [300, 300, 300, 1200]]
    plan += [(timed, s) for s in [700, 700, 700, 200, 700]]
    plan += [(lone_day, 650)]
    for n, (where, score) in enumerate(plan):
        official = rng.random() > 0.1
        finished = rng.random() > 0.1
        held = official and finished and rng.random() < 0.1
        finished_at = at(9, n)
        attempt = Attempt.objects.create(
            player=player_create(now=NOON),
            puzzle=where,
            official=official,
            state=Attempt.State.FINISHED if finished else Attempt.State.AWAITING_ROLL,
            score=score,
            started_at=finished_at - datetime.timedelta(minutes=5),
            updated_at=finished_at,
            finished_at=finished_at if finished else None,
            time_taken=datetime.timedelta(seconds=rng.choice([40, 50, 50, 60])),
            held=held,
        )
        if official and finished and not held:
            score_count_add(puzzle=where, score=score)
        games.append(
            {
                "id": attempt.pk,
                "puzzle": where.pk,
                "timed": where.turn_seconds is not None,
                "score": score,
                "official": official,
                "finished": finished,
                "held": held,
                "time": attempt.time_taken,
                "finished_at": finished_at,
            }
        )
    expected = brute_ranks(games)
    assert 0 < len(expected) < len(games)

    with django_assert_num_queries(1):
        ranks = attempt_ranks(g["id"] for g in games)

    assert ranks == expected
    # The standing each leaderboard gives its player agrees.
    for g in games:
        if g["id"] in expected:
            attempt = Attempt.objects.select_related("player", "puzzle").get(pk=g["id"])
            standing = player_standing(puzzle=attempt.puzzle, player=attempt.player)
            assert (standing.rank, standing.percentile) == expected[g["id"]]


def test_attempt_ranks_of_nothing_asks_nothing(db, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert attempt_ranks([]) == {}


def test_leaderboard_api_payload_is_what_its_serializer_makes_of_the_board(client, puzzle, clock):
    # The view builds the payload itself (issue 15 item 3); DRF's serializer, which documents
    # it, must make the same of the selector's objects. Microseconds, a rounded percentile, the
    # attempt ids and the reference after the close.
    for i, score in enumerate([6500, 5900, 5900, 300, 0, 12050, 50]):
        finish(puzzle, f"Player {i}", score, at(9, i) + datetime.timedelta(microseconds=12_347 * i))
    mine = Attempt.objects.get(player__display_name="Player 3")
    as_player(client, mine.player)
    clock.move_to(CLOSE)

    data = client.get(URL).json()

    board = leaderboard_page(puzzle=puzzle, page=1, now=CLOSE, player=mine.player)
    objects = {**data, "entries": board.entries, "me": board.me, "distribution": board.distribution}
    assert data == json.loads(JSONRenderer().render(LeaderboardSerializer(objects).data))
    # 300 beats 0 and 50, two of the six others.
    assert data["me"]["percentile"] == 33.3 and data["reference"] is not None


def test_leaderboard_api_shows_a_finish_on_the_next_read(client, puzzle):
    as_player(client, finish(puzzle, "Ann", 6500, at(9)).player)
    first = client.get(URL).json()
    finish(puzzle, "Bob", 700, at(10))

    second = client.get(URL).json()

    assert (first["players"], second["players"]) == (1, 2)
    assert [s["score"] for s in second["distribution"]["scores"]] == [700, 6500]
    assert second["distribution"]["mean"] == 3600.0


def test_every_page_of_every_size_is_the_brute_force_order(puzzle):
    # Pages start anywhere in a long run of equal scores (issue 15 item 3): at a place within the
    # score, where equal finishes are told apart by the attempt's id; an operator's hold in the
    # middle of a score closes the places over the held game.
    import random

    from play.services.foresight import attempt_hold

    rng = random.Random(7)
    plan = [
        (rng.choice([900, 500, 500, 500, 300, 300, 100]), rng.choice([0, 1, 1, 2]))
        for _ in range(24)
    ]
    games = []
    # Finishes are counted as they happen: in the order of their times.
    for i, (score, minute) in sorted(enumerate(plan), key=lambda p: (p[1][1], p[0])):
        attempt = finish(puzzle, f"Player {i}", score, at(9, minute))
        games.append((score, attempt.finished_at, attempt.pk, attempt.player.display_name))
    fives = sorted(g for g in games if g[0] == 500)
    held = fives[len(fives) // 2]
    assert attempt_hold(attempt_id=held[2])
    games.remove(held)
    ordered = sorted(games, key=lambda g: (-g[0], g[1], g[2]))
    expected = [(g[3], 1 + sum(o[0] > g[0] for o in games)) for g in ordered]

    for size in range(1, len(games) + 1):
        pages = every_page(puzzle, size=size, ranked=len(games), now=NOON)
        assert [(e.name, e.rank) for e in pages] == expected, size
