"""Malformed requests are refused as JSON 4xx, never a 500 or Django's HTML page (issue 10)."""

import pytest
from django.test import Client

from tests.daily.helpers import start_daily

# About 1,000 levels of nesting in 2 KB: deeper than Python's recursion limit lets json parse.
NESTED = "[" * 1000 + "]" * 1000


@pytest.fixture
def csrf_client() -> Client:
    """A client that sends its CSRF token, as the site's pages do, so CSRF is checked for real."""
    client = Client(enforce_csrf_checks=True)
    client.get("/api/daily/today")
    client.defaults["HTTP_X_CSRFTOKEN"] = client.cookies["csrftoken"].value
    return client


def _json_writes(client: Client, clock) -> list[tuple[str, str]]:
    """Every JSON write endpoint, with a real attempt for the actions."""
    attempt = start_daily(client, "today")
    return [
        ("post", f"/api/attempts/{attempt['id']}/actions"),
        ("post", "/api/challenges"),
        ("patch", "/api/me"),
        ("post", "/api/auth/signup"),
        ("post", "/api/auth/login"),
    ]


def _assert_json_error(response, status: int, code: str) -> None:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json", response.content[:300]
    body = response.json()
    assert body["code"] == code and isinstance(body["detail"], str) and body["detail"]


@pytest.mark.django_db
def test_deeply_nested_json_is_a_parse_error_on_every_write(csrf_client, clock):
    assert len(NESTED) == 2000
    for method, url in _json_writes(csrf_client, clock):
        response = getattr(csrf_client, method)(url, NESTED, content_type="application/json")
        _assert_json_error(response, 400, "parse_error")


@pytest.mark.django_db
def test_a_nested_object_inside_a_field_is_a_parse_error(csrf_client, clock):
    body = '{"name": ' + "{" + '"a":{' * 999 + "}" * 1000 + "}"
    response = csrf_client.patch("/api/me", body, content_type="application/json")
    _assert_json_error(response, 400, "parse_error")


@pytest.mark.django_db
@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded", "text/plain"])
def test_a_body_over_the_size_limit_is_json(csrf_client, clock, content_type):
    body = "a=" + "x" * (200 * 1024)
    response = csrf_client.post("/api/auth/login", body, content_type=content_type)
    assert response.status_code in (400, 413, 415), response.content[:300]
    assert response["Content-Type"] == "application/json", response.content[:300]
    assert {"detail", "code"} <= response.json().keys()


@pytest.mark.django_db
def test_a_json_body_over_the_size_limit_is_a_parse_error(csrf_client, clock):
    body = '{"username": "' + "x" * (200 * 1024) + '", "password": "p"}'
    response = csrf_client.post("/api/auth/login", body, content_type="application/json")
    _assert_json_error(response, 400, "parse_error")


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/auth/login", "/api/challenges", "/api/me"])
def test_a_multipart_body_without_a_boundary_is_json(csrf_client, clock, url):
    response = csrf_client.generic("POST", url, b"--x\r\n\r\n", content_type="multipart/form-data")
    assert 400 <= response.status_code < 500, response.content[:300]
    assert response["Content-Type"] == "application/json", response.content[:300]
    assert {"detail", "code"} <= response.json().keys()


@pytest.mark.django_db
def test_a_form_post_with_too_many_fields_is_json(csrf_client, clock):
    body = "&".join(f"f{i}=1" for i in range(2000))
    response = csrf_client.post(
        "/api/auth/login", body, content_type="application/x-www-form-urlencoded"
    )
    assert 400 <= response.status_code < 500, response.content[:300]
    assert response["Content-Type"] == "application/json", response.content[:300]
    assert {"detail", "code"} <= response.json().keys()


@pytest.mark.django_db
def test_pages_keep_django_error_pages(csrf_client, clock):
    body = "a=" + "x" * (200 * 1024)
    response = csrf_client.post("/", body, content_type="application/x-www-form-urlencoded")
    assert response.status_code in (400, 403, 405)
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.django_db
def test_a_disallowed_host_under_the_api_is_json(client):
    response = client.get("/api/daily/today", HTTP_HOST="attacker.example")
    _assert_json_error(response, 400, "bad_request")
    page = client.get("/", HTTP_HOST="attacker.example")
    assert (page.status_code, page["Content-Type"].startswith("text/html")) == (400, True)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"title": 123}, "title"),
        ({"title": ["a"]}, "title"),
        ({"days": "7"}, "days"),
        ({"days": 7.0}, "days"),
        ({"days": True}, "days"),
        ({"table": 1}, "table"),
    ],
)
def test_challenge_creation_takes_json_types_as_they_are(csrf_client, clock, body, field):
    from challenges.models import Challenge

    response = csrf_client.post("/api/challenges", body, content_type="application/json")
    assert response.status_code == 400, response.content[:300]
    assert field in response.json()["errors"]
    assert not Challenge.objects.exists()


@pytest.mark.django_db
def test_challenge_creation_still_takes_well_typed_values(csrf_client, clock):
    body = {"title": "Friday", "days": 7}
    response = csrf_client.post("/api/challenges", body, content_type="application/json")
    assert response.status_code == 201, response.content[:300]
    assert response.json()["title"] == "Friday"


@pytest.mark.django_db
def test_an_unreachable_shared_cache_is_503_unavailable(csrf_client, clock, settings):
    # Port 9 (discard) has no Redis: the throttle cannot count, the answer is a wait, not a bug.
    settings.CACHES = {
        "default": {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": "redis://127.0.0.1:9/0"}
    }
    body = {"username": "alice", "password": "secret"}
    response = csrf_client.post("/api/auth/login", body, content_type="application/json")
    _assert_json_error(response, 503, "unavailable")
    assert int(response["Retry-After"]) > 0
