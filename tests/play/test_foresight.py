"""The foresight check through the API on real Postgres: the issue's attack is held off the
leaderboard, honest games are not, and an operator's release puts a game back once."""

import datetime

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

import farkle
from daily.services.rollover import reconcile
from play.models import Attempt, Puzzle, ScoreCount
from play.selectors.leaderboards import attempt_ranks
from tests.daily.helpers import act, play_greedy, start_daily

UTC = datetime.UTC
DAY = "2026-11-29"
CLOSE = datetime.datetime(2026, 11, 30, 0, 1, 30, tzinfo=UTC)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _first_day(settings):
    settings.FARKLE_FIRST_DAY = datetime.date(2026, 11, 27)


def peek(day: str, attempt: dict, dice_left: int) -> bool:
    """What the cheater's second browser shows: the throw after this one is a Farkle.

    Computed from the puzzle's seed as an oracle; a second browser replaying the same moves on
    the same dice one step ahead sees exactly this throw.
    """
    seed = farkle.daily_seed(settings.FARKLE_SEED_SECRET.encode(), datetime.date.fromisoformat(day))
    throw = farkle.roll_vector(seed, attempt["turn"], attempt["roll"] + 1)[:dice_left]
    return farkle.is_farkle(throw)


def play(client: Client, attempt: dict, choose) -> dict:
    """Play to the end: ``choose(attempt)`` gives (positions, then) for each throw."""
    while attempt["state"] != "finished":
        if attempt["state"] == "awaiting_roll":
            response = act(client, attempt, {"action": "roll"})
        else:
            positions, then = choose(attempt)
            response = act(client, attempt, {"action": "keep", "dice": positions, "then": then})
        assert response.status_code == 200, response.json()
        attempt = response.json()
    return attempt


def solver_choice(attempt: dict) -> tuple[list[int], str]:
    best = farkle.solve(farkle.DEFAULT_TABLE).best(attempt["turn_points"], attempt["dice"])
    return list(best.positions), best.then


def dice_left(attempt: dict, positions: list[int]) -> int:
    left = attempt["in_hand"] - len(positions)
    return left or 6


def cheat(day: str):
    """The issue's attack: the solver's keep, then bank exactly when the peek shows a Farkle."""

    def choose(attempt: dict) -> tuple[list[int], str]:
        positions, _ = solver_choice(attempt)
        return positions, "bank" if peek(day, attempt, dice_left(attempt, positions)) else "roll"

    return choose


def by_dice_left(attempt: dict) -> tuple[list[int], str]:
    option = max(attempt["keep_options"], key=lambda o: (o["score"], -len(o["dice"])))
    limits = {6: 3000, 5: 2000, 4: 1000, 3: 500, 2: 300, 1: 200}
    held = attempt["turn_points"] + option["score"]
    return option["dice"], "bank" if held >= limits[option["dice_left"]] else "roll"


def board(client: Client, day: str = DAY) -> dict:
    response = client.get(f"/api/daily/{day}/leaderboard")
    assert response.status_code == 200
    return response.json()


def operator() -> Client:
    user = get_user_model().objects.create_superuser("operator", password="pw-operator-123456")
    client = Client()
    client.force_login(user)
    return client


def admin_action(client: Client, action: str, attempt_id: int) -> None:
    response = client.post(
        "/admin/play/attempt/", {"action": action, "_selected_action": [str(attempt_id)]}
    )
    assert response.status_code == 302


