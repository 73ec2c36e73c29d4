"""A reconcile whose worker is killed with kill -9 mid-task is redelivered to another worker
within the broker's visibility timeout, and runs (issue 10 item 10). The timeout is made short
through the environment; production's stays minutes, below the tasks' expiry."""

import contextlib
import datetime
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest
import time_machine
from celery import Celery
from django.conf import settings

from farkle_site.celery import RECONCILE_EXPIRES, app
from play.models import Puzzle
from tests.clock import processes_start_at
from tests.helpers import REDIS
from tests.processes import shared_database_url

from .helpers import start_daily

ROOT = Path(__file__).resolve().parents[2]
# The workers' clocks start after the close the task is given: a rollover as of a later instant
# than the clock is refused.
WORKERS_START = datetime.datetime(2026, 11, 30, 0, 1, 30, tzinfo=datetime.UTC)


def _worker(queue: str, name: str) -> subprocess.Popen:
    with processes_start_at(WORKERS_START):
        env = {
            **os.environ,
            "DATABASE_URL": shared_database_url(),
            "CELERY_BROKER_URL": REDIS,
            "CELERY_RESULT_BACKEND": REDIS,
            "FARKLE_FIRST_DAY": "2026-11-29",
            "CELERY_VISIBILITY_TIMEOUT": "2",
        }
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "farkle_site", "worker", "--pool", "solo",
         "--queues", queue, "--hostname", f"{name}-{queue}@%h", "--without-mingle",
         "--without-gossip", "--loglevel", "WARNING"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip


def test_a_lost_reconcile_is_redelivered_before_it_expires():
    timeout = settings.BROKER_VISIBILITY_TIMEOUT
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] == timeout
    assert 300 < timeout <= 10 * 60
    for entry in app.conf.beat_schedule.values():
        assert entry["options"]["expires"] == RECONCILE_EXPIRES >= 2 * timeout


@pytest.mark.django_db(transaction=True)
def test_reconcile_of_a_killed_worker_runs_on_the_next_one(client):
    with time_machine.travel(datetime.datetime(2026, 11, 29, 12, tzinfo=datetime.UTC), tick=False):
        start_daily(client, "2026-11-29")
    queue = f"test-{uuid.uuid4().hex[:12]}"
    # The first worker takes the task and stops inside it, behind a lock on the puzzles.
    blocker = psycopg.connect(shared_database_url())
    blocker.execute("LOCK TABLE daily_puzzle IN ACCESS EXCLUSIVE MODE")
    first = _worker(queue, "first")
    second = None
    try:
        sender = Celery("farkle-test", broker=REDIS, backend=REDIS)
        # Sent at the workers' clock: the expiry is an instant, counted from the sender's.
        with time_machine.travel(WORKERS_START, tick=False):
            result = sender.send_task(
                "daily.reconcile",
                kwargs={"at": "2026-11-30T00:01:30+00:00"},
                queue=queue,
                expires=RECONCILE_EXPIRES,
            )
        watcher = psycopg.connect(shared_database_url(), autocommit=True)
        waited = 0
        while not watcher.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            " AND datname = current_database()"
        ).fetchone()[0]:
            assert first.poll() is None, "the first worker stopped by itself"
            waited += 1
            assert waited < 1200, "the first worker never took the task"
            with contextlib.suppress(subprocess.TimeoutExpired):
                first.wait(timeout=0.05)
        watcher.close()
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=30)
        blocker.rollback()
        second = _worker(queue, "second")
        report = result.get(timeout=90)
    finally:
        blocker.close()
        if first.poll() is None:
            first.kill()
        if second is not None:
            second.terminate()
            second.wait(timeout=60)
    assert report == {
        "published": ["daily 2026-11-30", "daily 2026-12-01"],
        "closed": [{"puzzle": "daily 2026-11-29", "finalised": 1, "players": 1}],
        "rated": ["daily 2026-11-29: 1 rated"],
    }
    assert Puzzle.objects.get(day="2026-11-29").closed_at is not None
