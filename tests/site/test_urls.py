import json
import re

import pytest
from django.db import DatabaseError, connections
from django.test import Client

# Nothing listens there: a connection to it is refused at once.
CLOSED_PORT_REDIS = "redis://127.0.0.1:1/0"


@pytest.mark.django_db
def test_healthz_answers_ok(client, django_assert_num_queries, settings):
    # The real Postgres and the real Redis of the suite (CACHE_URL), as in production.
    assert settings.CACHES["default"]["BACKEND"] == "django_redis.cache.RedisCache"
    with django_assert_num_queries(1):
        response = client.get("/healthz")

    assert (response.status_code, response["Content-Type"], response.json()) == (
        200,
        "application/json",
        {"status": "ok", "database": "ok", "cache": "ok"},
    )


@pytest.mark.django_db
def test_healthz_answers_503_when_the_cache_is_down(client, settings):
    # Issue 39: with Redis down every request with a session answers 503, so the host must
    # leave the load balancer; the database is told apart, still up.
    settings.CACHES = {
        "default": {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": CLOSED_PORT_REDIS}
    }

    response = client.get("/healthz")
    head = client.head("/healthz")
    # What the host would answer a player meanwhile.
    today = client.get("/api/daily/today")

    assert (response.status_code, response["Retry-After"], response.json()) == (
        503,
        "30",
        {"status": "error", "database": "ok", "cache": "down"},
    )
    assert (head.status_code, dict(response.cookies)) == (503, {})
    assert (today.status_code, today.json()["code"]) == (503, "unavailable")


@pytest.mark.django_db
def test_healthz_gives_no_browser_id_whatever_it_answers(client, settings, monkeypatch):
    # A load balancer's probe keeps no cookies: each call would be a new browser.
    answers = [client.get("/healthz"), client.post("/healthz")]

    def failing(error):
        def cursor(self):
            raise error

        return cursor

    wrapper = type(connections["default"])
    monkeypatch.setattr(wrapper, "cursor", failing(DatabaseError("gone")))
    answers.append(client.get("/healthz"))
    monkeypatch.setattr(wrapper, "cursor", failing(RuntimeError("a bug")))
    answers.append(Client(raise_request_exception=False).get("/healthz"))
    monkeypatch.undo()
    today = client.get("/api/daily/today")

    assert [answer.status_code for answer in answers] == [200, 405, 503, 500]
    assert [dict(answer.cookies) for answer in answers] == [{}, {}, {}, {}]
    assert settings.BROWSER_COOKIE_NAME in today.cookies


@pytest.mark.django_db
def test_healthz_over_http_is_not_redirected_to_https(client, settings):
    settings.SECURE_SSL_REDIRECT = True

    health = client.get("/healthz")
    schema = client.get("/api/schema/")

    assert (health.status_code, schema.status_code, schema["Location"]) == (
        200,
        301,
        "https://testserver/api/schema/",
    )


def test_healthz_refuses_post(client):
    response = client.post("/healthz")

    assert response.status_code == 405


def test_healthz_without_database_answers_503(run_python, production_env):
    code = (
        "import django; django.setup(); from django.test import Client; "
        "r = Client().get('/healthz'); print(r.status_code, r.content.decode())"
    )
    env = {
        **production_env,
        "DATABASE_URL": "postgres://postgres@127.0.0.1:1/farkle",
        "ALLOWED_HOSTS": "testserver",
        "SECURE_SSL_REDIRECT": "0",
        "LOG_LEVEL": "CRITICAL",
    }

    result = run_python("-c", code, env=env)
    # Both down: each is told.
    both = run_python("-c", code, env={**env, "CACHE_URL": CLOSED_PORT_REDIS})

    assert result.stdout == '503 {"status": "error", "database": "down", "cache": "ok"}\n'
    assert both.stdout == '503 {"status": "error", "database": "down", "cache": "down"}\n'


def test_api_schema_is_openapi_document(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    document = json.loads(response.content)
    assert response.status_code == 200
    assert document["openapi"].startswith("3.")
    assert document["info"] == {
        "title": "Farkle Daily API",
        "version": "1",
        "description": "Daily Farkle and friend challenges: ten turns on dice everyone shares.",
    }


def test_api_docs_load_nothing_from_other_hosts(client):
    response = client.get("/api/docs/")

    html = response.content.decode()
    sources = re.findall(r'(?:src|href)="([^"]*)"', html)
    assert response.status_code == 200
    assert sources == [
        "/static/drf_spectacular_sidecar/swagger-ui-dist/favicon-32x32.png",
        "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui.css",
        "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js",
        "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-standalone-preset.js",
        "/api/docs/?script=",
    ]
    assert "https://" not in html
    assert "cdn" not in html.lower()


def test_set_language_stores_choice_in_cookie(client):
    response = client.post("/i18n/setlang/", {"language": "fr", "next": "/healthz"})

    assert (
        response.status_code,
        response["Location"],
        response.cookies["django_language"].value,
    ) == (
        302,
        "/healthz",
        "fr",
    )
