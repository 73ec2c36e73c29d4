"""Races between real threads, each with its own database connection."""

import threading

import pytest
import time_machine
from django.test import Client

from play.models import Attempt, Player
from tests.daily.helpers import act, post, start_daily
from tests.helpers import race
from tests.moments import NOON

DAY = "2026-11-29"

pytestmark = pytest.mark.django_db(transaction=True)


@time_machine.travel(NOON, tick=False)
def test_simultaneous_starts_give_exactly_one_official_attempt(client):
    # The browser's player exists before the race, as with two tabs of one browser.
    first = start_daily(client, DAY)
    Attempt.objects.filter(pk=first["id"]).delete()
    responses = race(4, lambda: post(client, f"/api/daily/{DAY}/attempts"))
    # One official game; the others are refused while it is unfinished (no practice peeking).
    assert sorted(r.status_code for r in responses) == [201, 409, 409, 409]
    assert Attempt.objects.get().official


@time_machine.travel(NOON, tick=False)
def test_a_double_click_on_a_fresh_browser_makes_one_player(client):
    client.get("/api/daily/today")  # the page load: CSRF and browser cookies
    responses = race(2, lambda: post(client, f"/api/daily/{DAY}/attempts"))
    assert sorted(r.status_code for r in responses) == [201, 409]
    assert (Player.objects.count(), Attempt.objects.count()) == (1, 1)


@time_machine.travel(NOON, tick=False)
def test_a_double_submitted_action_rolls_once(client):
    attempt = start_daily(client, DAY)
    responses = race(2, lambda: act(client, attempt, {"action": "roll"}))
    assert sorted(r.status_code for r in responses) == [200, 409]
    refused = next(r for r in responses if r.status_code == 409).json()
    assert refused["code"] == "stale_step"
    stored = Attempt.objects.get(pk=attempt["id"])
    assert (stored.step, len(stored.actions)) == (1, 1)


@time_machine.travel(NOON, tick=False)
def test_first_games_of_many_new_players_at_once(client):
    clients = [Client() for _ in range(6)]
    it = iter(range(6))
    lock = threading.Lock()

    def start():
        with lock:
            me = clients[next(it)]
        return post(me, f"/api/daily/{DAY}/attempts")

    responses = race(6, start)
    assert [r.status_code for r in responses] == [201] * 6
    assert Attempt.objects.filter(official=True).count() == 6
    assert len({r.json()["id"] for r in responses}) == 6
