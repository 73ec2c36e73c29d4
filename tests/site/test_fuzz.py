"""A schema-based fuzzer (Schemathesis) against the live test server: every operation of the
schema, with valid and with invalid input, as a logged-in player (an account, through a browser
session that passes the CSRF check) whose requests mostly name what it has made in setup (its
finished and in-play attempts, a challenge and its attempt, a group with a member and a removed
player). No answer is a 5xx, and every answer (status, content type, body, headers) is one the
OpenAPI schema documents (issue 10 item 11, issue 39 item 7).

Bounded: a few generated requests per operation and mode, so the whole run takes a few minutes.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

import farkle

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]
EXAMPLES_PER_OPERATION = 12


@pytest.fixture
def live_site(live_server, settings, transactional_db) -> str:
    # Plain HTTP on the test server: cookies that are not marked Secure, or the client would
    # not send them back (production marks them Secure behind TLS).
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    # A fast password hash: each operation's setup signs a player up, and the fuzzer logs in.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return live_server.url


def _browser(live_site: str) -> requests.Session:
    """A new browser: its cookies, and the CSRF header every unsafe request carries."""
    browser = requests.Session()
    assert browser.get(f"{live_site}/api/daily/today", timeout=30).status_code == 200
    browser.headers["X-CSRFToken"] = browser.cookies["csrftoken"]
    return browser


def _keep_csrf(browser: requests.Session) -> None:
    # Django rotates the CSRF token when a player logs in (or signs up): send the current one.
    browser.headers["X-CSRFToken"] = browser.cookies.get("csrftoken", "")


def _call(browser: requests.Session, method: str, url: str, status: int, body=None) -> dict:
    response = browser.request(method, url, json=body, timeout=30)
    _keep_csrf(browser)
    assert response.status_code == status, (method, url, response.status_code, response.text)
    return response.json() if response.content else {}


def _finish(attempt_id: int) -> None:
    """Play an attempt to its end through the service (a whole game over HTTP would cost each of
    the fuzzer's setups seconds): keep the first option, bank when allowed."""
    from django.utils import timezone

    from play.models import Attempt
    from play.services.attempts import attempt_act

    attempt = Attempt.objects.get(pk=attempt_id)
    game = attempt.game()
    while not game.finished:
        if game.state == farkle.AWAITING_ROLL:
            action = {"action": "roll"}
        else:
            option = game.keep_options()[0]
            then = "bank" if option.may_bank else "roll"
            action = {"action": "keep", "dice": list(option.positions), "then": then}
        attempt, game = attempt_act(
            attempt_id=attempt_id,
            player_id=attempt.player_id,
            step=game.step,
            action=action,
            now=timezone.now(),
        )


class World:
    """What a logged-in player has made in setup, by the name of the parameter that names it:
    the values fed to the fuzzer so that its requests reach real attempts, challenges and groups,
    not only the 404 of an id nobody has."""

    def __init__(self, live_site: str, player: requests.Session, friends: list[requests.Session]):
        site = f"{live_site}/api"
        _call(
            player,
            "POST",
            f"{site}/auth/signup",
            201,
            {"username": "fuzzer", "password": "a long pass phrase 7"},
        )
        official = _call(player, "POST", f"{site}/daily/today/attempts", 201)
        _finish(official["id"])
        practice = _call(player, "POST", f"{site}/daily/today/attempts", 201)
        self.day = _call(player, "GET", f"{site}/daily/today", 200)["date"]
        challenge = _call(
            player,
            "POST",
            f"{site}/challenges",
            201,
            {"title": "Fuzz night", "table": "popular", "days": 2, "turn_seconds": 60},
        )
        self.challenge = challenge["code"]
        on_challenge = _call(player, "POST", f"{site}/challenges/{self.challenge}/attempts", 201)
        group = _call(player, "POST", f"{site}/groups", 201, {"name": "Fuzz crew"})
        self.group = group["code"]
        for friend in friends:
            _call(friend, "POST", f"{site}/groups/{self.group}/members", 200)
        members = _call(player, "GET", f"{site}/groups/{self.group}/members", 200)
        others = [m["id"] for m in members if not m["me"]]
        self.member, removed = others
        _call(player, "DELETE", f"{site}/groups/{self.group}/members/{removed}", 204)
        self.removed = removed
        # Finished (its analysis answers), in play (its coach answers), and on a timed challenge.
        self.attempts = [official["id"], practice["id"], on_challenge["id"]]

    def path_parameters(self, path: str, draw: int) -> dict:
        """Real values for the path's parameters (``draw`` picks among the attempts)."""
        values = {
            "attempt_id": self.attempts[draw % len(self.attempts)],
            "code": self.group if path.startswith("/api/groups/") else self.challenge,
            "day": self.day,
            "player_id": self.removed if "/removed/" in path else self.member,
        }
        return {name: values[name] for name in values if "{" + name + "}" in path}


@pytest.fixture
def world(live_site) -> Iterator[tuple[World, requests.Session]]:
    """A logged-in player (an account) with real ids, and its browser session."""
    player = _browser(live_site)
    friends = [_browser(live_site), _browser(live_site)]
    try:
        yield World(live_site, player, friends), player
    finally:
        # A kept-alive connection would keep a server thread, and its database connection, open.
        for browser in (player, *friends):
            browser.close()


def _operations() -> list[tuple[str, GenerationMode]]:
    """Every operation of the schema the site serves, as "METHOD /path", with valid input, and
    with invalid input wherever it takes any: an operation without parameters or body (GET
    /api/rules, POST /api/auth/logout...) has none to make invalid, and Schemathesis can only
    answer Unsatisfiable (read at collection)."""
    from drf_spectacular.generators import SchemaGenerator

    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    cases = []
    for path, operations in sorted(paths.items()):
        for method, operation in sorted(operations.items()):
            label = f"{method.upper()} {path}"
            cases.append((label, GenerationMode.POSITIVE))
            if operation.get("parameters") or operation.get("requestBody"):
                cases.append((label, GenerationMode.NEGATIVE))
    return cases


@pytest.fixture
def api_schema(live_site):
    """The schema as the live server serves it."""
    return schemathesis.openapi.from_url(f"{live_site}/api/schema/?format=json")


@pytest.mark.parametrize(("label", "mode"), _operations())
def test_api_answers_only_as_documented(label, mode, api_schema, world, live_site):
    operation = api_schema.find_operation_by_label(label)
    assert operation is not None, label
    known, session = world
    path = label.split(" ", 1)[1]

    @given(case=operation.as_strategy(generation_mode=mode), draw=st.integers(0, 5))
    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    def fuzz(case, draw) -> None:
        # Most requests name what the player has (the rest keep the generated, mostly unknown,
        # ids): valid input then reaches a real game, and invalid input a real game's checks.
        real = draw % 3 != 2 and "{" in path
        if real:
            case.path_parameters = {**case.path_parameters, **known.path_parameters(path, draw)}
            # A verification's game too (a valid query only: an invalid one stays as generated).
            if mode == GenerationMode.POSITIVE and "attempt" in (case.query or {}):
                case.query = {**case.query, "attempt": known.attempts[draw % len(known.attempts)]}
        response = case.call_and_validate(base_url=live_site, session=session, checks=CHECKS)
        _keep_csrf(session)
        if real:
            reached.append(response.status_code)

    reached: list[int] = []
    fuzz()
    if "{" in path:
        # The real ids were used and found (a later request may find a group closed or recoded
        # by an earlier one, never all of them).
        assert reached and set(reached) != {404}, reached


def test_every_operation_documents_its_errors_with_the_error_body(client):
    document = client.get("/api/schema/?format=json").json()
    error = document["components"]["schemas"]["Error"]
    assert set(error["required"]) == {"detail", "code"}
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            expected = {"503"}
            if method in ("post", "patch"):
                expected |= {"400", "403"}
            if "{" in path:
                expected.add("404")
            assert expected <= responses.keys(), (method, path, sorted(responses))
            for status in expected:
                schema = responses[status]["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/Error"}, (method, path, status)
            assert responses["503"]["headers"]["Retry-After"]["required"] is True
    throttled = document["paths"]["/api/auth/login"]["post"]["responses"]["429"]
    assert throttled["headers"]["Retry-After"]["required"] is True