def test_the_issues_attack_is_held_and_an_operator_releases_it_once(clock):
    honest = {name: Client() for name in ("solver", "greedy", "cautious")}
    scores = {
        "solver": play(honest["solver"], start_daily(honest["solver"], DAY), solver_choice)[
            "score"
        ],
        "greedy": play_greedy(honest["greedy"], start_daily(honest["greedy"], DAY))["score"],
        "cautious": play(honest["cautious"], start_daily(honest["cautious"], DAY), by_dice_left)[
            "score"
        ],
    }
    cheater = Client()
    game = play(cheater, start_daily(cheater, DAY), cheat(DAY))
    par = cheater.get(f"/api/daily/{DAY}").json()["par"]
    # As in the issue: far above par, no Farkle in ten turns, above every honest player.
    assert game["score"] > par + 2000
    assert not any(turn["farkle"] for turn in game["turns"])
    assert game["score"] > max(scores.values())

    # Its player sees the score with a plain note, and no rank.
    assert game["held"] is True and game["held_note"]
    mine = cheater.get(f"/api/attempts/{game['id']}").json()
    assert (mine["score"], mine["held"]) == (game["score"], True)
    assert "foresight" not in str(mine.keys()) and "p" not in mine
    seen = board(cheater)
    assert seen["me"] is None
    # The public leaderboard knows only the three honest games.
    assert seen["players"] == 3
    assert sorted(e["score"] for e in seen["entries"]) == sorted(scores.values())
    assert seen["distribution"]["best"] == max(scores.values())
    attempt = Attempt.objects.get(pk=game["id"])
    assert attempt.foresight_p < 1e-5
    assert attempt.foresight["roll_farkles"] == 0
    assert attempt.foresight["banks"] == attempt.foresight["bank_farkles"] == 10

    # The honest games are not held.
    assert not Attempt.objects.filter(held=True).exclude(pk=game["id"]).exists()

    # The operator sees it among the held games and releases it, twice by mistake.
    staff = operator()
    listing = staff.get("/admin/play/attempt/?held__exact=1")
    assert listing.status_code == 200
    assert f"/admin/play/attempt/{game['id']}/change/" in listing.content.decode()
    detail = staff.get(f"/admin/play/attempt/{game['id']}/change/")
    assert detail.status_code == 200 and "hidden throw" in detail.content.decode()
    admin_action(staff, "release", game["id"])
    admin_action(staff, "release", game["id"])

    seen = board(cheater)
    assert seen["players"] == 4
    assert seen["me"]["rank"] == 1 and seen["me"]["score"] == game["score"]
    assert seen["entries"][0]["score"] == game["score"]
    assert sum(row.count for row in ScoreCount.objects.filter(puzzle__day=DAY)) == 4
    attempt.refresh_from_db()
    assert (attempt.held, attempt.released_by.username) == (False, "operator")
    assert cheater.get(f"/api/attempts/{game['id']}").json()["held_note"] is None

    # Held back, twice: off again, counted once less.
    admin_action(staff, "hold", game["id"])
    admin_action(staff, "hold", game["id"])
    seen = board(cheater)
    assert seen["players"] == 3 and seen["me"] is None


@pytest.mark.parametrize("day", ["2026-11-27", "2026-11-28", "2026-11-29"])
def test_honest_games_through_the_api_are_not_held(clock, day):
    clock.move_to(datetime.datetime.fromisoformat(day).replace(hour=12, tzinfo=UTC))
    games = []
    for choose in (solver_choice, by_dice_left, None):
        client = Client()
        attempt = start_daily(client, day)
        games.append(
            play_greedy(client, attempt) if choose is None else play(client, attempt, choose)
        )
    for game in games:
        assert game["held"] is False and game["held_note"] is None
        assert Attempt.objects.get(pk=game["id"]).foresight_p >= 1e-5
    assert board(Client(), day)["players"] == 3


def test_a_cheat_finalised_by_the_close_is_held_and_unranked_then_released_with_a_rank(clock):
    honest = Client()
    honest_game = play_greedy(honest, start_daily(honest, DAY))
    honest_score = honest_game["score"]
    # The cheater peeks through nine turns and leaves the tenth unplayed: the close ends it.
    cheater = Client()
    attempt = start_daily(cheater, DAY)
    choose = cheat(DAY)
    while attempt["turn"] < 10:
        if attempt["state"] == "awaiting_roll":
            response = act(cheater, attempt, {"action": "roll"})
        else:
            positions, then = choose(attempt)
            response = act(cheater, attempt, {"action": "keep", "dice": positions, "then": then})
        attempt = response.json()
    assert attempt["state"] == "awaiting_roll"
    banked = attempt["score"]
    assert banked > honest_score

    clock.move_to(CLOSE)
    reconcile(now=CLOSE)
    held = Attempt.objects.get(pk=attempt["id"])
    assert held.finalised_at_close and held.held and held.foresight_p < 1e-5
    ids = [held.pk, honest_game["id"]]
    assert attempt_ranks(ids) == {honest_game["id"]: (1, None)}
    puzzle = Puzzle.objects.get(day=DAY)
    assert puzzle.final_stats["players"] == 1

    admin_action(operator(), "release", held.pk)
    held.refresh_from_db()
    puzzle.refresh_from_db()
    # Released after the close: the statistics are frozen again with it, and both ranks move.
    assert attempt_ranks(ids) == {held.pk: (1, 100.0), honest_game["id"]: (2, 0.0)}
    assert puzzle.final_stats["players"] == 2 and puzzle.final_stats["best"] == banked
    # Held back after the close: the other game takes the first place alone, nobody to beat.
    operator_client = Client()
    operator_client.force_login(get_user_model().objects.get(username="operator"))
    admin_action(operator_client, "hold", held.pk)
    puzzle.refresh_from_db()
    assert attempt_ranks(ids) == {honest_game["id"]: (1, None)}
    assert puzzle.final_stats["players"] == 1 and puzzle.final_stats["best"] == honest_score
    # The operator's page shows the derived rank of the one it displays.
    page = operator_client.get(f"/admin/play/attempt/{honest_game['id']}/change/")
    assert page.status_code == 200 and "<label>Rank:</label>" in page.content.decode()
