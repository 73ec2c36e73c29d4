"""Each benchmark runs to its end on a small load: `make bench` is how issue 15's targets are
judged, and nothing else runs the benches' code. (A name shadowed in `bench/leaderboard.py`
once broke every later `make bench` and no test saw it.)"""

import os
import shutil
import subprocess
import sys

import pytest

from tests.processes import shared_database_url
from tests.repository_guard import ROOT

# A Redis database no test and no default bench uses: the benches claim it and empty it.
SMOKE_CACHE = "redis://127.0.0.1:6379/12"

SMALL = {
    "engine.py": [],
    "leaderboard.py": ["--sizes", "2000,4000", "--runs", "20"],
    "api.py": [
        *("--seconds", "0.4", "--rounds", "1", "--players", "4", "--clients", "4"),
        *("--think", "0.02", "--rush", "30", "--rush-clients", "10", "--rush-large", "40"),
    ],
    "scale.py": ["--days", "2", "--players", "2000", "--runs", "10"],
    "instructions.py": ["--requests", "2", "--fresh", "2"],
}

# A line of each bench's last table, a measure each prints beside its target, and what a round
# of bench/api.py prints of its server CPU.
EXPECTED = {
    "engine.py": ["solve farkle-challenge from nothing", "first /rules"],
    "leaderboard.py": ["close of the 4,000-attempt day (s)", "longest lock wait of a read"],
    "api.py": [
        "server CPU per action",
        "midnight: 40 players start (s)",
        "server CPU a healthz",
    ],
    "scale.py": ["a rank on the latest day, ms", "close of the latest day"],
    "instructions.py": [
        "a game action",
        "served: a game action",
        "served an action over a healthz",
    ],
}

MET = {
    "api.py": [
        f"midnight: {n}{measure}"
        for n in (30, 40)
        for measure in (", errors", ", new players", ", players with one official each")
    ],
}


# The benches time things on the real clock (the rush's new players are those created since it
# began, in the servers' clocks and the bench's alike), and check counts that no date changes.
@pytest.mark.real_clock
@pytest.mark.django_db
@pytest.mark.parametrize("bench", sorted(SMALL))
def test_the_bench_runs_to_its_last_table(bench):
    if bench == "instructions.py" and shutil.which("valgrind") is None:
        pytest.skip("bench/instructions.py needs valgrind")
    env = {
        **os.environ,
        # The benches make their own databases on the test database's server, named after it.
        "DATABASE_URL": shared_database_url(),
        "BENCH_CACHE_URL": SMOKE_CACHE,
    }
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / bench), *SMALL[bench]],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )

    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    for line in EXPECTED[bench]:
        assert line in done.stdout, done.stdout[-3000:]
    # Targets that hold at any load: the rush's browsers each got their one official attempt,
    # whichever client drove them.
    for measure in MET.get(bench, []):
        (row,) = [line for line in done.stdout.splitlines() if line.startswith(measure)]
        assert row.endswith("yes"), row
