"""Today's daily and a challenge looked up by its code give a fresh browser its CSRF cookie
(Django's ``get_token``), which Django's CSRF check then asks every start for."""

from __future__ import annotations

import pytest
from django.middleware.csrf import CSRF_ALLOWED_CHARS
from django.test import Client

_TODAY = "/api/daily/today"
_START = "/api/daily/today/attempts"


def _token_of(client: Client) -> str:
    token = client.cookies["csrftoken"].value
    assert len(token) == 32 and set(token) <= set(CSRF_ALLOWED_CHARS)
    return token


@pytest.mark.django_db
def test_todays_answer_sets_the_cookie_and_the_cookie_guards_the_start(clock):
    client = Client(enforce_csrf_checks=True)
    today = client.get(_TODAY)
    assert today.status_code == 200
    token = _token_of(client)
    assert "Cookie" in today["Vary"]
    # A return visit keeps the same cookie.
    assert client.get(_TODAY).cookies["csrftoken"].value == token
    # Django's check takes it: refused without the token, accepted with it.
    refused = client.generic("POST", _START)
    assert refused.status_code == 403 and "CSRF" in refused.json()["detail"]
    assert refused.json()["code"] == "forbidden"
    started = client.generic("POST", _START, HTTP_X_CSRFTOKEN=token)
    assert started.status_code == 201 and started.json()["official"] is True


@pytest.mark.django_db
def test_a_challenge_looked_up_by_code_sets_the_cookie_and_the_cookie_guards_the_start(clock):
    creator = Client()
    creator.get(_TODAY)
    made = creator.post(
        "/api/challenges",
        {},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=creator.cookies["csrftoken"].value,
    )
    assert made.status_code == 201, made.json()
    code = made.json()["code"]
    # A friend's fresh browser, given the code.
    friend = Client(enforce_csrf_checks=True)
    looked_up = friend.get(f"/api/challenges/{code}")
    assert looked_up.status_code == 200
    token = _token_of(friend)
    assert "Cookie" in looked_up["Vary"]
    refused = friend.generic("POST", f"/api/challenges/{code}/attempts")
    assert refused.status_code == 403 and "CSRF" in refused.json()["detail"]
    started = friend.generic("POST", f"/api/challenges/{code}/attempts", HTTP_X_CSRFTOKEN=token)
    assert started.status_code == 201 and started.json()["official"] is True
