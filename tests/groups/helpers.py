"""Groups in tests: players, dailies and official games written straight to the database."""

from __future__ import annotations

import datetime

from django.test import Client

from daily.services.puzzles import daily_get_or_create
from play.models import Attempt, Player, Puzzle
from play.rules.days import day_start
from tests.daily.helpers import post

UTC = datetime.UTC


def make_group(client: Client, name: str = "Lunch crew") -> dict:
    response = post(client, "/api/groups", {"name": name})
    assert response.status_code == 201, response.json()
    return response.json()


def join(client: Client, code: str) -> dict:
    response = post(client, f"/api/groups/{code}/members")
    assert response.status_code == 200, response.json()
    return response.json()


def me_id(client: Client) -> int:
    name = client.get("/api/me").json()["name"]
    return Player.objects.get(display_name=name).pk


def player(name: str) -> Player:
    return Player.objects.create(
        display_name=name, created_at=datetime.datetime(2026, 11, 1, tzinfo=UTC)
    )


def daily(day: datetime.date, now: datetime.datetime) -> Puzzle:
    return daily_get_or_create(day=day, now=now)


def game(
    who: Player,
    puzzle: Puzzle,
    score: int,
    *,
    official: bool = True,
    finished: bool = True,
    minute: int = 0,
    held: bool = False,
) -> Attempt:
    """A game as the attempt services leave it at its end (or in play)."""
    start = day_start(puzzle.day) + datetime.timedelta(hours=1)
    end = start + datetime.timedelta(minutes=10 + minute)
    return Attempt.objects.create(
        player=who,
        puzzle=puzzle,
        official=official,
        state=Attempt.State.FINISHED if finished else Attempt.State.AWAITING_ROLL,
        score=score if finished else 0,
        turn=10 if finished else 1,
        started_at=start,
        updated_at=end,
        finished_at=end if finished else None,
        dice_source="puzzle" if official else "own",
        held=held,
    )
