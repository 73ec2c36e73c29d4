"""Instruction benchmark: what the site's process spends on one request, counted in instructions
by callgrind, a measure the machine's load does not move (docs/performance.md).

The seconds of the other benchmarks swing by half from one machine to the next, and within the
hour on one; the instructions a request runs stay the same for the same code and the same
games, whatever else the machine does. This calls the site's WSGI application in one process,
as a gunicorn thread calls it (production settings, a database of its own,
``farkle_bench_instructions``, and the Redis cache), under ``valgrind --tool=callgrind``, and
counts:

- ``GET /healthz``;
- a game action: players playing ten-turn games through the JSON API, as ``bench/api.py``'s do,
  each game's actions interleaved with the others' as a busy process sees them;
- a fresh browser: ``GET /api/daily/today``, then ``POST /api/daily/today/attempts``.

The counts are the site's process (Django, DRF, the engine, the drivers of Postgres and Redis,
and the little this harness adds: each request's environ, its JSON, its cookies), not the
Postgres or Redis servers, nor gunicorn's parsing of the request. The same three are then
counted again ``served``: inside the one gunicorn worker (one thread, the Procfile's options)
that serves them over HTTP from this process, one at a time, so the counts include gunicorn's
reading, parsing, logging and writing of each request and a fresh browser's new connection
(about a third of a served action's instructions, docs/performance.md).

Compare counts taken in one run: the day's dice (drawn from the date) and the counts asked
change the games played. ``--against REV`` counts a revision of this repository as well
(checked out in a temporary worktree, with a database of its own) in the same run, and prints
the two side by side with their ratio: how a change moves the cost, on a machine too noisy to
tell from seconds.

Run with ``python bench/instructions.py`` from the repository root (``make bench`` runs it
last); it needs valgrind (Debian's package ``valgrind``) and says so when it is missing.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from databases import bench_database, on_database, recreate_database, server_url

ROOT = Path(__file__).resolve().parents[1]
BENCH_SUFFIX = "bench_instructions"
# callgrind writes its counts so far each time the process enters this libc function, then
# starts counting again: the child calls it (os.getppid) between its phases. Nothing the site
# runs asks for its parent's pid in-process (gunicorn's arbiter checks would, but are not here).
MARKER = "getppid"
# The served count's marker (bench/gunicorn_phases.py).
SERVED_MARKER = "getloadavg"
PHASES = ("healthz", "action", "fresh")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", metavar="REV", help="also count this git revision")
    parser.add_argument("--requests", type=int, default=200, help="healthz and actions counted")
    parser.add_argument("--fresh", type=int, default=100, help="fresh browsers counted")
    parser.add_argument("--child", nargs=2, metavar=("SITE", "DATABASE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.requests < 1 or args.fresh < 1:
        parser.error("--requests and --fresh count one request at least")
    if args.child:
        child(Path(args.child[0]), args.child[1], args.requests, args.fresh)
        return
    # A TERM (a test's timeout, a CI's cancel) runs the finally blocks that stop the servers and
    # drop the databases, as an interrupt does.
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        print("bench/instructions.py: not run, valgrind is missing (apt-get install valgrind)")
        return
    if args.against:
        # Refused before the first count, not after it.
        known = subprocess.run(
            [
                "git",
                "-C",
                str(ROOT),
                "rev-parse",
                "--verify",
                "--quiet",
                f"{args.against}^{{commit}}",
            ],
            capture_output=True,
        )
        if known.returncode != 0:
            raise SystemExit(f"--against: {args.against!r} is not a commit of this repository")
    server = server_url()
    print(
        f"instructions per request (callgrind; Postgres and Redis not counted): "
        f"{args.requests} healthz, {args.requests} actions, {args.fresh} fresh browsers after "
        "a warm-up, in the site's process, then served by one gunicorn worker (one thread)",
        flush=True,
    )
    counts = {"this code": both_counts(valgrind, ROOT, server, BENCH_SUFFIX, args)}
    if args.against:
        with tempfile.TemporaryDirectory() as scratch:
            site = Path(scratch) / "site"
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(site)]
                + [args.against],
                check=True,
            )
            try:
                counts[args.against] = both_counts(
                    valgrind, site, server, f"{BENCH_SUFFIX}_against", args, other=True
                )
            finally:
                subprocess.run(
                    ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(site)],
                    check=True,
                )
    report(counts)


def count(valgrind: str, site: Path, server: str, suffix: str, args) -> dict[str, float]:
    """Instructions per request of each phase, for the code in ``site``."""
    with (
        counted_site(server, suffix, site) as (database, env),
        tempfile.TemporaryDirectory() as out,
    ):
        result = subprocess.run(
            [
                valgrind,
                "--tool=callgrind",
                f"--dump-before={MARKER}",
                f"--callgrind-out-file={out}/counts",
                sys.executable,
                __file__,
                "--child",
                str(site),
                database,
                "--requests",
                str(args.requests),
                "--fresh",
                str(args.fresh),
            ],
            cwd=site,
            env=env,
            capture_output=True,
            text=True,
        )
        if result.returncode != 0:
            raise SystemExit(f"the counted process failed:\n{result.stderr[-4000:]}")
        # One numbered dump at each marker (the end's is written as "counts", unnumbered).
        return per_request(
            Path(out).glob("counts.*"),
            args,
            f"something else in the process called {MARKER} (more), or valgrind did not "
            f"follow the interpreter (fewer: a wrapper script as {sys.executable}?)",
        )


def both_counts(
    valgrind: str, site: Path, server: str, suffix: str, args, *, other: bool = False
) -> dict[str, float]:
    """Instructions per request of each phase in process, then in a gunicorn worker
    (``served``), for the code in ``site``. An ``other`` revision that cannot be served as this
    bench serves it (one older than the Procfile's logger class) keeps its in-process counts,
    its served ones unknown (NaN)."""
    counts = count(valgrind, site, server, suffix, args)
    try:
        served = count_served(valgrind, site, server, suffix, args)
    except SystemExit as failure:
        if not other:
            raise
        print(f"{args.against} could not be counted served: {failure}", file=sys.stderr)
        served = dict.fromkeys(PHASES, math.nan)
    counts.update({f"served {phase}": value for phase, value in served.items()})
    return counts


def count_served(valgrind: str, site: Path, server: str, suffix: str, args) -> dict[str, float]:
    """Instructions per request of each phase in the one gunicorn worker (one thread, otherwise
    as the Procfile serves) that serves them over HTTP from this process, one request at a time:
    what ``count`` counts, with gunicorn's reading, parsing, logging and writing of each request
    and, for a fresh browser, its new connection. Each game's actions go out one after another
    on its connection, as a player sends them."""
    from api import Browser, Server, new_player_start, next_action
    from gunicorn_phases import PHASE_QUERY

    with counted_site(server, f"{suffix}_served", site) as (_, env):
        rng = random.Random(15)
        with tempfile.TemporaryDirectory() as out, tempfile.TemporaryFile() as log:
            served = Server(
                env,
                1,
                1,
                log,
                site=site,
                wrapper=(
                    valgrind,
                    "--tool=callgrind",
                    f"--dump-before={SERVED_MARKER}",
                    f"--callgrind-out-file={out}/counts.%p",
                ),
                options=(
                    # No heartbeat deadline: under callgrind the worker starts in a minute or two.
                    "--timeout",
                    "0",
                    # At callgrind's pace a game's next action comes seconds after its last (the
                    # other games' go between), past gunicorn's 2 s: every action would open a
                    # new connection, which only a fresh browser's count should hold.
                    "--keep-alive",
                    "3600",
                    "--config",
                    str(Path(__file__).with_name("gunicorn_phases.py")),
                ),
                # Stopped with this process, however it ends: nothing else would stop a server
                # run without a deadline.
                stop_with_parent=True,
            )
            try:
                # Under the benches' smoke test's 600 s.
                served.wait_ready(seconds=480)
                workers = served.worker_pids()
                if len(workers) != 1:
                    raise SystemExit(f"expected one gunicorn worker, found {len(workers)}")
                (worker,) = workers
                marker = Browser(served.port)

                def phase() -> None:
                    status, data, _ = marker.request("GET", f"/healthz?{PHASE_QUERY}")
                    assert status == 200, data

                def act(game) -> None:
                    path = f"/api/attempts/{game.state['id']}/actions"
                    status, data, _ = game.browser.request("POST", path, next_action(game))
                    assert status == 200, data
                    game.state = json.loads(data)

                def fresh() -> object:
                    game = new_player_start(served.port, rng)
                    assert game is not None, "a fresh browser's start failed"
                    return game

                # Warm, as the in-process count does.
                warm = [fresh() for _ in range(4)]
                interleaved(warm, 40, act)
                health = Browser(served.port)
                for _ in range(20):
                    health.request("GET", "/healthz")
                games = [fresh() for _ in range(args.requests // 10 + 1)]
                phase()
                for _ in range(args.requests):
                    status, data, _ = health.request("GET", "/healthz")
                    assert status == 200, data
                phase()
                interleaved(games, args.requests, act)
                phase()
                for _ in range(args.fresh):
                    fresh().browser.close()
                phase()
            finally:
                served.stop()
            # The worker's dumps (each phase's with its marker's request half served: a healthz
            # in some hundreds of requests).
            return per_request(
                Path(out).glob(f"counts.{worker}.*"),
                args,
                f"something else in the worker called {SERVED_MARKER} (more), or a phase's "
                f"marker request never reached it (fewer)\n{served.errors()}",
            )


@contextlib.contextmanager
def counted_site(server: str, suffix: str, site: Path):
    """A database of its own for the code in ``site``, migrated, and the site's environment on
    it; dropped, and the benchmarks' cache emptied, at the end."""
    # bench/api.py's production environment, imported here only: its module reads nothing else.
    from api import empty_cache, migrate, site_environment

    name = bench_database(server, suffix)
    database = on_database(server, name)
    recreate_database(server, name)
    try:
        env = site_environment(database)
        # The same hash seed in every run: a set's order, hence the work, is then the same.
        env["PYTHONHASHSEED"] = "0"
        migrate(env, site)
        yield database, env
    finally:
        try:
            recreate_database(server, name, drop_only=True)
        finally:
            empty_cache()


def per_request(dumps, args, otherwise: str) -> dict[str, float]:
    """Instructions per request of each phase from callgrind's numbered dumps at the markers:
    the warm-up's, then each phase's; ``otherwise`` says what a wrong number of them means."""
    dumps = sorted(dumps, key=lambda p: int(p.suffix[1:]))
    if len(dumps) != len(PHASES) + 1:
        raise SystemExit(
            f"expected {len(PHASES) + 1} dumps of the counts, got {len(dumps)}: {otherwise}"
        )
    per = {"healthz": args.requests, "action": args.requests, "fresh": args.fresh}
    return {phase: _total(dump) / per[phase] for phase, dump in zip(PHASES, dumps[1:], strict=True)}


def _total(dump: Path) -> int:
    for line in dump.read_text().splitlines():
        if line.startswith("totals:"):
            return int(line.split()[1])
    raise SystemExit(f"no totals in {dump}")


def _shown(value: float, width: int, digits: int) -> str:
    # An older revision's served counts are unknown (NaN).
    return f"{'n/a':>{width}}" if math.isnan(value) else f"{value:>{width}.{digits}f}"


def report(counts: dict[str, dict[str, float]]) -> None:
    names = list(counts)
    labels = {
        "healthz": "GET /healthz",
        "action": "a game action",
        "fresh": "a fresh browser (GET today, start)",
    }
    header = f"{'millions of instructions':<44}" + "".join(f"{n[:14]:>15}" for n in names)
    if len(names) == 2:
        header += f"{'ratio':>8}"
    print(header)
    rows = [(labels[phase], phase) for phase in PHASES]
    rows += [(f"served: {labels[phase]}", f"served {phase}") for phase in PHASES]
    for label, key in rows:
        values = [counts[n][key] for n in names]
        line = f"{label:<44}" + "".join(_shown(v / 1e6, 15, 3) for v in values)
        if len(values) == 2:
            line += _shown(values[0] / values[1], 8, 3)
        print(line)
    for prefix in ("", "served "):
        ratios = [counts[n][f"{prefix}action"] / counts[n][f"{prefix}healthz"] for n in names]
        label = f"{prefix}an action over a healthz"
        print(f"{label:<44}" + "".join(_shown(r, 15, 2) for r in ratios))
    print(
        "(the same code, counted twice in one run, agrees within about half a percent; a ratio "
        "below 1: this code runs fewer instructions than the other)"
    )


def interleaved(games: list, count: int, act) -> None:
    """``count`` actions (``act(game)``) over ``games``, one for each game still playing in
    turn, as a busy process sees them: few of the counted actions end a game (a game lasts ten
    actions at least), the same share whether counted in process or served."""
    done = 0
    while done < count:
        live = [game for game in games if game.state["state"] != "finished"]
        if not live:
            raise SystemExit("every game finished: more games are needed for the actions")
        for game in live[: count - done]:
            act(game)
            done += 1


# The counted process: the site's WSGI application called directly.


class Browser:
    """A browser's cookie jar, its requests made as gunicorn makes them (a WSGI environ)."""

    def __init__(self, application) -> None:
        self.application = application
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: object = None) -> tuple[int, bytes]:
        payload = b"" if body is None else json.dumps(body).encode()
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
            "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_HOST": "127.0.0.1",
            "HTTP_ACCEPT": "application/json",
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(payload),
            "wsgi.errors": sys.stderr,
        }
        if self.cookies:
            environ["HTTP_COOKIE"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method != "GET":
            environ["CONTENT_TYPE"] = "application/json"
            environ["CONTENT_LENGTH"] = str(len(payload))
            environ["HTTP_X_CSRFTOKEN"] = self.cookies.get("csrftoken", "")
        answer = {}

        def start_response(status, headers, exc_info=None):
            answer["status"], answer["headers"] = int(status.split()[0]), headers

        response = self.application(environ, start_response)
        try:
            data = b"".join(response)
        finally:
            # As a WSGI server does (PEP 3333): Django's request_finished runs there (closing an
            # obsolete database connection, closing the caches), which a real request pays for.
            response.close()
        for name, value in answer["headers"]:
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        return answer["status"], data


def child(site: Path, database: str, requests: int, fresh: int) -> None:
    sys.path.insert(0, str(site))
    import warnings

    # Whitenoise warns of the static files, which the counted requests never ask for.
    warnings.filterwarnings("ignore", message="No directory at")
    import django

    django.setup()
    from api import Game, next_action

    from farkle_site.wsgi import application

    rng = random.Random(15)

    def start() -> Game:
        browser = Browser(application)
        status, data = browser.request("GET", "/api/daily/today")
        assert status == 200, data
        status, data = browser.request("POST", "/api/daily/today/attempts")
        assert status == 201, data
        return Game(browser, json.loads(data), rng.choice((300, 400, 500, 600, 800, 1000)))

    def act_once(game: Game) -> None:
        path = f"/api/attempts/{game.state['id']}/actions"
        status, data = game.browser.request("POST", path, next_action(game))
        assert status == 200, data
        game.state = json.loads(data)

    def act(games: list[Game], count: int) -> None:
        interleaved(games, count, act_once)

    def healthz(count: int) -> None:
        browser = Browser(application)
        for _ in range(count):
            status, data = browser.request("GET", "/healthz")
            assert status == 200, data

    # Warm: the first request of each kind fills the process's caches, as a worker's first do.
    warm = [start() for _ in range(4)]
    act(warm, 40)
    healthz(20)
    # A game lasts ten actions at least (ten turns, each a roll at least): enough for the count.
    games = [start() for _ in range(requests // 10 + 1)]
    os.getppid()
    healthz(requests)
    os.getppid()
    act(games, requests)
    os.getppid()
    for _ in range(fresh):
        start()
    os.getppid()


if __name__ == "__main__":
    main()
