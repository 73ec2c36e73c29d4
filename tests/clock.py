"""The suite's clock: every test runs at one frozen instant, never at the real date of the run.

A test that read the real clock would check different dice, a different time left before
00:00 UTC or a different month each day it ran, and fail on some dates only (issue 44). So every
test runs with time frozen (time-machine) at the suite's instant, which is ``NOON`` unless
``FARKLE_TEST_NOW`` names another (ISO 8601, in UTC): ``FARKLE_TEST_NOW=2028-02-29T23:59:59Z
pytest ...`` runs the same tests on a leap day's last second (``tests/sweep.py`` runs the tests
that depend on the date over a year of such instants).

The freeze covers every thread of this process (the live server's too). A Python process a test
starts (gunicorn, a Celery worker, ``make serve``) starts at the test's instant as well and runs
on from it (``process_clock/sitecustomize.py``: such a process waits on timeouts of its own), and
a browser a test drives starts there too (tests/browser/conftest.py). A test that is about the
real clock says so with ``@pytest.mark.real_clock``.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import time_machine

from tests.moments import NOON

# Read by the test run only, never by the site.
SUITE_NOW = "FARKLE_TEST_NOW"
# What a process started by a test reads (process_clock/sitecustomize.py).
PROCESS_START = "FARKLE_TEST_PROCESS_CLOCK"
PROCESS_CLOCK_PATH = str(Path(__file__).resolve().parent / "process_clock")


def parse_instant(text: str) -> datetime.datetime:
    """An instant written in ISO 8601 with its offset (``Z`` for UTC), in UTC."""
    try:
        instant = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(
            f"{text!r} is not an ISO 8601 instant, e.g. 2026-11-29T12:00:00Z"
        ) from None
    if instant.tzinfo is None:
        raise ValueError(f"{text!r} has no offset: write it in UTC, e.g. {text}Z")
    return instant.astimezone(datetime.UTC)


def suite_instant() -> datetime.datetime:
    """The instant every test starts at: ``FARKLE_TEST_NOW`` when set, else ``NOON``."""
    text = os.environ.get(SUITE_NOW, "").strip()
    return parse_instant(text) if text else NOON


@contextmanager
def processes_start_at(instant: datetime.datetime) -> Iterator[None]:
    """Python processes started meanwhile begin at ``instant`` (through their environment)."""
    saved = {name: os.environ.get(name) for name in (PROCESS_START, "PYTHONPATH")}
    # With the real time of now: every process then reads the instant plus the real time gone
    # since, and all of them agree, whenever each started (a server and the bench timing it).
    os.environ[PROCESS_START] = f"{instant.isoformat()} {time_machine.escape_hatch.time.time()}"
    paths = [PROCESS_CLOCK_PATH, *filter(None, (saved["PYTHONPATH"] or "").split(os.pathsep))]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextmanager
def frozen_at(instant: datetime.datetime) -> Iterator[time_machine.Coordinates]:
    """Time frozen at ``instant`` in this process, and processes started meanwhile beginning
    there; the traveller yielded (``move_to``, ``shift``)."""
    with time_machine.travel(instant, tick=False) as traveller, processes_start_at(instant):
        yield traveller


def _month_starts(first: datetime.date, last: datetime.date) -> Iterator[datetime.date]:
    month = first.replace(day=1)
    while month <= last:
        yield month
        month = (month + datetime.timedelta(days=32)).replace(day=1)


def sweep_instants() -> list[datetime.datetime]:
    """Sixty-odd instants over a year and more of dailies, each the suite's "now" once in the
    sweep (tests/sweep.py, tests/daily/test_any_day.py): every month's first second from the first
    daily (2026-11-01) to 2028-01-01 and the second before it (month ends, 23:59:59 and 00:00:00
    UTC, the last day of a year), the leap day 2028-02-29 around the clock, the day issue 44 was
    found on, and an instant every 13 days at an hour and minute that move each time."""
    utc = datetime.UTC
    instants = []
    for month in _month_starts(datetime.date(2026, 11, 1), datetime.date(2028, 1, 1)):
        start = datetime.datetime.combine(month, datetime.time(0, 0, 0), utc)
        if month > datetime.date(2026, 11, 1):
            instants.append(start - datetime.timedelta(seconds=1))
        instants.append(start)
    instants += [
        datetime.datetime(2028, 2, 28, 23, 59, 59, tzinfo=utc),
        datetime.datetime(2028, 2, 29, 0, 0, 0, tzinfo=utc),
        datetime.datetime(2028, 2, 29, 13, 37, 0, tzinfo=utc),
        datetime.datetime(2028, 2, 29, 23, 59, 59, tzinfo=utc),
        datetime.datetime(2028, 3, 1, 0, 0, 0, tzinfo=utc),
        datetime.datetime(2026, 12, 5, 14, 0, 0, tzinfo=utc),
    ]
    day = datetime.datetime(2026, 11, 7, tzinfo=utc)
    for i in range(30):
        moved = datetime.timedelta(days=13 * i, hours=7 * i % 24, minutes=13 * i % 60)
        instants.append(day + moved)
    return sorted(set(instants))
