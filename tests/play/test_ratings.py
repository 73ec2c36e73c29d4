"""The skill rating over HTTP and through the close (issue 40 item 5): a day is rated at its
close and never before, on each game's decisions alone (not the dice's luck, not anyone else's
game), one row per player and rated day, and the days closed before ratings existed are rated by
``manage.py rate_days``."""

import datetime

import pytest
from django.core.management import call_command
from django.test import Client

import farkle
from daily.services.rollover import puzzle_close, reconcile
from farkle.bots import HARD, POLICIES
from farkle.game import AWAITING_ROLL, Roll
from farkle.glicko2 import DEFAULT_DEVIATION, DEFAULT_RATING
from play.models import Attempt, Puzzle, Rating
from tests.daily.helpers import act, play_greedy, start_daily
from tests.helpers import assert_documented

UTC = datetime.UTC

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _first_day(settings):
    settings.FARKLE_FIRST_DAY = datetime.date(2026, 11, 29)


def noon(day: int) -> datetime.datetime:
    return (
        datetime.datetime(2026, 11, day, 12, tzinfo=UTC)
        if day <= 30
        else datetime.datetime(2026, 12, day - 30, 12, tzinfo=UTC)
    )


def after_close(day: int) -> datetime.datetime:
    """Past the close of the daily of November ``day`` (00:00 UTC the next day, plus grace)."""
    return noon(day) + datetime.timedelta(hours=12, minutes=2)


def puzzle_of(day: str) -> Puzzle:
    return Puzzle.objects.get(kind="daily", day=day)


def play_optimally(client: Client, attempt: dict, *, turns: int = 10) -> dict:
    """The optimal player's choices on the attempt's own dice (the puzzle's seed), through the API,
    for its first ``turns`` turns; the rest is left to the close."""
    puzzle = Attempt.objects.get(pk=attempt["id"]).puzzle
    game = farkle.Game.new(puzzle.seed(), puzzle.table)
    while game.turn <= turns and not game.finished:
        action = Roll() if game.state == AWAITING_ROLL else POLICIES[HARD](game)
        game = game.apply(action)
        response = act(client, attempt, action.to_dict())
        assert response.status_code == 200, response.json()
        attempt = response.json()
    return attempt


def me(client: Client) -> dict:
    response = client.get("/api/me")
    assert response.status_code == 200
    assert_documented(response, "/api/me", "GET")
    return response.json()


def test_a_day_is_rated_at_its_close_and_never_before(client, clock):
    other = Client()
    play_greedy(client, start_daily(client, "2026-11-29"))
    play_optimally(other, start_daily(other, "2026-11-29"))
    # Finished, and the other player too: nothing of the day shows in the rating while it is open.
    assert me(client)["rating"] == {"current": None, "days": 0, "history": []}
    clock.move_to(noon(29) + datetime.timedelta(hours=11, minutes=59))
    reconcile(now=noon(29) + datetime.timedelta(hours=11, minutes=59))
    assert me(client)["rating"]["current"] is None
    assert not Rating.objects.exists()
    # During the grace, after the day's end: still not closed, still not rated.
    grace = datetime.datetime(2026, 11, 30, 0, 1, tzinfo=UTC)
    clock.move_to(grace)
    assert reconcile(now=grace).rated == []
    assert me(client)["rating"]["current"] is None
    clock.move_to(after_close(29))
    report = reconcile(now=after_close(29))
    assert report.rated == ["daily 2026-11-29: 2 rated"]
    rating = me(client)["rating"]
    assert rating["days"] == 1
    assert [day["date"] for day in rating["history"]] == ["2026-11-29"]
    current = rating["current"]
    # One day from the newcomer's rating: the deviation shrinks from 350, the range is ±2 RD.
    assert current["deviation"] < DEFAULT_DEVIATION
    assert current["low"] == pytest.approx(current["rating"] - 2 * current["deviation"], abs=0.2)
    assert current["high"] == pytest.approx(current["rating"] + 2 * current["deviation"], abs=0.2)
    attempt = Attempt.objects.get(player__display_name=client_name(client), official=True)
    assert current["accuracy"] == pytest.approx(farkle.analyse(attempt.game()).accuracy, abs=0.05)
    # A second run rates nothing again.
    assert reconcile(now=after_close(29)).rated == []
    assert Rating.objects.count() == 2


def client_name(client: Client) -> str:
    return client.get("/api/me").json()["name"]


def test_better_decisions_the_same_day_raise_the_rating_more(client, clock):
    greedy, optimal, idle = client, Client(), Client()
    play_greedy(greedy, start_daily(greedy, "2026-11-29"))
    play_optimally(optimal, start_daily(optimal, "2026-11-29"))
    # Started, never played: the close ends it with all ten turns undone.
    start_daily(idle, "2026-11-29")
    clock.move_to(after_close(29))
    reconcile(now=after_close(29))
    ratings = {
        name: me(c)["rating"]["current"]
        for name, c in (("greedy", greedy), ("optimal", optimal), ("idle", idle))
    }
    assert ratings["optimal"]["accuracy"] == 100.0
    assert ratings["idle"]["accuracy"] == 0.0
    assert ratings["idle"]["rating"] < ratings["greedy"]["rating"] < ratings["optimal"]["rating"]
    # A newcomer starts at 1500: a perfect game raises it, a game never played lowers it.
    assert ratings["idle"]["rating"] < DEFAULT_RATING < ratings["optimal"]["rating"]


