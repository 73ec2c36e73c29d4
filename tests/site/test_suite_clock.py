"""The suite's clock (tests/clock.py): frozen at its instant here and in the processes a test
starts, whatever the real date of the run (issue 44)."""

import datetime
import subprocess
import sys

import pytest

from tests.clock import parse_instant, suite_instant
from tests.moments import NOON
from tests.repository_guard import ROOT

READ_THE_CLOCK = "import datetime; print(datetime.datetime.now(datetime.UTC).isoformat())"


def test_a_test_runs_at_the_suites_instant():
    assert datetime.datetime.now(datetime.UTC) == suite_instant()


def test_a_process_a_test_starts_begins_at_the_same_instant():
    done = subprocess.run(
        [sys.executable, "-c", READ_THE_CLOCK], cwd=ROOT, capture_output=True, text=True, check=True
    )
    seen = datetime.datetime.fromisoformat(done.stdout.strip())
    # Such a process runs on from the instant (it waits on timeouts of its own).
    assert suite_instant() <= seen < suite_instant() + datetime.timedelta(seconds=30)


def test_the_clock_fixture_starts_the_processes_at_noon_whatever_the_suites_instant(clock):
    # (A ``clock.move_to`` later in a test is not followed: the processes took their start.)
    done = subprocess.run(
        [sys.executable, "-c", READ_THE_CLOCK], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert datetime.datetime.fromisoformat(done.stdout.strip()).date() == NOON.date()


@pytest.mark.real_clock
def test_a_real_clock_test_reads_the_real_time():
    # NOON is in the past of any run of this suite; the real clock is later.
    assert datetime.datetime.now(datetime.UTC) > NOON


@pytest.mark.parametrize(
    ("text", "instant"),
    [
        ("2028-02-29T23:59:59Z", datetime.datetime(2028, 2, 29, 23, 59, 59, tzinfo=datetime.UTC)),
        ("2027-01-01T01:00:00+01:00", datetime.datetime(2027, 1, 1, tzinfo=datetime.UTC)),
    ],
)
def test_an_instant_is_read_in_utc(text, instant):
    assert parse_instant(text) == instant


@pytest.mark.parametrize("text", ["2028-02-29T23:59:59", "tomorrow", "2027-02-29T00:00:00Z"])
def test_an_instant_without_an_offset_or_not_a_date_is_refused(text):
    with pytest.raises(ValueError, match=text):
        parse_instant(text)
