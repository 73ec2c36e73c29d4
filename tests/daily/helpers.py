"""Playing through the API in tests."""

from __future__ import annotations

from typing import Any

from django.test import Client

from play.selectors.leaderboards import leaderboard_page


def every_page(puzzle, *, size: int, ranked: int, now) -> list:
    """The entries of a puzzle's leaderboard read page by page, ``size`` to a page, one page past
    the ``ranked`` attempts' last (which must be empty)."""
    entries = []
    for page in range(1, -(-ranked // size) + 2):
        entries += leaderboard_page(puzzle=puzzle, page=page, page_size=size, now=now).entries
    return entries


def post(client: Client, url: str, data: Any = None, **extra):
    """POST JSON (or nothing, as the site's scripts send a start: no body, no content type) and
    return the response."""
    if data is None:
        return client.generic("POST", url, **extra)
    return client.post(url, data, content_type="application/json", **extra)


def act(client: Client, attempt: dict, action: dict):
    """Send one action with the attempt's current step."""
    return post(
        client, f"/api/attempts/{attempt['id']}/actions", {"step": attempt["step"], **action}
    )


def greedy_action(attempt: dict, *, bank_at: int = 300) -> dict:
    """The next action of a greedy player: roll, or keep the best-scoring option and bank once
    ``bank_at`` is held."""
    if attempt["state"] == "awaiting_roll":
        return {"action": "roll"}
    best = max(attempt["keep_options"], key=lambda o: (o["score"], -len(o["dice"])))
    then = "bank" if attempt["turn_points"] + best["score"] >= bank_at else "roll"
    return {"action": "keep", "dice": best["dice"], "then": then}


def play_greedy(client: Client, attempt: dict, *, bank_at: int = 300) -> dict:
    """Play the attempt to its end as ``greedy_action`` plays."""
    while attempt["state"] != "finished":
        response = act(client, attempt, greedy_action(attempt, bank_at=bank_at))
        assert response.status_code == 200, response.json()
        attempt = response.json()
    return attempt


def start_daily(client: Client, day: str) -> dict:
    response = post(client, f"/api/daily/{day}/attempts")
    assert response.status_code == 201, response.json()
    return response.json()
