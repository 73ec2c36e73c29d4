"""Today's daily and a challenge looked up by its code set a fresh browser's CSRF cookie from one
read of the system's random source and no mask (farkle_site.csrf, issue 15), a cookie Django's
CSRF check then accepts."""

from __future__ import annotations

import pytest
from django.middleware import csrf as django_csrf
from django.middleware.csrf import CSRF_ALLOWED_CHARS, get_token
from django.test import Client, RequestFactory

from farkle_site import csrf, drf

_TODAY = "/api/daily/today"
_START = "/api/daily/today/attempts"


@pytest.fixture
def reads(monkeypatch, urandom_reads):
    """The ``os.urandom`` reads; Django's own CSRF draw, which reads through the ``secrets``
    module instead, refused meanwhile."""

    def refused():
        raise AssertionError("Django's CSRF draw was used")

    monkeypatch.setattr(django_csrf, "_get_new_csrf_string", refused)
    return urandom_reads


@pytest.mark.parametrize("cookie", [None, "k" * 32])
def test_the_request_is_left_as_djangos_get_token_leaves_it(cookie):
    def csrf_meta(mark) -> dict:
        request = RequestFactory().get("/")
        if cookie is not None:
            # As Django's middleware reads a valid cookie.
            request.META["CSRF_COOKIE"] = cookie
        mark(request)
        return {k: v for k, v in request.META.items() if k.startswith("CSRF_")}

    django, ours = csrf_meta(get_token), csrf_meta(csrf.csrf_cookie_ensure)
    assert django.keys() == ours.keys() == {"CSRF_COOKIE", "CSRF_COOKIE_NEEDS_UPDATE"}
    assert django["CSRF_COOKIE_NEEDS_UPDATE"] is ours["CSRF_COOKIE_NEEDS_UPDATE"] is True
    if cookie is None:
        assert len(ours["CSRF_COOKIE"]) == len(django["CSRF_COOKIE"]) == 32
        assert ours["CSRF_COOKIE"] != django["CSRF_COOKIE"]
    else:
        assert ours["CSRF_COOKIE"] == django["CSRF_COOKIE"] == cookie


@pytest.mark.django_db
@pytest.mark.parametrize("lane", [True, False], ids=["lane", "drf"])
def test_todays_first_answer_draws_its_cookie_once_and_the_cookie_guards_the_start(
    monkeypatch, clock, reads, lane
):
    monkeypatch.setattr(drf, "_LANE_OPEN", lane)
    client = Client(enforce_csrf_checks=True)
    today = client.get(_TODAY)
    assert today.status_code == 200
    # The CSRF secret's read (44 bytes) and the browser id's (a UUID, 16).
    assert sorted(reads) == [16, 44]
    token = client.cookies["csrftoken"].value
    assert len(token) == 32 and set(token) <= set(CSRF_ALLOWED_CHARS)
    # Django's middleware set it, as it sets the cookie get_token asks for.
    assert "Cookie" in today["Vary"]
    # A return visit renews the same cookie without drawing one.
    reads.clear()
    again = client.get(_TODAY)
    assert again.cookies["csrftoken"].value == token and reads == []
    # Django's check takes it: refused without the token, accepted with it.
    refused = client.generic("POST", _START)
    assert refused.status_code == 403 and "CSRF" in refused.json()["detail"]
    started = client.generic("POST", _START, HTTP_X_CSRFTOKEN=token)
    assert started.status_code == 201 and started.json()["official"] is True


@pytest.mark.django_db
def test_a_challenge_looked_up_by_code_draws_its_cookie_once_and_the_cookie_guards_the_start(
    clock, reads
):
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
    reads.clear()
    looked_up = friend.get(f"/api/challenges/{code}")
    assert looked_up.status_code == 200
    assert sorted(reads) == [16, 44]
    token = friend.cookies["csrftoken"].value
    assert len(token) == 32 and set(token) <= set(CSRF_ALLOWED_CHARS)
    assert "Cookie" in looked_up["Vary"]
    refused = friend.generic("POST", f"/api/challenges/{code}/attempts")
    assert refused.status_code == 403 and "CSRF" in refused.json()["detail"]
    started = friend.generic("POST", f"/api/challenges/{code}/attempts", HTTP_X_CSRFTOKEN=token)
    assert started.status_code == 201 and started.json()["official"] is True
