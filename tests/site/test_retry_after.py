"""Every 429 the site sends, from the API or from a page, says how long to wait: ``Retry-After``
with the whole seconds until the throttle's window ends (issue 39, item 6).

The throttles count in fixed windows that start at multiples of their length since the epoch
(docs/operations.md), so at 17 seconds past noon UTC a minute's window has 43 seconds left, an
hour's 3,583 and a day's 43,183 (noon is 12 hours into the day): those are the waits expected.
"""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from tests.helpers import rates
from tests.moments import NOON

INSTANT = NOON + datetime.timedelta(seconds=17)
WAIT = {"minute": 43, "hour": 3583, "day": 43183}
SCOPES = list(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"])

# A value of each path parameter that the URL accepts, so that the request reaches its view's
# throttles (they run before the view looks anything up).
PATH_VALUES = {
    "attempt_id": "999999",
    "player_id": "999999",
    "day": NOON.date().isoformat(),
}


def _throttled_operations() -> list[tuple[str, str]]:
    """Every API operation whose schema documents a 429, its path parameters filled in."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    operations = []
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if "429" not in operation.get("responses", {}):
                continue
            # Challenge codes have 6 characters, group codes 7 (docs/play.md).
            code = "ZZZZZZZ" if path.startswith("/api/groups/") else "ZZZZZZ"
            url = path.replace("{code}", code)
            for name, value in PATH_VALUES.items():
                url = url.replace(f"{{{name}}}", value)
            operations.append((method.upper(), url))
    return operations


def _send(client: Client, method: str, url: str):
    if method in {"POST", "PUT", "PATCH", "DELETE"}:
        return client.generic(method, url, "{}", content_type="application/json")
    return client.generic(method, url)


@pytest.mark.django_db
@pytest.mark.parametrize("period", list(WAIT))
def test_every_throttled_endpoint_says_how_long_to_wait(clock, period):
    clock.move_to(INSTANT)
    operations = _throttled_operations()
    # The scan reads the schema it means to: the throttled endpoints of each app are in it.
    assert {("POST", "/api/challenges"), ("POST", "/api/auth/login"), ("PATCH", "/api/me")} <= set(
        operations
    )
    assert {("GET", "/api/groups/ZZZZZZZ"), ("POST", "/api/attempts/999999/actions")} <= set(
        operations
    )
    wrong = []
    with rates(**dict.fromkeys(SCOPES, f"1/{period}")):
        for n, (method, url) in enumerate(operations):
            # An address of its own: each endpoint's second request is its first refusal.
            client = Client(REMOTE_ADDR=f"10.39.{n}.1")
            _send(client, method, url)
            refused = _send(client, method, url)
            answer = (
                refused.status_code,
                refused.get("Retry-After"),
                refused.json().get("code") if refused.status_code == 429 else None,
            )
            if answer != (429, str(WAIT[period]), "throttled"):
                wrong.append((method, url, answer))
    assert wrong == []


PAGES = [("/c/ZZZZZZ", "challenge"), ("/g/ZZZZZZZ", "group")]


@pytest.mark.django_db
@pytest.mark.parametrize(("url", "kind"), PAGES)
@pytest.mark.parametrize(
    ("period", "english", "french"),
    [
        ("minute", "You can try again in 43 seconds.", "Vous pourrez réessayer dans 43 secondes."),
        ("hour", "You can try again in 60 minutes.", "Vous pourrez réessayer dans 60 minutes."),
    ],
)
def test_a_throttled_page_says_how_long_to_wait_in_english_and_french(
    clock, url, kind, period, english, french
):
    """The challenge and group pages share the API's lookup limit: past it, a page in the
    visitor's language says what was too many and when to come back, with Retry-After."""
    clock.move_to(INSTANT)
    with rates(challenge_lookup=f"1/{period}"):
        for n, (language, wait_text, slow_down, too_many) in enumerate(
            [
                ("en", english, "Slow down", f"Too many {kind} codes were looked up from here."),
                (
                    "fr",
                    french,
                    "Doucement",
                    f"Trop de codes de {'défi' if kind == 'challenge' else 'groupe'} ont été "
                    "consultés depuis cette adresse.",
                ),
            ]
        ):
            client = Client(REMOTE_ADDR=f"10.40.{PAGES.index((url, kind))}.{n}")
            client.get(url, HTTP_ACCEPT_LANGUAGE=language)
            refused = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
            page = refused.content.decode()
            assert (refused.status_code, refused["Retry-After"]) == (429, str(WAIT[period]))
            assert refused["Content-Type"].startswith("text/html")
            assert f'<html lang="{language}">' in page
            assert f"<h1>{slow_down}</h1>" in page
            assert too_many in page and wait_text in page
            # A way on: the same address again, or today's daily.
            assert f'href="{url}"' in page


@pytest.mark.django_db
def test_a_page_and_the_api_share_one_count_and_one_wait(clock):
    clock.move_to(INSTANT)
    client = Client(REMOTE_ADDR="10.41.0.1")
    with rates(challenge_lookup="3/minute"):
        statuses = [client.get("/api/challenges/ZZZZZZ").status_code for _ in range(2)]
        statuses.append(client.get("/c/ZZZZZZ").status_code)
        page, api = client.get("/c/ZZZZZZ"), client.get("/api/challenges/ZZZZZZ")
    assert statuses == [404, 404, 404]
    assert (page.status_code, page["Retry-After"]) == (429, "43")
    assert (api.status_code, api["Retry-After"]) == (429, "43")
