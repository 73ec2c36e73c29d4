"""The browser's cookies: its session (a guest's year) and its id (one guest per browser)."""

import datetime

import pytest
from django.conf import settings
from django.test import Client

from play.models import Attempt, Player
from tests.daily.helpers import post, start_daily
from tests.moments import NOON

DAY = "2026-11-29"

pytestmark = pytest.mark.django_db


def test_first_visit_gets_a_browser_id_that_then_stays(client, clock):
    first = client.get("/api/daily/today")
    browser_id = first.cookies[settings.BROWSER_COOKIE_NAME]
    assert (browser_id["max-age"], browser_id["httponly"]) == (settings.SESSION_COOKIE_AGE, True)
    again = client.get("/api/daily/today")
    assert settings.BROWSER_COOKIE_NAME not in again.cookies


def test_a_game_on_a_new_day_renews_the_guests_session(client, clock):
    start_daily(client, DAY)
    same_day = client.get("/api/me")
    clock.move_to(NOON + datetime.timedelta(days=1))
    next_day = client.get("/api/me")
    assert settings.SESSION_COOKIE_NAME not in same_day.cookies
    assert next_day.cookies[settings.SESSION_COOKIE_NAME]["max-age"] == settings.SESSION_COOKIE_AGE


def test_a_lost_session_finds_the_browsers_guest_again(client, clock):
    client.get("/api/daily/today")
    attempt = start_daily(client, DAY)
    client.cookies.pop(settings.SESSION_COOKIE_NAME)
    refused = post(client, f"/api/daily/{DAY}/attempts")
    assert (refused.status_code, refused.json()["attempt_id"]) == (409, attempt["id"])
    assert Player.objects.count() == 1


def test_an_adopted_guest_is_not_found_by_its_old_browser_after_logout(client, clock):
    client.get("/api/daily/today")
    start_daily(client, DAY)
    post(client, "/api/auth/signup", {"username": "ada", "password": "a long pass phrase 7"})
    post(client, "/api/auth/logout")
    guest = start_daily(client, DAY)
    assert guest["official"] is True
    assert Player.objects.count() == 2
    assert Player.objects.get(user__username="ada").browser_id is None


def test_a_refused_start_creates_no_player(clock):
    browser = Client()
    clock.move_to(datetime.datetime(2026, 11, 30, 0, 0, 30, tzinfo=datetime.UTC))
    refused = post(browser, f"/api/daily/{DAY}/attempts")
    assert (refused.status_code, refused.json()["code"]) == (409, "day_closed")
    assert (Player.objects.count(), Attempt.objects.count()) == (0, 0)


def test_a_lone_surrogate_is_a_400_not_a_500(client, clock):
    attempt = start_daily(client, DAY)
    raw = b'{"step": 0, "action": "\\ud800"}'
    response = client.post(
        f"/api/attempts/{attempt['id']}/actions", raw, content_type="application/json"
    )
    assert (response.status_code, response.json()["code"]) == (400, "invalid_action")


def test_choosing_a_name_after_losing_the_session_renames_the_browsers_guest(client, clock):
    client.get("/api/daily/today")
    start_daily(client, DAY)
    client.cookies.pop(settings.SESSION_COOKIE_NAME)
    response = client.patch("/api/me", {"name": "Quiet Heron"}, content_type="application/json")
    assert (response.status_code, response.json()["name"]) == (200, "Quiet Heron")
    assert list(Player.objects.values_list("display_name", flat=True)) == ["Quiet Heron"]
