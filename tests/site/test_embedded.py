"""The embedded default (`make run`: SQLite, tasks in-process) plays a day end to end: the hot
paths' hand-written SQL has a portable way for SQLite (issue 15 wrote Postgres-only statements)."""

import json

SCRIPT = r"""
import datetime, json
import django
django.setup()
import time_machine
from django.core.management import call_command
from django.test import Client

call_command("migrate", verbosity=0)

def play(client, attempt):
    while attempt["state"] != "finished":
        if attempt["state"] == "awaiting_roll":
            body = {"step": attempt["step"], "action": "roll"}
        else:
            best = max(attempt["keep_options"], key=lambda o: o["score"])
            then = "bank" if best["can_bank"] else "roll"
            body = {"step": attempt["step"], "action": "keep", "dice": best["dice"], "then": then}
        response = client.post(
            f"/api/attempts/{attempt['id']}/actions", body, content_type="application/json"
        )
        assert response.status_code == 200, response.content
        attempt = response.json()
    return attempt

seen = {}
noon = datetime.datetime(2026, 11, 29, 12, tzinfo=datetime.UTC)
with time_machine.travel(noon, tick=False):
    first, second, late = (Client(HTTP_HOST="localhost") for _ in range(3))
    for client in (first, second):
        play(client, client.post("/api/daily/today/attempts").json())
    # Left unfinished: the close finalises it.
    unfinished = late.post("/api/daily/today/attempts").json()["id"]
    seen["board"] = first.get("/api/daily/today/leaderboard").status_code
    seen["history"] = first.get("/api/me").json()["history"][0]["rank"]
    seen["huge_id"] = first.post(
        "/api/attempts/99999999999999999999999/actions",
        {"step": 0, "action": "roll"},
        content_type="application/json",
    ).status_code
with time_machine.travel(noon + datetime.timedelta(hours=13), tick=False):
    call_command("rollover")
    seen["closed"] = first.get("/api/daily/2026-11-29").json()["status"]
    board = first.get("/api/daily/2026-11-29/leaderboard").json()
    seen["ranked"] = board["total"] if "total" in board else len(board["entries"])
    seen["late"] = late.get(f"/api/attempts/{unfinished}").json()["finalised_at_close"]
    seen["late_history"] = late.get("/api/me").status_code
    from daily.services.puzzles import daily_get_or_create
    for _ in range(2):  # from the database, then from this process's copy
        day = daily_get_or_create(day=noon.date(), now=noon + datetime.timedelta(hours=13))
    seen["closed_at"] = type(day.closed_at).__name__
    # Places within a score, and pages read from them (one entry a page: a place to start from).
    from play.models import Attempt
    from play.selectors.leaderboards import leaderboard_page
    from play.services.foresight import attempt_hold, attempt_release

    def places():
        rows = Attempt.objects.filter(official=True).order_by("id")
        return [list(r) for r in rows.values_list("id", "score", "score_position")]

    def pages():
        return [
            e.attempt
            for n in (1, 2, 3, 4)
            for e in leaderboard_page(puzzle=day, page=n, page_size=1, now=day.closes_at).entries
        ]

    seen["places"], seen["pages"] = places(), pages()
    attempt_hold(attempt_id=seen["places"][0][0])
    seen["held_places"], seen["held_pages"] = places(), pages()
    attempt_release(attempt_id=seen["places"][0][0], now=day.closes_at)
    seen["released_places"] = places()
print(json.dumps(seen))
"""


def test_a_day_plays_and_closes_on_sqlite(run_python, tmp_path):
    env = {
        "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "CELERY_BROKER_URL": "",
    }

    result = run_python("-c", SCRIPT, env=env)

    assert result.returncode == 0, result.stderr[-3000:]
    seen = json.loads(result.stdout.splitlines()[-1])
    assert seen["board"] == 200
    assert seen["history"] in (1, 2)
    assert seen["huge_id"] == 404
    assert seen["closed"] == "closed"
    assert seen["ranked"] == 3
    assert seen["late"] is True
    assert seen["late_history"] == 200
    # The day's counters read by hand-written SQL come back as the ORM gives them.
    assert seen["closed_at"] == "datetime"
    # The two finished games, played alike, share a score: places 1 and 2 in finish order; the
    # close's game, nothing banked, the first of its own. Pages follow the places.
    (first, score, _), (second, same, _), (late, nothing, _) = seen["places"]
    assert (same, nothing) == (score, 0)
    assert seen["places"] == [[first, score, 1], [second, score, 2], [late, 0, 1]]
    assert seen["pages"] == [first, second, late]
    # Held, the first leaves its place to the second; released, it takes it back.
    assert seen["held_places"] == [[first, score, None], [second, score, 1], [late, 0, 1]]
    assert seen["held_pages"] == [second, late]
    assert seen["released_places"] == seen["places"]


BACKFILL = r"""
import datetime, json
import django
django.setup()
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

before = [("daily", "0007_ranks_derived_leaderboard_covering")]
call_command("migrate", "daily", before[0][1], verbosity=0)
apps = MigrationExecutor(connection).loader.project_state(before).apps
Player, Puzzle, Attempt = (apps.get_model("daily", m) for m in ("Player", "Puzzle", "Attempt"))
noon = datetime.datetime(2026, 11, 29, 12, tzinfo=datetime.UTC)
puzzle = Puzzle.objects.create(
    kind="daily", day=noon.date(), commitment="0" * 64,
    opens_at=noon - datetime.timedelta(hours=12), ends_at=noon, closes_at=noon,
)
# (score, minutes after 11:00 it finished or None, official, held), in the order of their ids.
games = [
    (300, 5, True, False), (500, 1, True, False), (300, 2, True, False), (300, 2, True, True),
    (300, None, True, False), (300, 1, False, False), (300, 2, True, False),
]
for n, (score, minute, official, held) in enumerate(games):
    finished = None if minute is None else noon - datetime.timedelta(minutes=60 - minute)
    Attempt.objects.create(
        player=Player.objects.create(display_name=f"Player {n}", created_at=noon),
        puzzle=puzzle, official=official, score=score, held=held,
        state="awaiting_roll" if finished is None else "finished", finished_at=finished,
        started_at=noon, updated_at=noon,
    )
call_command("migrate", verbosity=0)
from play.models import Attempt
print(json.dumps(list(Attempt.objects.order_by("id").values_list("score_position", flat=True))))
"""


def test_the_migration_numbers_the_attempts_already_there_on_sqlite(run_python, tmp_path):
    env = {"DEBUG": "1", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}

    result = run_python("-c", BACKFILL, env=env)

    assert result.returncode == 0, result.stderr[-3000:]
    # The 300s in finish order, the earlier id first at 11:02; a held, an unfinished and a
    # practice game have no place.
    assert json.loads(result.stdout.splitlines()[-1]) == [3, 1, 1, None, None, None, 2]
