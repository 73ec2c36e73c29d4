"""A game action served without DRF's request and response objects (farkle_site.drf.PlainJsonPost,
issue 15): every case is sent both ways, through the lane and through DRF alone (the lane closed),
and the two answers must be the same: status, headers, cookies and body."""

from __future__ import annotations

import contextlib
import datetime
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured
from django.db import OperationalError
from django.test import Client, override_settings
from rest_framework.views import APIView

from daily.apis import attempts as attempts_api
from farkle_site import drf
from play.apis import puzzles as puzzles_api
from play.models import Attempt
from tests.daily.helpers import act, greedy_action, play_greedy, post, start_daily
from tests.helpers import rates
from tests.moments import NOON

pytestmark = pytest.mark.django_db

Answer = tuple[int, dict[str, str], Any]


def _normal(value: Any) -> Any:
    """The body with what differs between two players' identical games (their attempts' ids)
    replaced by a mark."""
    if isinstance(value, dict):
        return {k: "<id>" if k == "id" else _normal(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_normal(v) for v in value]
    return value


def _answer(response) -> Answer:
    body = response.content
    with contextlib.suppress(ValueError):
        body = _normal(json.loads(body))
    headers = dict(response.headers)
    # The attempts' ids differ in their digits: the length is checked, not compared (a HEAD's
    # is its GET's).
    length = int(headers.pop("Content-Length", len(response.content)))
    assert response.request["REQUEST_METHOD"] == "HEAD" or length == len(response.content)
    # The cookies set, with their attributes (their values are each browser's own secrets).
    for name, cookie in response.cookies.items():
        headers[f"cookie {name}"] = sorted((k, v) for k, v in cookie.items() if v)
    return response.status_code, headers, body


def _csrf_client() -> Client:
    client = Client(enforce_csrf_checks=True)
    client.get("/api/daily/today")
    client.defaults["HTTP_X_CSRFTOKEN"] = client.cookies["csrftoken"].value
    return client


def _both_ways(
    monkeypatch, scenario: Callable[[], list], normal: Callable[[Answer], Answer] = lambda a: a
) -> list[Answer]:
    """The scenario's answers through the lane, checked equal to its answers through DRF alone
    (each run with browsers, players and games of its own on the same dice), once ``normal``
    has marked what differs between two such runs."""
    seen = []
    for lane in (True, False):
        monkeypatch.setattr(drf, "_LANE_OPEN", lane)
        seen.append([normal(_answer(response)) for response in scenario()])
    through_lane, through_drf = seen
    assert len(through_lane) == len(through_drf)
    for number, (mine, theirs) in enumerate(zip(through_lane, through_drf, strict=True)):
        assert mine == theirs, f"answer {number}: {_difference(mine, theirs)}"
    return through_lane


def _codes(answers: list[Answer]) -> list[tuple[int, str | None]]:
    """Each answer's status, with its refusal's code."""
    return [(status, body.get("code") if status >= 400 else None) for status, _, body in answers]


def _difference(mine: Answer, theirs: Answer) -> str:
    if mine[0] != theirs[0]:
        return f"status {mine[0]} through the lane, {theirs[0]} through DRF"
    for name, (a, b) in (("header", (mine[1], theirs[1])), ("field", (mine[2], theirs[2]))):
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(a.keys() | b.keys()):
                if a.get(key) != b.get(key):
                    return (
                        f"{name} {key}: {a.get(key)!r} through the lane, {b.get(key)!r} through DRF"
                    )
    return f"bodies {mine[2]!r} and {theirs[2]!r}"


def _next(attempt: dict) -> dict:
    """A valid next action of the attempt."""
    if attempt["state"] == "awaiting_roll":
        return {"action": "roll"}
    return {"action": "keep", "dice": attempt["keep_options"][0]["dice"], "then": "roll"}


def _url(attempt: dict) -> str:
    return f"/api/attempts/{attempt['id']}/actions"


def test_a_whole_game_and_an_action_after_it_answer_alike(monkeypatch, clock):
    def scenario():
        client = _csrf_client()
        attempt = start_daily(client, "today")
        responses = []
        while attempt["state"] != "finished":
            response = act(client, attempt, greedy_action(attempt, bank_at=350))
            responses.append(response)
            attempt = response.json()
        responses.append(act(client, attempt, {"action": "roll"}))
        return responses

    answers = _both_ways(monkeypatch, scenario)
    assert [status for status, _, _ in answers[:-1]] == [200] * (len(answers) - 1)
    assert answers[-1][0] == 409 and answers[-1][2]["code"] == "finished"
    assert answers[-2][2]["state"] == "finished"


def test_refusals_answer_alike(monkeypatch, clock):
    def scenario():
        client = _csrf_client()
        attempt = start_daily(client, "today")
        url = _url(attempt)
        responses = [
            # A keep before the roll; then the roll, and the same roll again (a double click).
            act(client, attempt, {"action": "keep", "dice": [0], "then": "bank"}),
            act(client, attempt, {"action": "roll"}),
            act(client, attempt, {"action": "roll"}),
        ]
        rolled = responses[1].json()
        responses += [
            # Dice the throw does not have, a keep that scores nothing, a step from the future.
            act(client, rolled, {"action": "keep", "dice": [0, 0], "then": "roll"}),
            act(client, rolled, {"action": "keep", "dice": [], "then": "roll"}),
            post(client, url, {"step": rolled["step"] + 5, "action": "roll"}),
        ]
        # Another browser's player, and a browser without one, on this game; a game that is not.
        stranger = _csrf_client()
        start_daily(stranger, "today")
        responses.append(act(stranger, rolled, {"action": "roll"}))
        responses.append(act(_csrf_client(), rolled, {"action": "roll"}))
        responses.append(
            post(client, "/api/attempts/999999/actions", {"step": 0, "action": "roll"})
        )
        return responses

    answers = _both_ways(monkeypatch, scenario)
    codes = [(status, body["code"]) for status, _, body in answers if status != 200]
    assert codes[0] == (409, "wrong_state")
    assert (409, "stale_step") in codes
    assert codes[-3:] == [(404, "not_found")] * 3


def test_what_the_lane_leaves_to_drf_answers_alike(monkeypatch, clock):
    def scenario():
        client = _csrf_client()
        attempt = start_daily(client, "today")
        url = _url(attempt)
        # DRF's serializer takes a step written as a string: the lane leaves it to DRF.
        rolled = post(client, url, {"step": "0", "action": "roll"})
        keep = {"action": "keep", "dice": rolled.json()["keep_options"][0]["dice"], "then": "roll"}
        responses = [
            rolled,
            post(client, url, {"step": 1, "action": "keep", "dice": [9], "then": "roll"}),
            post(client, url, {"step": 1, "action": "keep", "dice": [0]}),
            post(client, url, [{"step": 1, "action": "roll"}]),
            client.post(url, "", content_type="application/json"),
            client.post(url, '{"step": NaN, "action": "roll"}', content_type="application/json"),
            client.post(url, b'\xef\xbb\xbf{"step": 1}', content_type="application/json"),
            client.post(
                url, "step=1&action=roll", content_type="application/x-www-form-urlencoded"
            ),
            post(client, url, {"step": 1, "action": "roll"}, HTTP_ACCEPT="text/html"),
            client.get(url),
            client.options(url),
            # A field DRF's serializer ignores: the roll is then refused for the game's state.
            post(client, url, {"step": 1, "action": "roll", "extra": 1}),
            post(client, f"{url}?format=json", {"step": 1, **keep}),
        ]
        # And a plain one at last: the refusals counted nothing and stored nothing.
        return [*responses, act(client, responses[-1].json(), _next(responses[-1].json()))]

    answers = _both_ways(monkeypatch, scenario)
    assert _codes(answers) == [
        (200, None),
        (400, "invalid_dice"),
        (400, "invalid_action"),
        (400, "invalid"),
        (400, "invalid"),
        (400, "parse_error"),
        (400, "parse_error"),
        (415, "unsupported_media_type"),
        (406, "not_acceptable"),
        (405, "method_not_allowed"),
        (200, None),
        (409, "wrong_state"),
        (200, None),
        (200, None),
    ]


def test_a_forged_request_and_a_genuine_one_answer_alike(monkeypatch, clock):
    def scenario():
        client = _csrf_client()
        attempt = start_daily(client, "today")
        token = client.defaults.pop("HTTP_X_CSRFTOKEN")
        forged = act(client, attempt, {"action": "roll"})
        client.defaults["HTTP_X_CSRFTOKEN"] = "x" * 64
        wrong = act(client, attempt, {"action": "roll"})
        client.defaults["HTTP_X_CSRFTOKEN"] = token
        return [forged, wrong, act(client, attempt, {"action": "roll"})]

    answers = _both_ways(monkeypatch, scenario)
    assert [(status, body.get("code")) for status, _, body in answers[:2]] == [
        (403, "forbidden")
    ] * 2
    assert answers[2][0] == 200


def test_an_account_whose_login_no_longer_holds_answers_alike(monkeypatch, clock):
    # Reading the user checks the session's login against the account (Django flushes a
    # session whose password changed since): the player goes with it.
    def scenario():
        client = _csrf_client()
        name = f"lane{User.objects.count()}"
        signed = post(client, "/api/auth/signup", {"username": name, "password": "A-long-pass-9"})
        assert signed.status_code == 201, signed.json()
        client.defaults["HTTP_X_CSRFTOKEN"] = client.cookies["csrftoken"].value
        attempt = start_daily(client, "today")
        rolled = act(client, attempt, {"action": "roll"})
        user = User.objects.get(username=name)
        user.set_password("Another-long-pass-9")
        user.save()
        return [rolled, act(client, rolled.json(), _next(rolled.json()))]

    answers = _both_ways(monkeypatch, scenario)
    assert [(status, body.get("code")) for status, _, body in answers] == [
        (200, None),
        (404, "not_found"),
    ]


def test_a_body_over_the_limit_and_a_trusted_origin_answer_alike(monkeypatch, clock, settings):
    def scenario():
        client = _csrf_client()
        attempt = start_daily(client, "today")
        url = _url(attempt)
        padded = '{"step": 0, "action": "roll"}' + " " * settings.API_MAX_BODY_BYTES
        responses = [client.post(url, padded, content_type="application/json")]
        # An origin trusted, then no longer: the check reads the settings at each request.
        origin = {"HTTP_ORIGIN": "https://friend.example"}
        with override_settings(CSRF_TRUSTED_ORIGINS=["https://friend.example"]):
            responses.append(post(client, url, {"step": 0, "action": "roll"}, **origin))
        rolled = responses[-1].json()
        responses.append(post(client, url, {"step": 1, **_next(rolled)}, **origin))
        return responses

    answers = _both_ways(monkeypatch, scenario)
    assert [(status, body.get("code")) for status, _, body in answers] == [
        (400, "parse_error"),
        (200, None),
        (403, "forbidden"),
    ]
    assert "Origin checking failed" in answers[2][2]["detail"]


def test_a_view_of_the_lane_counts_with_the_session_and_defines_its_two_methods():
    with pytest.raises(ImproperlyConfigured, match="SessionCountedThrottles"):

        class Alone(drf.PlainJsonPost, APIView):
            pass

    with pytest.raises(ImproperlyConfigured, match="defines plain_post"):

        class Half(drf.PlainJsonPost, drf.SessionCountedThrottles, APIView):
            plain_data = staticmethod(attempts_api.plain_action)


def test_a_throttled_action_answers_alike(monkeypatch, clock, shared_redis):
    def scenario():
        client = _csrf_client()
        attempt = start_daily(client, "today")
        with rates(attempt_act="2/minute"):
            first = act(client, attempt, {"action": "roll"})
            rolled = first.json()
            keep = rolled["keep_options"][0]["dice"]
            second = act(client, rolled, {"action": "keep", "dice": keep, "then": "roll"})
            third = act(client, second.json(), {"action": "roll"})
        return [first, second, third]

    answers = _both_ways(monkeypatch, scenario)
    assert [status for status, _, _ in answers] == [200, 200, 429]
    assert answers[2][1]["Retry-After"] and answers[2][2]["code"] == "throttled"


def test_a_lost_database_and_a_bug_answer_alike(monkeypatch, clock):
    def lost(**kwargs):
        raise OperationalError("the connection was lost")

    def scenario():
        client = _csrf_client()
        attempt = start_daily(client, "today")
        with monkeypatch.context() as patch:
            patch.setattr(attempts_api, "attempt_act", lost)
            return [act(client, attempt, {"action": "roll"})]

    ((status, headers, body),) = _both_ways(monkeypatch, scenario)
    assert (status, body["code"], headers["Retry-After"]) == (503, "unavailable", "30")

    def bug(**kwargs):
        raise RuntimeError("a bug")

    def not_drf(self, request, *args, **kwargs):
        raise AssertionError("the lane was to serve this")

    for lane in (True, False):
        monkeypatch.setattr(drf, "_LANE_OPEN", lane)
        client = _csrf_client()
        attempt = start_daily(client, "today")
        monkeypatch.setattr(attempts_api, "attempt_act", bug)
        if lane:
            monkeypatch.setattr(APIView, "initial", not_drf)
        with pytest.raises(RuntimeError, match="a bug"):
            act(client, attempt, {"action": "roll"})
        monkeypatch.undo()


def test_a_plain_action_goes_without_drfs_request_and_anything_else_through_it(monkeypatch, clock):
    client = _csrf_client()
    attempt = start_daily(client, "today")
    through_drf = []
    initial = APIView.initial

    def counted(self, request, *args, **kwargs):
        through_drf.append(request.path)
        return initial(self, request, *args, **kwargs)

    monkeypatch.setattr(APIView, "initial", counted)
    rolled = act(client, attempt, {"action": "roll"})
    assert rolled.status_code == 200 and through_drf == []
    assert Attempt.objects.get(pk=attempt["id"]).step == 1
    refused = post(client, _url(attempt), {"step": "one", "action": "roll"})
    assert refused.status_code == 400 and through_drf == [_url(attempt)]
    # A game played to its end the plain way never went through DRF's request.
    play_greedy(client, rolled.json())
    assert through_drf == [_url(attempt)]


# A fresh browser's two requests, GET today and its start (the midnight rush), and a challenge's
# start, take lanes of their own (PlainGet, PlainPostIgnoringBody): the same comparisons.

_TODAY = "/api/daily/today"
_START = "/api/daily/today/attempts"


def _day_normal(answer: Answer) -> Answer:
    """What differs between the two ways' days: how many played (the first way's browsers are
    counted by the second's), the guests' drawn names, and a practice game's own dice."""
    status, headers, body = answer

    def normal(value):
        if isinstance(value, dict):
            marked = {"players", "player", "attempt_id"}
            if value.get("official") is False:
                marked.add("commitment")
            return {key: "<n>" if key in marked else normal(item) for key, item in value.items()}
        if isinstance(value, list):
            return [normal(item) for item in value]
        return value

    return status, headers, normal(body)


def test_a_fresh_browser_and_its_return_answer_alike(monkeypatch, clock):
    def scenario():
        client = Client(enforce_csrf_checks=True)
        today = client.get(_TODAY)
        client.defaults["HTTP_X_CSRFTOKEN"] = client.cookies["csrftoken"].value
        # As the site's script and the rush send it: no body at all.
        official = client.generic("POST", _START)
        responses = [today, official, client.get(_TODAY), post(client, _START)]
        play_greedy(client, official.json())
        return [*responses, post(client, _START), client.get(_TODAY)]

    answers = _both_ways(monkeypatch, scenario, _day_normal)
    assert [(status, body.get("code")) for status, _, body in answers] == [
        (200, None),
        (201, None),
        (200, None),
        # Practice opens once the official game is over.
        (409, "wrong_state"),
        (201, None),
        (200, None),
    ]
    today, official, _, _, practice, last = answers
    # The first answer gives the browser its CSRF and id cookies, the start its session.
    assert {"cookie csrftoken", "cookie farkle_browser"} <= today[1].keys()
    assert "cookie sessionid" in official[1]
    assert official[2]["official"] is True and practice[2]["official"] is False
    assert [a["official"] for a in last[2]["my_attempts"]] == [True, False]


def test_what_the_start_and_today_lanes_leave_to_drf_answer_alike(monkeypatch, clock, settings):
    def scenario():
        client = _csrf_client()
        forger = Client(enforce_csrf_checks=True)
        forger.get(_TODAY)
        return [
            client.get(_TODAY, HTTP_ACCEPT="text/html"),
            client.get(f"{_TODAY}?format=json"),
            client.head(_TODAY),
            client.options(_START),
            post(client, _START, HTTP_ACCEPT="text/html"),
            # A body the start never reads, whatever its type or size: the lane's.
            post(client, _START, {"anything": [1, 2]}),
            client.post(_START, "x" * (settings.API_MAX_BODY_BYTES + 1), content_type="text/plain"),
            post(client, f"{_START}?x=1"),
            post(client, "/api/daily/1999-01-01/attempts"),
            post(client, "/api/daily/not-a-day/attempts"),
            # Without the CSRF token its cookie asks for.
            post(forger, _START),
        ]

    answers = _both_ways(monkeypatch, scenario, _day_normal)
    assert _codes(answers) == [
        (406, "not_acceptable"),
        (200, None),
        (200, None),
        (200, None),
        (406, "not_acceptable"),
        (201, None),
        # The official game is under way: no practice yet.
        (409, "wrong_state"),
        (409, "wrong_state"),
        (404, "not_found"),
        (400, "invalid_date"),
        (403, "forbidden"),
    ]


def test_a_throttled_start_and_a_lost_database_answer_alike(monkeypatch, clock, shared_redis):
    ways = iter(("10.0.0.1", "10.0.0.2"))

    def throttled():
        # A fresh browser's start counts on its address: each way from an address of its own.
        client = Client(enforce_csrf_checks=True, REMOTE_ADDR=next(ways))
        client.get(_TODAY)
        client.defaults["HTTP_X_CSRFTOKEN"] = client.cookies["csrftoken"].value
        with rates(attempt_start="1/minute"):
            # Once it has its player, on the player's counter.
            return [post(client, _START), post(client, _START), post(client, _START)]

    answers = _both_ways(monkeypatch, throttled, _day_normal)
    assert [(status, body.get("code")) for status, _, body in answers] == [
        (201, None),
        (409, "wrong_state"),
        (429, "throttled"),
    ]

    def lost(**kwargs):
        raise OperationalError("the connection was lost")

    def scenario():
        client = _csrf_client()
        with monkeypatch.context() as patch:
            patch.setattr(attempts_api, "player_attempts_on", lost)
            return [client.get(_TODAY)]

    ((status, headers, body),) = _both_ways(monkeypatch, scenario)
    assert (status, body["code"], headers["Retry-After"]) == (503, "unavailable", "30")


def test_an_accounts_day_and_a_challenges_start_answer_alike(monkeypatch, clock):
    def scenario():
        client = _csrf_client()
        name = f"lane{User.objects.count()}"
        signed = post(client, "/api/auth/signup", {"username": name, "password": "A-long-pass-9"})
        assert signed.status_code == 201, signed.json()
        client.defaults["HTTP_X_CSRFTOKEN"] = client.cookies["csrftoken"].value
        made = post(client, "/api/challenges", {"title": "Lanes"})
        start = f"/api/challenges/{made.json()['code']}/attempts"
        # The account's own start, then a fresh browser's on the same challenge.
        guest = _csrf_client()
        return [
            client.get(_TODAY),
            post(client, _START),
            client.get(_TODAY),
            post(client, start),
            post(client, start),
            post(guest, start),
        ]

    def normal(answer: Answer) -> Answer:
        # Each way's challenge has a code and dice of its own.
        status, headers, body = _day_normal(answer)

        def marked(value):
            if isinstance(value, dict):
                return {
                    k: "<c>" if k in ("code", "commitment") else marked(v) for k, v in value.items()
                }
            if isinstance(value, list):
                return [marked(v) for v in value]
            return value

        return status, headers, marked(body) if "challenge" in json.dumps(body) else body

    answers = _both_ways(monkeypatch, scenario, normal)
    assert [(status, body.get("code")) for status, _, body in answers] == [
        (200, None),
        (201, None),
        (200, None),
        (201, None),
        (409, "wrong_state"),
        (201, None),
    ]
    assert answers[2][2]["my_attempts"][0]["official"] is True


def test_the_rushs_two_requests_go_without_drfs_request(monkeypatch, clock):
    through_drf = []
    initial = APIView.initial

    def counted(self, request, *args, **kwargs):
        through_drf.append(request.path)
        return initial(self, request, *args, **kwargs)

    monkeypatch.setattr(APIView, "initial", counted)
    client = Client(enforce_csrf_checks=True)
    assert client.get(_TODAY).status_code == 200
    started = client.generic("POST", _START, HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)
    assert started.status_code == 201 and through_drf == []
    assert Attempt.objects.get(pk=started.json()["id"]).official
    # Another day's page is DRF's still.
    assert client.get("/api/daily/2026-11-28").status_code == 200
    assert through_drf == ["/api/daily/2026-11-28"]


def test_a_view_of_the_get_or_start_lane_defines_its_method():
    with pytest.raises(ImproperlyConfigured, match="defines plain_get"):

        class NoGet(drf.PlainGet, APIView):
            pass

    with pytest.raises(ImproperlyConfigured, match="defines plain_post"):

        class NoPost(drf.PlainPostIgnoringBody, APIView):
            pass


# A leaderboard's page (PlainGet with a query string the view reads, ``leaderboard_query``): the
# same comparisons, on games played once before both ways read them.

_BOARD = "/api/daily/today/leaderboard"


def _played(count: int) -> list[Client]:
    players = []
    for number in range(count):
        client = _csrf_client()
        play_greedy(client, start_daily(client, "today"), bank_at=300 + 150 * number)
        players.append(client)
    return players


def test_a_leaderboards_pages_answer_alike(monkeypatch, clock):
    player, *_ = _played(3)
    anonymous = Client()
    # Its cookies given once, before both ways read the same boards.
    anonymous.get(_BOARD)
    signed = _csrf_client()
    made = post(signed, "/api/auth/signup", {"username": "boards", "password": "A-long-pass-9"})
    assert made.status_code == 201, made.json()
    signed.defaults["HTTP_X_CSRFTOKEN"] = signed.cookies["csrftoken"].value
    play_greedy(signed, start_daily(signed, "today"))
    code = post(signed, "/api/challenges", {"title": "Boards"}).json()["code"]
    play_greedy(signed, post(signed, f"/api/challenges/{code}/attempts").json())

    def scenario():
        return [
            anonymous.get(_BOARD),
            anonymous.get(f"{_BOARD}?page=1"),
            anonymous.get(f"{_BOARD}?page=2"),
            anonymous.get(f"{_BOARD}?accounts=1"),
            anonymous.get(f"{_BOARD}?page=1&accounts=true"),
            player.get(f"{_BOARD}?page=1"),
            player.get(f"{_BOARD}?accounts=false&page=1"),
            signed.get(f"{_BOARD}?page=1&accounts=1"),
            signed.get(f"/api/challenges/{code}/leaderboard?page=1"),
            anonymous.get(f"/api/challenges/{code}/leaderboard"),
            # What the lane leaves to DRF.
            anonymous.get(f"{_BOARD}?page=0"),
            anonymous.get(f"{_BOARD}?page=x"),
            anonymous.get(f"{_BOARD}?page=01&page=1"),
            anonymous.get(f"{_BOARD}?accounts=yes"),
            anonymous.get(f"{_BOARD}?page=1&format=json"),
            anonymous.get(f"{_BOARD}?page=1", HTTP_ACCEPT="text/html"),
            anonymous.head(f"{_BOARD}?page=1"),
            anonymous.get("/api/daily/not-a-day/leaderboard?page=1"),
            anonymous.get("/api/daily/2099-01-01/leaderboard?page=1"),
            anonymous.get("/api/challenges/ZZZZZZ/leaderboard?page=1"),
            # A bad day and a bad page: the day's refusal first, either way.
            anonymous.get("/api/daily/not-a-day/leaderboard?page=0"),
        ]

    answers = _both_ways(monkeypatch, scenario)
    assert _codes(answers) == [
        *[(200, None)] * 10,
        (400, "invalid"),
        (400, "invalid"),
        (200, None),
        (200, None),
        (200, None),
        (406, "not_acceptable"),
        (200, None),
        (400, "invalid_date"),
        (404, "not_found"),
        (404, "not_found"),
        (400, "invalid_date"),
    ]
    boards = [body for _, _, body in answers[:10]]
    assert [len(board["entries"]) for board in boards[:5]] == [4, 4, 0, 1, 1]
    assert boards[5]["me"] is not None and boards[7]["me"] is not None
    assert len(boards[8]["entries"]) == 1 and boards[8]["title"] == "Boards"


def test_a_throttled_leaderboard_and_a_lost_database_answer_alike(monkeypatch, clock, shared_redis):
    _played(1)
    code = post(_csrf_client(), "/api/challenges", {"title": "Throttled"}).json()["code"]
    ways = iter(("10.0.0.3", "10.0.0.4"))

    def throttled():
        client = Client(REMOTE_ADDR=next(ways))
        with rates(challenge_lookup="1/minute"):
            board = f"/api/challenges/{code}/leaderboard?page=1"
            return [client.get(board), client.get(board)]

    answers = _both_ways(monkeypatch, throttled)
    assert _codes(answers) == [
        (200, None),
        (429, "throttled"),
    ]

    def lost(**kwargs):
        raise OperationalError("the connection was lost")

    def scenario():
        with monkeypatch.context() as patch:
            patch.setattr(puzzles_api, "leaderboard_page", lost)
            return [Client().get(f"{_BOARD}?page=1")]

    ((status, headers, body),) = _both_ways(monkeypatch, scenario)
    assert (status, body["code"], headers["Retry-After"]) == (503, "unavailable", "30")


def test_a_leaderboards_plain_page_goes_without_drfs_request(monkeypatch, clock):
    _played(1)
    through_drf = []
    initial = APIView.initial

    def counted(self, request, *args, **kwargs):
        through_drf.append(request.get_full_path())
        return initial(self, request, *args, **kwargs)

    monkeypatch.setattr(APIView, "initial", counted)
    client = Client()
    for query in ("", "?page=1", "?page=3&accounts=1"):
        assert client.get(f"{_BOARD}{query}").status_code == 200
    assert through_drf == []
    assert client.get(f"{_BOARD}?page=1&sort=name").status_code == 200
    assert through_drf == [f"{_BOARD}?page=1&sort=name"]


def test_a_leaderboards_games_stay_hidden_until_it_closes_both_ways(monkeypatch, clock):
    player, *_ = _played(2)
    day = NOON.date().isoformat()
    board = f"/api/daily/{day}/leaderboard?page=1"

    def scenario():
        return [player.get(board), Client().get(board)]

    open_answers = _both_ways(monkeypatch, scenario)
    # Another player's game is never named while the day is open (docs/play.md).
    assert all(entry["attempt"] is None for _, _, body in open_answers for entry in body["entries"])
    assert all(body["me"] is None or body["me"]["attempt"] for _, _, body in open_answers)
    clock.shift(datetime.timedelta(days=2))
    # The player's session is kept alive once a day: renewed before both ways read.
    player.get(board)
    closed_answers = _both_ways(monkeypatch, scenario)
    assert _codes(closed_answers) == [(200, None), (200, None)]
    assert all(
        isinstance(entry["attempt"], int)
        for _, _, body in closed_answers
        for entry in body["entries"]
    )
