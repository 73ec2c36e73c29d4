"""Issue 10: no response to anyone, before a puzzle closes, carries a throw of that puzzle beyond
the throws the requester's own official attempt has rolled.

A crawler over the API: a player with an official game in progress, one who has finished and
practises, and a stranger each call every read that could show dice (the day, by date and as
today, the leaderboards, every attempt by id, the verification with and without every attempt,
the challenge's endpoints, me), and every answer given during play is kept too. Each throw in
each answer is compared with the puzzle's own roll vectors, computed here from the puzzle's seed.
"""

from __future__ import annotations

import hashlib
import hmac
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from play.models import Attempt, Puzzle
from tests.daily.helpers import post

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]

DAY = "2026-11-29"
PuzzleKey = tuple[str, str]


def secret() -> bytes:
    return settings.FARKLE_SEED_SECRET.encode()


def vector(seed: bytes, turn: int, roll: int) -> list[int]:
    """The roll vector (docs/fairness.md), in the standard library as the README writes it."""
    found, block = [], 0
    while len(found) < 6:
        digest = hmac.new(seed, f"roll:{turn}:{roll}:{block}".encode(), hashlib.sha256).digest()
        found += [b % 6 + 1 for b in digest if b < 252]
        block += 1
    return found[:6]


def puzzle_seed(key: PuzzleKey) -> bytes:
    kind, name = key
    message = f"daily:{name}" if kind == "daily" else f"challenge:{name}"
    return hmac.new(secret(), message.encode(), hashlib.sha256).digest()


def own_seed(attempt_id: int) -> bytes:
    return hmac.new(secret(), f"practice:{attempt_id}".encode(), hashlib.sha256).digest()


def found_throws(body: Any, attempt_id: int | None = None) -> Iterator[tuple[int, int, int, list]]:
    """Every throw in an answer, as (attempt id, turn, roll, dice), whatever its shape."""
    if isinstance(body, list):
        for item in body:
            yield from found_throws(item, attempt_id)
        return
    if not isinstance(body, dict):
        return
    if "id" in body and ("turns" in body or "throws" in body):
        attempt_id = body["id"]
    if {"turn", "roll", "dice"} <= body.keys() and body["dice"]:
        yield attempt_id, body["turn"], body["roll"], body["dice"]
    for turn in body.get("turns") or []:
        for roll, throw in enumerate(turn["throws"], start=1):
            yield attempt_id, turn["turn"], roll, throw["dice"]
    for value in body.values():
        if isinstance(value, dict | list):
            yield from found_throws(value, attempt_id)


class Crawler:
    """Every answer each player got, with what their own official games had rolled by then."""

    def __init__(self) -> None:
        self.answers: list[tuple[str, str, Any, dict[PuzzleKey, frozenset]]] = []
        self.official: dict[str, dict[PuzzleKey, int]] = defaultdict(dict)
        self.rolled: dict[str, dict[PuzzleKey, set]] = defaultdict(lambda: defaultdict(set))

    def call(self, who: str, client: Client, url: str, data: Any = None, *, method="get"):
        response = client.get(url) if method == "get" else post(client, url, data)
        assert response.status_code < 500, (url, response.status_code)
        body = response.json() if response["Content-Type"].startswith("application/json") else {}
        if method == "post" and response.status_code == 201 and body.get("official"):
            ref = body["puzzle"]
            key = (ref["kind"], ref.get("date") or ref.get("code"))
            self.official[who][key] = body["id"]
        mine = {attempt_id: key for key, attempt_id in self.official[who].items()}
        for attempt_id, turn, roll, _ in found_throws(body):
            if attempt_id in mine:
                self.rolled[who][mine[attempt_id]].add((turn, roll))
        seen = {key: frozenset(rolled) for key, rolled in self.rolled[who].items()}
        self.answers.append((who, url, body, seen))
        return body

    def act(self, who: str, client: Client, attempt: dict, action: dict) -> dict:
        url = f"/api/attempts/{attempt['id']}/actions"
        return self.call(who, client, url, {"step": attempt["step"], **action}, method="post")

    def play(self, who, client, attempt, *, bank_at: int, turns: int = 10) -> dict:
        """Keep the best option; bank once ``bank_at`` is held; stop before turn ``turns + 1``."""
        while attempt["state"] != "finished" and attempt["turn"] <= turns:
            if attempt["state"] == "awaiting_roll":
                if attempt["turn"] == turns and attempt["roll"] == 0 and turns < 10:
                    return self.act(who, client, attempt, {"action": "roll"})
                attempt = self.act(who, client, attempt, {"action": "roll"})
                continue
            best = max(attempt["keep_options"], key=lambda o: (o["score"], -len(o["dice"])))
            then = "bank" if attempt["turn_points"] + best["score"] >= bank_at else "roll"
            keep = {"action": "keep", "dice": best["dice"], "then": then}
            attempt = self.act(who, client, attempt, keep)
        return attempt


