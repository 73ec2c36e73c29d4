"""The rollover task on a real Celery worker, through the real Redis broker, on Postgres."""

import datetime

import pytest
import time_machine
from celery import Celery

from daily.tasks import reconcile_task
from farkle_site.celery import app
from play.models import Attempt, Puzzle
from tests.clock import processes_start_at
from tests.helpers import REDIS
from tests.processes import celery_worker

from .helpers import start_daily

# The worker's clock starts at the close of the 29th and runs on: a rollover as of a later
# instant than the clock is refused.
WORKER_START = datetime.datetime(2026, 11, 30, 0, 1, 30, tzinfo=datetime.UTC)


@pytest.fixture
def worker_queue():
    """A Celery worker process on its own queue, using the test database; stopped afterwards."""
    # The site's first day: a reconcile opens every missing day since.
    with (
        processes_start_at(WORKER_START),
        celery_worker(
            CELERY_BROKER_URL=REDIS, CELERY_RESULT_BACKEND=REDIS, FARKLE_FIRST_DAY="2026-11-29"
        ) as queue,
    ):
        yield queue


@pytest.mark.django_db(transaction=True)
def test_rollover_task_runs_on_a_real_worker(client, worker_queue):
    with time_machine.travel(datetime.datetime(2026, 11, 29, 12, tzinfo=datetime.UTC), tick=False):
        start_daily(client, "2026-11-29")
    sender = Celery("farkle-test", broker=REDIS, backend=REDIS)
    # An hour ahead of the worker's clock: refused, nothing closed.
    early = sender.send_task(
        "daily.reconcile", kwargs={"at": "2026-11-30T01:01:30+00:00"}, queue=worker_queue
    )
    with pytest.raises(ValueError, match=r"^Refused: 2026-11-30T01:01:30Z is later than now"):
        early.get(timeout=120)
    assert Puzzle.objects.get(day="2026-11-29").closed_at is None
    result = sender.send_task(
        "daily.reconcile", kwargs={"at": "2026-11-30T00:01:30+00:00"}, queue=worker_queue
    )
    report = result.get(timeout=120)
    assert report == {
        "published": ["daily 2026-11-30", "daily 2026-12-01"],
        "closed": [{"puzzle": "daily 2026-11-29", "finalised": 1, "players": 1}],
        "rated": ["daily 2026-11-29: 1 rated"],
    }
    assert Puzzle.objects.get(day="2026-11-29").closed_at is not None
    assert Attempt.objects.get().finalised_at_close
    # As the beat sends it: at the worker's own clock.
    again = sender.send_task("daily.reconcile", queue=worker_queue)
    assert again.get(timeout=120) == {"published": [], "closed": [], "rated": []}


def test_rollover_task_is_safe_to_redeliver():
    assert (
        reconcile_task.name,
        reconcile_task.acks_late,
        reconcile_task.reject_on_worker_lost,
    ) == (
        "daily.reconcile",
        True,
        True,
    )


def test_beat_schedule_is_in_utc_at_midnight_and_after_the_grace():
    schedule = app.conf.beat_schedule
    assert (app.conf.enable_utc, app.conf.timezone) == (True, "UTC")
    midnight, close = schedule["open-the-new-day"]["schedule"], schedule["close-yesterday"]
    assert (midnight.hour, midnight.minute) == ({0}, {0})
    assert (close["schedule"].hour, close["schedule"].minute) == ({0}, {2})
    assert {entry["task"] for entry in schedule.values()} == {"daily.reconcile"}
    assert schedule["reconcile"]["schedule"] == 300
