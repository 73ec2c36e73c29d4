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
