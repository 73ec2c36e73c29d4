"""CSRF for guest sessions, and throttles."""

import pytest
from django.test import Client

from play.models import Attempt
from tests.daily.helpers import play_greedy, post, start_daily
from tests.helpers import rates

DAY = "2026-11-29"

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


def test_cross_site_post_without_the_token_is_refused():
    browser = Client(enforce_csrf_checks=True)
    browser.get("/api/daily/today")
    response = post(browser, f"/api/daily/{DAY}/attempts")
    assert (response.status_code, response.json()["code"]) == (403, "forbidden")
    assert "CSRF" in response.json()["detail"]
    assert not Attempt.objects.exists()


def test_guest_actions_need_the_token_too():
    browser = Client(enforce_csrf_checks=True)
    token = browser.get("/api/daily/today").cookies["csrftoken"].value
    response = post(browser, f"/api/daily/{DAY}/attempts", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 201
    attempt = response.json()
    forged = post(browser, f"/api/attempts/{attempt['id']}/actions", {"step": 0, "action": "roll"})
    assert (forged.status_code, forged.json()["code"]) == (403, "forbidden")
    assert Attempt.objects.get().step == 0
    genuine = post(
        browser,
        f"/api/attempts/{attempt['id']}/actions",
        {"step": 0, "action": "roll"},
        HTTP_X_CSRFTOKEN=token,
    )
    assert genuine.status_code == 200


def test_starting_attempts_is_throttled_per_player(client, settings):
    # Yesterday's daily is closed: each start is an archive game, never refused for its state.
    yesterday = "2026-11-28"
    with rates(attempt_start="2/minute"):
        # The first start creates the player, and counts for it (issue 39: not for the address
        # alone, which gave a new player one start more than the limit).
        codes = [post(client, f"/api/daily/{yesterday}/attempts").status_code for _ in range(4)]
        refused = post(client, f"/api/daily/{yesterday}/attempts")
        other_player = post(Client(), f"/api/daily/{yesterday}/attempts")
    assert codes == [201, 201, 429, 429]
    # The clock is frozen: the window of 2/minute reopens a whole minute after the first start.
    assert refused.json() == {
        "detail": "Request was throttled. Expected available in 60 seconds.",
        "code": "throttled",
    }
    assert refused["Retry-After"] == "60"
    assert other_player.status_code == 201
    assert Attempt.objects.count() == 3


def test_a_real_game_never_meets_the_action_throttle(client):
    attempt = play_greedy(client, start_daily(client, DAY), bank_at=10_000)
    assert attempt["state"] == "finished"


def test_new_players_are_throttled_by_address_not_a_forged_forwarded_one(settings):
    with rates(attempt_start="2/minute"):
        codes = [
            post(
                Client(), f"/api/daily/{DAY}/attempts", HTTP_X_FORWARDED_FOR=f"10.0.0.{i}"
            ).status_code
            for i in range(3)
        ]
    assert codes == [201, 201, 429]


def test_cross_site_form_is_refused_as_forged():
    browser = Client(enforce_csrf_checks=True)
    browser.get("/api/daily/today")
    # A browser names the page a form is sent from (Origin): another site's is refused.
    response = browser.post(
        f"/api/daily/{DAY}/attempts",
        "a=1",
        content_type="application/x-www-form-urlencoded",
        HTTP_ORIGIN="https://elsewhere.example",
    )
    assert (response.status_code, response.json()["code"]) == (403, "forbidden")
    assert "CSRF" in response.json()["detail"]
    # Without an Origin, the form's body is read for its token, and the API reads JSON only.
    response = browser.post(
        f"/api/daily/{DAY}/attempts", "a=1", content_type="application/x-www-form-urlencoded"
    )
    assert (response.status_code, response.json()["code"]) == (415, "unsupported_media_type")
    assert not Attempt.objects.exists()
