"""Today's daily sets a fresh browser's CSRF cookie from one read of the system's random source
(farkle_site.csrf, issue 15), a cookie Django's CSRF check then accepts."""

from __future__ import annotations

import collections
import os

import pytest
from django.middleware import csrf as django_csrf
from django.middleware.csrf import CSRF_ALLOWED_CHARS, get_token
from django.test import Client, RequestFactory

from farkle_site import csrf, drf

_TODAY = "/api/daily/today"
_START = "/api/daily/today/attempts"


@pytest.fixture
def reads(monkeypatch):
    """The sizes of the ``os.urandom`` reads; Django's own CSRF draw refused meanwhile (it would
    read through the ``secrets`` module instead)."""
    sizes: list[int] = []
    real = os.urandom

    def counted(size: int) -> bytes:
        sizes.append(size)
        return real(size)

    def refused():
        raise AssertionError("Django's CSRF draw was used")

    monkeypatch.setattr(os, "urandom", counted)
    monkeypatch.setattr(django_csrf, "_get_new_csrf_string", refused)
    return sizes


def _fed(monkeypatch, *chunks: bytes) -> list[int]:
    """Make ``os.urandom`` answer ``chunks`` in turn; the sizes asked are returned."""
    asked: list[int] = []
    left = list(chunks)

    def read(size: int) -> bytes:
        asked.append(size)
        chunk = left.pop(0)
        assert len(chunk) == size
        return chunk

    monkeypatch.setattr(os, "urandom", read)
    return asked


def test_a_secret_is_32_characters_of_djangos_alphabet_from_one_read(reads):
    secret = csrf.csrf_secret_new()
    assert len(secret) == 32 and set(secret) <= set(CSRF_ALLOWED_CHARS)
    # A second read follows about once in 1.8 billion draws.
    assert reads == [44]


def test_each_character_stands_for_four_byte_values_and_the_eight_others_are_passed_over(
    monkeypatch,
):
    # 256 = 4 × 62 + 8, by hand: 'a' to 'z', 'A' to 'Z', '0' to '9' each from 4 byte values.
    firsts = collections.Counter()
    rest = bytes(range(43))
    for value in range(256):
        _fed(monkeypatch, bytes([value]) + rest)
        secret = csrf.csrf_secret_new()
        assert len(secret) == 32
        firsts[secret[0] if value < 248 else "passed over"] += 1
        # The byte after it, 0, stands for 'a'.
        assert value < 248 or secret[0] == "a"
    assert firsts.pop("passed over") == 8
    assert firsts == {
        char: 4 for char in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    }


def test_a_read_with_too_few_usable_bytes_is_followed_by_another(monkeypatch):
    asked = _fed(monkeypatch, bytes([255] * 24 + list(range(20))), bytes(range(62, 106)))
    secret = csrf.csrf_secret_new()
    # 20 characters from the first read, 12 from the second (bytes 62 to 73: 'a' to 'l').
    assert secret == "abcdefghijklmnopqrst" + "abcdefghijkl"
    assert asked == [44, 44]


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
