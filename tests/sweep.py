"""Run the tests marked ``today`` once at each of the sweep's instants (tests/clock.py), to show
they pass on any day.

    make sweep                                           # the `today` tests, at all 65 instants
    make sweep SWEEP_ARGS="--every 4"                    # one instant in four (a quicker look)
    make sweep SWEEP_ARGS="--part 2/3"                   # instants 2, 5, 8, ... (a third)
    make sweep SWEEP_ARGS="--at 2028-02-29T23:59:59Z"    # chosen instants of the sweep, in order
    make sweep SWEEP_ARGS="--log /tmp/sweep"             # each failed run's output kept there
    make sweep SWEEP_ARGS="tests/browser/test_me.py -x"  # any pytest arguments instead

The ``today`` marker (pyproject.toml) is on the tests whose outcome can change with the suite's
instant: they play or read the day the clock stands on (today's dice, its board, countdown,
yesterday, /me's streak, a group's month). A test pinned by the ``clock`` fixture, or that never
reads the date, cannot change with ``FARKLE_TEST_NOW`` and is left out; each file says which of
its tests are in and why (tests/site/test_suite_clock.py checks the marks: ``FILES`` below each
hold some, no other file does, and no unmarked browser test reads the day unpinned).

Each instant is a pytest run of its own with ``FARKLE_TEST_NOW`` set, so the suite's clock, the
live server's, the browser's and those of the processes a test starts all stand there
(tests/clock.py). The test database is kept between the runs (``--reuse-db``). Prints one line per
instant and a last line ``N passed, N failed`` counting instants; exits 1 if any failed (a run
that selects no test fails too: pytest exits 5). ``--part K/N`` runs one instant in N from the
K-th (``--every`` then thins those), to split a long sweep between runs or machines, each part
spread over the whole year. ``--at`` (repeated) runs the instants given, each one of the sweep's,
in the order given, ``--part`` and ``--every`` then taking theirs among them: to re-run failed
instants or begin with the edges of days. ``--log DIR`` writes the whole output of a failed
instant's run to ``DIR/<instant>.txt``.
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

from tests.clock import SUITE_NOW, parse_instant, sweep_instants  # noqa: E402 - after the path is set

# The files that hold tests marked ``today`` (tests/site/test_suite_clock.py keeps this list and
# the marks in step). Other files pin their instant with the ``clock`` fixture or never read the
# date (tests/daily/test_any_day.py visits every instant of the sweep by itself, in one run).
FILES = [
    "tests/browser/test_play.py",
    "tests/browser/test_groups.py",
    "tests/browser/test_after_game.py",
    "tests/browser/test_share_and_challenges.py",
    "tests/browser/test_usability.py",
    "tests/browser/test_leaderboard.py",
    "tests/browser/test_me.py",
    "tests/browser/test_csp.py",
    "tests/browser/test_screenshots.py",
    "tests/browser/test_retry.py",
    "tests/browser/test_rating.py",
    "tests/browser/test_end_screen.py",
]
MARKER = "today"

# pytest's last line, with or without its rule of "=" (``-q`` drops it).
SUMMARY = re.compile(r"^=* ?(\d+ \w+.*) in [\d.]+s", re.MULTILINE)


def part(text: str) -> tuple[int, int]:
    """``K/N`` read as the K-th of N slices, 1 <= K <= N."""
    k, _, n = text.partition("/")
    if not (k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        raise argparse.ArgumentTypeError(f"{text!r} is not K/N with 1 <= K <= N, e.g. 2/3")
    return int(k), int(n)


def instants_of(k: int, n: int, every: int, chosen: list | None = None) -> list:
    """One in N of the sweep's instants (or of those chosen) from the K-th, then one in ``every``
    of those."""
    return (chosen or sweep_instants())[k - 1 :: n][::every]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", type=int, default=1, help="run one instant in this many")
    parser.add_argument("--part", type=part, default=(1, 1), help="K/N: one in N from the K-th")
    parser.add_argument("--at", type=parse_instant, action="append", help="run this instant")
    parser.add_argument("--log", type=Path, help="write each failed run's output into this folder")
    options, pytest_args = parser.parse_known_args()
    unknown = [str(i) for i in options.at or [] if i not in sweep_instants()]
    if unknown:
        parser.error(f"not instants of the sweep: {', '.join(unknown)}")
    instants = instants_of(*options.part, options.every, options.at)
    failed = []
    for instant in instants:
        text = instant.isoformat().replace("+00:00", "Z")
        started = time.monotonic()
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--reuse-db",
             *(pytest_args or ["-m", MARKER, *FILES])],
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
            failures = [
                line for line in run.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))
            ]
            if options.log:
                options.log.mkdir(parents=True, exist_ok=True)
                (options.log / f"{text}.txt").write_text(run.stdout + run.stderr)
            print("\n".join(f"    {line}" for line in failures), flush=True)
    print(f"instants: {len(instants) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