def test_the_same_decisions_on_luckier_dice_move_the_rating_the_same(client, clock):
    # Two newcomers, each on another day's dice: five turns played perfectly, five left to the
    # close. The same decision quality; the dice of one day are far luckier than the other's.
    first, second = client, Client()
    a = play_optimally(first, start_daily(first, "2026-11-29"), turns=5)
    clock.move_to(noon(30))
    b = play_optimally(second, start_daily(second, "2026-11-30"), turns=5)
    clock.move_to(after_close(30))
    reconcile(now=after_close(30))
    games = [Attempt.objects.get(pk=x["id"]) for x in (a, b)]
    found = [farkle.analyse(game.game()) for game in games]
    # 300 points of luck apart (2,250 and 2,550 banked) with the suite's secret.
    assert abs(found[0].luck - found[1].luck) > 100
    assert abs(games[0].score - games[1].score) == pytest.approx(abs(found[0].luck - found[1].luck))
    one, two = me(first)["rating"]["current"], me(second)["rating"]["current"]
    assert one["accuracy"] == two["accuracy"] == 50.0
    assert (one["rating"], one["deviation"]) == (two["rating"], two["deviation"])


def test_another_players_game_leaves_my_rating_as_it_is(client, clock):
    # Rated against a fixed panel, never against the day's field: what others played that day
    # changes nothing of mine, so my rating tells nothing of their scores.
    play_greedy(client, start_daily(client, "2026-11-29"))
    clock.move_to(noon(30))
    play_greedy(client, start_daily(client, "2026-11-30"))
    for _ in range(2):
        rival = Client()
        play_optimally(rival, start_daily(rival, "2026-11-30"))
    clock.move_to(after_close(30))
    reconcile(now=after_close(30))
    mine = Rating.objects.filter(player__display_name=client_name(client)).order_by("day")
    assert [r.day.isoformat() for r in mine] == ["2026-11-29", "2026-11-30"]
    # What the rating would be alone on those days, from the two accuracies only.
    alone = farkle.rating.rate_day(None, mine[0].accuracy)
    alone = farkle.rating.rate_day(alone, mine[1].accuracy)
    assert mine[1].rating == pytest.approx(alone.rating, abs=1e-9)


def test_a_day_without_a_game_widens_the_deviation_before_the_next(client, clock):
    play_greedy(client, start_daily(client, "2026-11-29"))
    clock.move_to(noon(31))  # December 1st: November 30th goes by unplayed.
    play_greedy(client, start_daily(client, "2026-12-01"))
    clock.move_to(after_close(31))
    reconcile(now=after_close(31))
    first, last = Rating.objects.order_by("day")
    expected = farkle.rating.rate_day(
        farkle.glicko2.Rating(first.rating, first.deviation, first.volatility),
        last.accuracy,
        idle_days=1,
    )
    assert (last.rating, last.deviation) == pytest.approx((expected.rating, expected.deviation))
    history = me(client)["rating"]["history"]
    assert [day["date"] for day in history] == ["2026-12-01", "2026-11-29"]


def test_a_held_game_is_not_rated(client, clock):
    play_greedy(client, start_daily(client, "2026-11-29"))
    Attempt.objects.update(held=True)
    clock.move_to(after_close(29))
    assert reconcile(now=after_close(29)).rated == ["daily 2026-11-29: 0 rated"]
    assert me(client)["rating"]["current"] is None


def test_rate_days_backfills_the_days_closed_before_ratings(client, clock, capsys):
    # Two days closed as they were before the rating existed: by the close alone.
    play_greedy(client, start_daily(client, "2026-11-29"))
    clock.move_to(noon(30))
    play_optimally(client, start_daily(client, "2026-11-30"))
    clock.move_to(after_close(30))
    for day in ("2026-11-29", "2026-11-30"):
        assert puzzle_close(puzzle_id=puzzle_of(day).pk, now=after_close(30)) is not None
    assert me(client)["rating"]["current"] is None
    call_command("rate_days")
    out = capsys.readouterr().out
    assert out.splitlines() == [
        "rated daily 2026-11-29: 1 rated",
        "rated daily 2026-11-30: 1 rated",
    ]
    first, second = Rating.objects.order_by("day")
    # In day order: the second day starts from the first's rating.
    expected = farkle.rating.rate_day(
        farkle.glicko2.Rating(first.rating, first.deviation, first.volatility), second.accuracy
    )
    assert second.rating == pytest.approx(expected.rating)
    assert me(client)["rating"]["days"] == 2
    call_command("rate_days")
    assert "Nothing to do" in capsys.readouterr().out
    assert Rating.objects.count() == 2


def test_a_challenge_is_never_rated(client, clock):
    # Only the dailies: a friend challenge's own rules and field are not the day's.
    response = client.post("/api/challenges", {}, content_type="application/json")
    assert response.status_code == 201, response.json()
    code = response.json()["code"]
    attempt = client.post(f"/api/challenges/{code}/attempts").json()
    play_greedy(client, attempt)
    challenge = Puzzle.objects.get(kind="challenge")
    clock.move_to(challenge.closes_at + datetime.timedelta(minutes=1))
    reconcile(now=challenge.closes_at + datetime.timedelta(minutes=1))
    assert Puzzle.objects.get(pk=challenge.pk).closed_at is not None
    assert not Rating.objects.filter(puzzle=challenge).exists()
