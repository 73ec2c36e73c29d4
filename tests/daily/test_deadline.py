import datetime

import pytest
from django.conf import settings
from django.test import Client

import farkle
from play.models import Attempt
from tests.helpers import stored

from .helpers import act, post, start_daily

UTC = datetime.UTC
DAY = "2026-11-29"

pytestmark = pytest.mark.django_db


def at(hour: int, minute: int, second: int = 0, micro: int = 0, day: int = 29):
    return datetime.datetime(2026, 11, day, hour, minute, second, micro, tzinfo=UTC)


@pytest.mark.parametrize(
    ("instant", "accepted"),
    [
        (at(23, 59, 59), True),
        (at(0, 0, 0, day=30), True),
        (at(0, 1, 29, 999_999, day=30), True),
        (at(0, 1, 30, day=30), False),
        (at(0, 5, 0, day=30), False),
    ],
)
def test_actions_accepted_until_the_grace_ends(client, clock, instant, accepted):
    attempt = start_daily(client, DAY)
    clock.move_to(instant)
    before = stored(attempt["id"])
    response = act(client, attempt, {"action": "roll"})
    if accepted:
        assert response.status_code == 200, response.json()
    else:
        assert (response.status_code, response.json()["code"]) == (409, "day_closed")
        assert response.json()["attempt"]["step"] == 0
        assert stored(attempt["id"]) == before


def test_game_started_before_midnight_keeps_its_date(client, clock):
    clock.move_to(at(23, 59))
    attempt = start_daily(client, DAY)
    clock.move_to(at(0, 1, day=30))
    response = act(client, attempt, {"action": "roll"})
    assert response.json()["puzzle"] == {"kind": "daily", "date": DAY}
    assert client.get("/api/daily/today").json()["date"] == "2026-11-30"


def test_today_changes_at_midnight(client, clock):
    clock.move_to(at(23, 59, 59))
    assert client.get("/api/daily/today").json()["date"] == DAY
    clock.move_to(at(0, 0, 0, day=30))
    assert client.get("/api/daily/today").json()["date"] == "2026-11-30"


@pytest.mark.parametrize("day", ["2026-12-01", "2027-01-01", "2025-06-01"])
def test_future_and_prehistoric_days_do_not_exist(client, clock, day):
    for response in (client.get(f"/api/daily/{day}"), post(client, f"/api/daily/{day}/attempts")):
        assert (response.status_code, response.json()["code"]) == (404, "not_found")
    assert not Attempt.objects.exists()


@pytest.mark.parametrize("day", ["2026-13-01", "yesterday", "2026-11-31", "20261129"])
def test_bad_dates_are_400(client, clock, day):
    response = client.get(f"/api/daily/{day}")
    assert (response.status_code, response.json()["code"]) == (400, "invalid_date")


def test_new_attempts_during_the_grace_are_refused(client, clock):
    clock.move_to(at(0, 0, 30, day=30))
    response = post(client, f"/api/daily/{DAY}/attempts")
    assert (response.status_code, response.json()["code"]) == (409, "day_closed")
    assert client.get(f"/api/daily/{DAY}").json()["status"] == "grace"
    assert not Attempt.objects.exists()


def test_closed_day_is_played_from_the_archive_as_practice(client, clock):
    clock.move_to(at(0, 1, 30, day=30))
    attempt = start_daily(client, DAY)
    assert (attempt["official"], attempt["deadline"]) == (False, None)
    clock.move_to(at(12, 0, day=30) + datetime.timedelta(days=5))
    assert act(client, attempt, {"action": "roll"}).status_code == 200
    day = client.get(f"/api/daily/{DAY}").json()
    assert (day["status"], day["players"]) == ("closed", 0)


def test_an_official_attempt_resumes_on_another_device_of_the_same_player(client, clock, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    account = {"username": "alice", "password": "correct horse battery staple"}
    assert post(client, "/api/auth/signup", account).status_code == 201
    attempt = act(client, start_daily(client, DAY), {"action": "roll"}).json()
    # Another device: a fresh browser without the first one's cookies, logged in to the account.
    phone = Client()
    assert phone.get(f"/api/attempts/{attempt['id']}").status_code == 404
    assert post(phone, "/api/auth/login", account).status_code == 200

    assert phone.get(f"/api/attempts/{attempt['id']}").json() == {**attempt, "events": []}
    keep = attempt["keep_options"][0]["dice"]
    moved = act(phone, attempt, {"action": "keep", "dice": keep, "then": "roll"})
    assert moved.status_code == 200, moved.json()
    # Back on the first device, the game is where the phone left it.
    assert client.get(f"/api/attempts/{attempt['id']}").json() == {**moved.json(), "events": []}
    assert moved.json()["step"] == attempt["step"] + 1
    assert phone.cookies["sessionid"].value != client.cookies["sessionid"].value


def test_seed_is_revealed_once_the_day_closes(client, clock):
    def revealed():
        return client.get(f"/api/daily/{DAY}").json()["revealed_seed"]

    clock.move_to(at(0, 1, 29, 999_999, day=30))
    before = revealed()
    clock.move_to(at(0, 1, 30, day=30))
    seed = farkle.daily_seed(settings.FARKLE_SEED_SECRET.encode(), datetime.date(2026, 11, 29))
    assert (before, revealed()) == (None, seed.hex())
