"""Run tests once at each of the sweep's instants (tests/clock.py), to show they pass on any day.

    make sweep                                           # the tests that depend on the date
    make sweep SWEEP_ARGS="tests/browser -x"              # any pytest arguments instead
    make sweep SWEEP_ARGS="--every 4"                    # one instant in four (a quicker look)

Each instant is a pytest run of its own with ``FARKLE_TEST_NOW`` set, so the suite's clock, the
live server's, the browser's and those of the processes a test starts all stand there
(tests/clock.py). The test database is kept between the runs (``--reuse-db``). Prints one line per
instant and a last line ``N passed, N failed`` counting instants; exits 1 if any failed.
``make sweep`` gives it the environment of ``make test``.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.clock import SUITE_NOW, sweep_instants  # noqa: E402 - after the path is set

# The tests whose outcome the date can change: those that play or read "today" in a browser
# (the day's dice, the countdown, yesterday's links, the month's season) and, through the API,
# the daily's own and the groups' (streaks, seasons). The rest pin their instant (the ``clock``
# fixture) or never read the date.
DATE_DEPENDENT = [
    "tests/daily/test_any_day.py",
    "tests/browser/test_play.py",
    "tests/browser/test_after_game.py",
    "tests/browser/test_share_and_challenges.py",
    "tests/browser/test_usability.py",
    "tests/browser/test_groups.py",
    "tests/browser/test_layout.py",
    "tests/browser/test_leaderboard.py",
    "tests/browser/test_me.py",
    "tests/browser/test_verify.py",
    "tests/browser/test_csp.py",
    "tests/browser/test_retry.py",
    "tests/web/test_pages.py",
    "tests/site/test_headers.py",
    "tests/challenges/test_options.py",
]

SUMMARY = re.compile(r"=+ (.*) in [\d.]+s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", type=int, default=1, help="run one instant in this many")
    options, pytest_args = parser.parse_known_args()
    instants = sweep_instants()[:: options.every]
    failed = []
    for instant in instants:
        text = instant.isoformat().replace("+00:00", "Z")
        started = time.monotonic()
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--reuse-db",
             *(pytest_args or DATE_DEPENDENT)],
            cwd=ROOT,
            env={**os.environ, SUITE_NOW: text},
            capture_output=True,
            text=True,
        )  # fmt: skip
        found = SUMMARY.findall(run.stdout)
        outcome = found[-1] if found else f"exit {run.returncode}"
        print(f"{text}  {outcome}  ({time.monotonic() - started:.0f} s)", flush=True)
        if run.returncode != 0:
            failed.append(text)
            failures = [line for line in run.stdout.splitlines() if line.startswith("FAILED")]
            print("\n".join(f"    {line}" for line in failures), flush=True)
    print(f"instants: {len(instants) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
