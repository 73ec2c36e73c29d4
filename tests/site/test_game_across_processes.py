"""One game whose actions two separate web processes serve in turn (play/game_cache.py is a pure
cache): each process answers from the row as it stands, never from a game it remembers, and the
stored actions replay to the game both answered."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

import farkle
from play.models import Attempt
from tests.daily.helpers import greedy_action
from tests.processes import web_server


class _Browser:
    """A browser's cookies (kept by hand: the production cookies are Secure, and the servers
    speak plain HTTP here) and its requests, to whichever server it is given."""

    def __init__(self) -> None:
        self.cookies: dict[str, str] = {}

    def request(self, url: str, method: str = "GET", body: dict | None = None) -> tuple[int, dict]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if method != "GET":
            headers["X-CSRFToken"] = self.cookies["csrftoken"]
            headers["Content-Type"] = "application/json"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, content, set_cookies = (
                    response.status,
                    response.read(),
                    response.headers.get_all("Set-Cookie") or [],
                )
        except urllib.error.HTTPError as error:
            status, content, set_cookies = error.code, error.read(), []
        for cookie in set_cookies:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name] = value
        return status, json.loads(content)


@pytest.mark.django_db(transaction=True)
def test_one_game_served_alternately_by_two_processes_replays_to_what_both_answered():
    # One sync worker each: every request of a server goes to the same process.
    single = {"WEB_CONCURRENCY": "1", "WEB_THREADS": "1"}
    with web_server(**single) as first, web_server(**single) as second:
        browser = _Browser()
        status, today = browser.request(f"{first}/api/daily/today")
        assert status == 200
        status, attempt = browser.request(f"{second}/api/daily/today/attempts", "POST")
        assert status == 201, attempt
        servers = [first, second]
        answers = 0
        while attempt["state"] != "finished":
            server = servers[answers % 2]
            body = {"step": attempt["step"], **greedy_action(attempt)}
            status, answer = browser.request(
                f"{server}/api/attempts/{attempt['id']}/actions", "POST", body
            )
            assert (status, answer["step"]) == (200, attempt["step"] + 1), answer
            attempt = answer
            answers += 1
        # Each process read the other's last write: a read of either shows the finished game.
        for server in servers:
            status, read = browser.request(f"{server}/api/attempts/{attempt['id']}")
            assert (status, read["score"], read["step"]) == (200, attempt["score"], answers)

    stored = Attempt.objects.select_related("puzzle").get(pk=attempt["id"])
    replayed = farkle.Game.replay(
        stored.seed(), stored.actions, stored.puzzle.table, stored.puzzle.rules()
    )
    assert (stored.step, stored.score, len(stored.actions)) == (answers, attempt["score"], answers)
    assert (replayed.score, replayed.finished) == (attempt["score"], True)
    assert answers > 2 and today["date"] == attempt["puzzle"]["date"]