def test_no_answer_shows_an_open_puzzles_throw_before_its_player_rolled_it(client):
    crawl = Crawler()
    playing, finished, stranger = Client(), client, Client()
    daily: PuzzleKey = ("daily", DAY)
    # The finisher banks at the first keep of every turn: its official game throws once a turn,
    # so its practice games, which roll on, reach throws the official game never saw.
    start = crawl.call("finished", finished, f"/api/daily/{DAY}/attempts", method="post")
    crawl.play("finished", finished, start, bank_at=0)
    practice = crawl.call("finished", finished, f"/api/daily/{DAY}/attempts", method="post")
    practice = crawl.play("finished", finished, practice, bank_at=1500)
    half = crawl.call("finished", finished, "/api/daily/today/attempts", method="post")
    crawl.play("finished", finished, half, bank_at=1500, turns=4)
    # The challenge, the same way.
    made = crawl.call("finished", finished, "/api/challenges", {"days": 3}, method="post")
    code = made["code"]
    challenge: PuzzleKey = ("challenge", code)
    start = crawl.call("finished", finished, f"/api/challenges/{code}/attempts", method="post")
    crawl.play("finished", finished, start, bank_at=0)
    again = crawl.call("finished", finished, f"/api/challenges/{code}/attempts", method="post")
    crawl.play("finished", finished, again, bank_at=1500)
    # The player in the middle of an official game on both, who would like a peek.
    for base in (f"/api/daily/{DAY}", f"/api/challenges/{code}"):
        start = crawl.call("playing", playing, f"{base}/attempts", method="post")
        crawl.play("playing", playing, start, bank_at=0, turns=4)
        crawl.call("playing", playing, f"{base}/attempts", method="post")  # refused: 409

    attempt_ids = list(Attempt.objects.values_list("id", flat=True))
    reads = [
        "/api/daily/today",
        f"/api/daily/{DAY}",
        "/api/daily/2026-11-30",
        "/api/daily/today/leaderboard",
        f"/api/daily/{DAY}/leaderboard",
        f"/api/daily/{DAY}/leaderboard?accounts=true",
        f"/api/verify/daily/{DAY}",
        f"/api/challenges/{code}",
        f"/api/challenges/{code}/leaderboard",
        f"/api/verify/challenges/{code}",
        "/api/me",
        "/api/me/challenges",
    ]
    for attempt_id in attempt_ids:
        reads += [
            f"/api/attempts/{attempt_id}",
            # Issue 12: the analysis (bots' games included) and the coach.
            f"/api/attempts/{attempt_id}/analysis",
            f"/api/attempts/{attempt_id}/coach",
            f"/api/verify/daily/{DAY}?attempt={attempt_id}",
            f"/api/verify/challenges/{code}?attempt={attempt_id}",
        ]
    for who, browser in (("playing", playing), ("finished", finished), ("stranger", stranger)):
        for url in reads:
            crawl.call(who, browser, url)

    practice_ids = set(Attempt.objects.filter(official=False).values_list("id", flat=True))
    puzzle_of = {
        a.id: (a.puzzle.kind, a.puzzle.day.isoformat() if a.puzzle.day else a.puzzle.code)
        for a in Attempt.objects.select_related("puzzle")
    }
    vectors = {key: {} for key in (daily, challenge)}
    leaks, checked, practice_throws = [], 0, 0
    for who, url, body, seen in crawl.answers:
        for attempt_id, turn, roll, dice in found_throws(body):
            assert attempt_id in puzzle_of, (url, body)
            key = puzzle_of[attempt_id]
            if (turn, roll) not in vectors[key]:
                vectors[key][turn, roll] = vector(puzzle_seed(key), turn, roll)
            checked += 1
            if attempt_id in practice_ids:
                practice_throws += 1
                # Dice of its own, committed to at its start: they tell nothing of the puzzle's,
                # even on the rare throw that happens to show the same faces.
                if dice == vector(own_seed(attempt_id), turn, roll)[: len(dice)]:
                    continue
            unseen = (turn, roll) not in seen.get(key, frozenset())
            if unseen and dice == vectors[key][turn, roll][: len(dice)]:
                leaks.append((who, url, key, turn, roll, dice))
    assert leaks == []
    # The crawl saw plenty of dice, practice games' included, and every puzzle is still open.
    assert (checked > 500, practice_throws > 100) == (True, True)
    analysed = [b for _, url, b, _ in crawl.answers if url.endswith("/analysis") and "id" in b]
    assert len(analysed) == 4 and all(b["bots"] for b in analysed)
    assert not Puzzle.objects.filter(closed_at__isnull=False).exists()
    assert crawl.official["stranger"] == {}
    assert set(crawl.official["playing"]) == {daily, challenge}
