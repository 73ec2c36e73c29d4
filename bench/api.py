"""API benchmark: the production shape (gunicorn + Postgres) beside the API and midnight
targets of docs/performance.md.

Creates a database of its own (``farkle_bench_api``, on the server ``DATABASE_URL`` names, by
default the local one), migrates it, starts gunicorn with production settings on a free
127.0.0.1 port, drives it from this process (threads on ``http.client`` connections, one cookie
jar per simulated browser; the midnight rush from one thread on non-blocking sockets), then stops
gunicorn and drops the database. In one run, alternating so that the machine's noise falls on
both alike:

- throughput of ``GET /healthz`` (one query) and of game actions, players playing ten-turn games
  through the JSON API (target: actions reach at least 0.35× the trivial endpoint's throughput,
  at most 3.0 ms of server CPU each, the ceiling of issue 38);
- action latency at 32 concurrent players, with no think time (saturation: by Little's law the
  mean latency is then players / throughput, printed beside it) and with a human's think time
  between actions (target: p99 under 25 ms);
- throughput of a finished game's analysis (``GET /api/attempts/<id>/analysis``, issue 12)
  beside the attempt itself (``GET /api/attempts/<id>``), each read by the game's own player
  (target: the analysis reaches at least half the attempt's throughput);
- the midnight rush: fresh browsers each reading today's daily and starting it (target: 2,000 in
  under 5 s, no error, exactly one official attempt each, checked in the database with the day's
  count of players), then 10,000 more the same way, reported with their time and p99; each with
  its server CPU per player.

Run with ``python bench/api.py`` from the repository root; ``--workers N`` and ``--threads N``
pick gunicorn's processes and threads (gthread workers, as the Procfile), ``--help`` lists the
others.
"""

from __future__ import annotations

import argparse
import ctypes
import datetime
import errno
import functools
import gc
import http.client
import itertools
import json
import math
import os
import random
import resource
import selectors
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
from databases import bench_database, on_database, recreate_database, server_url

ROOT = Path(__file__).resolve().parents[1]
# Never the site's own database: the benchmark drops what it creates, and only this name
# (the site's with this suffix: farkle_bench_api by default).
BENCH_SUFFIX = "bench_api"
HOST = "127.0.0.1"
# A request slower than this is an error, not a sample: the bench always ends.
TIMEOUT = 30.0
CORES = os.cpu_count() or 1
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def site_environment(database: str) -> dict[str, str]:
    """Production settings with throwaway secrets, no broker, the shared Redis cache that several
    processes use (throttles, sessions), and throttles one address can pass (every simulated
    player comes from 127.0.0.1). The cache's database is claimed for the benchmarks here."""
    claim_cache()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"CACHE_URL", "NUM_PROXIES", "CELERY_RESULT_BACKEND", "WEB_CONCURRENCY"}
    }
    env.update(
        DATABASE_URL=database,
        DEBUG="0",
        SECURE_SSL_REDIRECT="0",
        SECRET_KEY="api-benchmark-secret-key-" + "x" * 40,
        FARKLE_SEED_SECRET="api-benchmark-seed",
        ALLOWED_HOSTS=HOST,
        CELERY_BROKER_URL="",
        CACHE_URL=bench_cache_url(),
        THROTTLE_ATTEMPT_START="100000/minute",
        THROTTLE_ATTEMPT_ACT="100000/minute",
        THROTTLE_GUEST_START="100000/minute",
        FARKLE_FIRST_DAY="2000-01-01",
        LOG_LEVEL="WARNING",
        DJANGO_SETTINGS_MODULE="farkle_site.settings",
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    )
    return env


def bench_cache_url() -> str:
    """The Redis database the benchmarks' sites share their cache in: one of the benchmarks' own
    (``claim_cache`` refuses any other), which ``empty_cache`` empties."""
    return os.environ.get("BENCH_CACHE_URL") or "redis://127.0.0.1:6379/13"


# Set in the benchmarks' Redis database while a bench uses it: a database holding keys without
# it is someone else's, and is neither used nor emptied.
CACHE_MARK = "farkle:bench:cache"


def claim_cache() -> None:
    """Refuse a cache database that holds anything but the benchmarks' keys, then mark it."""
    import redis

    client = redis.Redis.from_url(bench_cache_url())
    try:
        keys = client.dbsize()
        if keys and not client.exists(CACHE_MARK):
            raise SystemExit(
                f"the benchmarks' Redis database {bench_cache_url()} holds keys that are not "
                f"theirs ({keys}), and each bench empties it when it ends: name an empty database "
                f"in BENCH_CACHE_URL (or empty that one, if it is only an older bench's leftovers)"
            )
        client.set(CACHE_MARK, "1")
    finally:
        client.close()


def empty_cache() -> None:
    """Empty the benchmarks' Redis database, if it bears their mark: a run leaves there thousands
    of sessions kept a year (SESSION_COOKIE_AGE) and throttle counters, which nothing else would
    ever delete. A Redis that cannot be reached is reported, not raised over the bench's error."""
    import redis

    client = redis.Redis.from_url(bench_cache_url())
    try:
        if client.exists(CACHE_MARK):
            client.flushdb()
    except redis.RedisError as error:
        print(f"the benchmarks' Redis database was not emptied: {error}", file=sys.stderr)
    finally:
        client.close()


def migrate(env: dict[str, str], site: Path = ROOT) -> None:
    """Migrate the database of ``env`` (``site_environment``) with the code in ``site``."""
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "--verbosity", "0"],
        cwd=site,
        env=env,
        check=True,
    )


def _terminated_with_parent() -> None:
    # PR_SET_PDEATHSIG (1): the signal this process gets when its parent thread ends; it stays
    # across exec.
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)


class Server:
    """gunicorn serving the site as the Procfile does, stopped by ``stop`` whatever happened."""

    def __init__(
        self,
        env: dict[str, str],
        workers: int,
        threads: int,
        log,
        *,
        site: Path = ROOT,
        wrapper: tuple[str, ...] = (),
        options: tuple[str, ...] = (),
        stop_with_parent: bool = False,
    ) -> None:
        """``wrapper`` runs gunicorn under another program (bench/instructions.py's callgrind),
        ``options`` are more of gunicorn's, and ``site`` is the code served. With
        ``stop_with_parent``, gunicorn is sent a TERM when the thread that started it ends,
        however this process ends (Linux's parent-death signal; start it before any other
        thread, as the hook runs between fork and exec)."""
        self.port = free_port()
        self.workers = workers
        self.log = log
        self.process = subprocess.Popen(
            [
                *wrapper,
                sys.executable,
                "-m",
                "gunicorn",
                "farkle_site.wsgi",
                "--bind",
                f"{HOST}:{self.port}",
                "--workers",
                str(workers),
                # As the Procfile: threaded workers, keep-alive connections.
                "--worker-class",
                "gthread",
                "--threads",
                str(threads),
                # As the Procfile: gunicorn's own access log line per request (to /dev/null here).
                "--access-logfile",
                "-",
                "--forwarded-allow-ips",
                HOST,
                *options,
            ],
            cwd=site,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=self.log,
            # Its own process group, so that stopping it reaches its workers too.
            start_new_session=True,
            preexec_fn=_terminated_with_parent if stop_with_parent else None,
        )

    def wait_ready(self, seconds: float = 30.0) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"gunicorn exited ({self.process.returncode}):\n{self.errors()}")
            try:
                status, _, _ = Browser(self.port).request("GET", "/healthz")
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise SystemExit(f"gunicorn did not answer /healthz in {seconds:.0f} s:\n{self.errors()}")

    def worker_pids(self) -> list[int]:
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        try:
            return [int(pid) for pid in children.read_text().split()]
        except OSError:
            return []

    def errors(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-4000:]

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


class Browser:
    """One browser: its cookie jar and a keep-alive connection to the site (``http.client`` opens
    a new one when the server has closed it)."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection(HOST, port, timeout=TIMEOUT)
        self.cookies: dict[str, str] = {}
        # Whether the connection has served a response and stayed open.
        self.reused = False

    def request(self, method: str, path: str, body: object = None) -> tuple[int, bytes, float]:
        """Status, body and seconds of one request, cookies sent and kept."""
        headers = {"Accept": "application/json"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        payload = None
        if method != "GET":
            payload = b"" if body is None else json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        start = time.perf_counter()
        for retry in (True, False):
            try:
                self.connection.request(method, path, payload, headers)
                response = self.connection.getresponse()
                data = response.read()
                break
            except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
                self.connection.close()
                # gunicorn closes a keep-alive connection idle for 2 s, maybe as this request
                # went out unread: a browser sends it again on a new connection, and so do we.
                if not (retry and self.reused):
                    raise
            except (OSError, http.client.HTTPException):
                self.connection.close()
                raise
            finally:
                self.reused = False
        self.reused = not response.will_close
        seconds = time.perf_counter() - start
        # The Secure flag of production cookies is the client's business: sent over HTTP here.
        for cookie in response.msg.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response.status, data, seconds

    def close(self) -> None:
        self.connection.close()


@dataclass
class Samples:
    """Completed requests of one phase: when each ended, how long it took; and the failures."""

    ends: list[float] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def add(self, end: float, seconds: float) -> None:
        self.ends.append(end)
        self.seconds.append(seconds)

    def merge(self, other: Samples) -> None:
        self.ends += other.ends
        self.seconds += other.seconds
        self.errors += other.errors

    def within(self, start: float, stop: float) -> list[float]:
        return [s for e, s in zip(self.ends, self.seconds, strict=True) if start <= e <= stop]


def percentile(samples: list[float], p: float) -> float:
    """Nearest rank: the smallest sample at or above ``p`` of them."""
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(p * len(ordered)) - 1)]


def describe_error(what: str, status: int, data: bytes) -> str:
    return f"{what}: {status} {data[:200].decode(errors='replace')}"


@dataclass
class Game:
    """A started game of a fresh player: its browser, the attempt as last seen, and how bold the
    player is (the turn points it banks at)."""

    browser: Browser
    state: dict
    threshold: int


def new_player_start(port: int, rng: random.Random) -> Game | None:
    """A fresh browser reads today's daily (cookies, CSRF token), then starts it; None unless
    both are answered as they should be (the rush's browsers, ``rush_phase``, do the same)."""
    browser = Browser(port)
    status, _, _ = browser.request("GET", "/api/daily/today")
    if status == 200:
        status, data, _ = browser.request("POST", "/api/daily/today/attempts")
        state = json.loads(data) if status == 201 else None
        if state is not None and state["official"]:
            return Game(browser, state, rng.choice((300, 400, 500, 600, 800, 1000)))
    browser.close()
    return None


def next_action(game: Game) -> dict:
    """Roll, or keep the best-scoring dice (most left on a tie), then bank past the threshold."""
    state = game.state
    if state["state"] == "awaiting_roll":
        return {"step": state["step"], "action": "roll"}
    best = max(state["keep_options"], key=lambda o: (o["score"], o["dice_left"]))
    points = state["turn_points"] + best["score"]
    cautious = best["dice_left"] <= 2 and points >= game.threshold // 2
    then = "bank" if points >= game.threshold or cautious else "roll"
    return {"step": state["step"], "action": "keep", "dice": best["dice"], "then": then}


def act(game: Game, samples: Samples) -> bool:
    """Send the game's next action; False (and an error noted) unless it is accepted."""
    path = f"/api/attempts/{game.state['id']}/actions"
    try:
        status, data, seconds = game.browser.request("POST", path, next_action(game))
    except (OSError, http.client.HTTPException) as error:
        samples.errors.append(f"POST {path}: {error!r}")
        return False
    if status != 200:
        samples.errors.append(describe_error(f"POST {path}", status, data))
        return False
    samples.add(time.perf_counter(), seconds)
    game.state = json.loads(data)
    return True


def client_heap_apart(phase):
    """A timed phase run with the client's own objects set apart from its cyclic collector. Its
    full collections walked every game, browser and sample the bench holds (tens of milliseconds
    on the fourteenth machine), and a request in flight in another thread was timed through the
    pause as if the site had taken it. Handed back to the collector when the phase ends."""

    @functools.wraps(phase)
    def run(*args, **kwargs):
        gc.collect()
        gc.freeze()
        try:
            return phase(*args, **kwargs)
        finally:
            gc.unfreeze()

    return run


def in_threads(count: int, target) -> list:
    """Run ``target(index)`` in ``count`` threads started together; their results in order."""
    results: list = [None] * count
    failures: list[BaseException] = []
    barrier = threading.Barrier(count)

    def run(index: int) -> None:
        barrier.wait()
        try:
            results[index] = target(index)
        except BaseException as error:  # Raised again below, in the main thread.
            failures.append(error)

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]
    return results


def start_games(port: int, count: int, concurrency: int, seed: int) -> list[Game]:
    """``count`` fresh players with a started official game each."""
    counter = itertools.count()
    lock = threading.Lock()

    def starter(index: int) -> list[Game]:
        rng = random.Random(seed * 1000 + index)
        games = []
        while True:
            with lock:
                n = next(counter)
            if n >= count:
                return games
            game = new_player_start(port, rng)
            if game is None:
                raise SystemExit("A player could not start today's daily.")
            games.append(game)

    return [g for games in in_threads(concurrency, starter) for g in games]


@dataclass
class Usage:
    """CPU seconds of the client, gunicorn's workers and Postgres over ``wall`` seconds."""

    wall: float
    client: float
    web: float
    db: float
    machine: float

    def server_ms(self, requests: int) -> float:
        """Server CPU (gunicorn and Postgres) per request, in milliseconds."""
        return (self.web + self.db) / requests * 1000

    def __str__(self) -> str:
        others = self.machine - self.client - self.web - self.db
        parts = (
            ("client", self.client),
            ("gunicorn", self.web),
            ("postgres", self.db),
            ("the machine's other tenants", max(0.0, others)),
        )
        return "cores busy: " + ", ".join(f"{name} {s / self.wall:.2f}" for name, s in parts)


class Cpu:
    """CPU spent by this client, gunicorn's workers and the Postgres backends serving the
    benchmark's database, between ``start`` and ``stop``: what the machine's other tenants
    spend is not counted."""

    def __init__(self, server: Server, database: str) -> None:
        self.server = server
        self.database = database

    def _backends(self) -> list[int]:
        with psycopg.connect(self.database, autocommit=True) as connection:
            rows = connection.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid()"
            ).fetchall()
        return [pid for (pid,) in rows]

    @staticmethod
    def _seconds(pids: list[int]) -> float:
        total = 0
        for pid in pids:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])  # utime, stime
        return total / CLOCK_TICKS

    @staticmethod
    def _machine() -> float:
        """CPU seconds every process of the machine has spent (all but idle and I/O wait)."""
        ticks = [int(t) for t in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        return (sum(ticks[:8]) - ticks[3] - ticks[4]) / CLOCK_TICKS

    def _sample(self) -> Usage:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return Usage(
            time.perf_counter(),
            usage.ru_utime + usage.ru_stime,
            self._seconds(self.server.worker_pids()),
            self._seconds(self._backends()),
            self._machine(),
        )

    def start(self) -> None:
        self.begin = self._sample()

    def stop(self) -> Usage:
        end = self._sample()
        return Usage(
            end.wall - self.begin.wall,
            end.client - self.begin.client,
            end.web - self.begin.web,
            end.db - self.begin.db,
            end.machine - self.begin.machine,
        )


@client_heap_apart
def healthz_phase(port: int, clients: int, seconds: float) -> tuple[float, Samples]:
    """Requests per second of ``GET /healthz`` from ``clients`` connections for ``seconds``."""
    stop_at = 0.0

    def client(index: int) -> Samples:
        samples = Samples()
        browser = Browser(port)
        while time.perf_counter() < stop_at:
            try:
                status, data, took = browser.request("GET", "/healthz")
            except (OSError, http.client.HTTPException) as error:
                samples.errors.append(f"GET /healthz: {error!r}")
                continue
            if status == 200:
                samples.add(time.perf_counter(), took)
            else:
                samples.errors.append(describe_error("GET /healthz", status, data))
        browser.close()
        return samples

    start = time.perf_counter()
    stop_at = start + seconds
    total = Samples()
    for samples in in_threads(clients, client):
        total.merge(samples)
    return len(total.within(start, stop_at)) / seconds, total


@client_heap_apart
def reads_phase(
    games: list[Game], clients: int, seconds: float, suffix: str
) -> tuple[float, Samples]:
    """Requests per second of ``GET /api/attempts/<id><suffix>`` by the players of finished
    ``games`` (each reads their own), ``clients`` threads for ``seconds``."""
    stop_at = 0.0

    def client(index: int) -> Samples:
        samples = Samples()
        mine = games[index::clients]
        for game in itertools.cycle(mine):
            if time.perf_counter() >= stop_at:
                break
            path = f"/api/attempts/{game.state['id']}{suffix}"
            try:
                status, data, took = game.browser.request("GET", path)
            except (OSError, http.client.HTTPException) as error:
                samples.errors.append(f"GET {path}: {error!r}")
                continue
            if status == 200:
                samples.add(time.perf_counter(), took)
            else:
                samples.errors.append(describe_error(f"GET {path}", status, data))
        return samples

    start = time.perf_counter()
    stop_at = start + seconds
    total = Samples()
    for samples in in_threads(min(clients, len(games)), client):
        total.merge(samples)
    return len(total.within(start, stop_at)) / seconds, total


@client_heap_apart
def actions_phase(
    games: list[Game], players: int, seconds: float, think: float, seed: int
) -> tuple[float, float, list[float], Samples]:
    """Actions per second, the measured window, the latencies within it and every sample:
    ``players`` threads each play their share of ``games`` in turn until ``seconds`` have passed.
    The window ends early if a thread runs out of games, so that exactly ``players`` play
    throughout it."""
    shares = [games[i::players] for i in range(players)]
    exhausted = [math.inf] * players
    stop_at = 0.0

    def player(index: int) -> Samples:
        samples = Samples()
        rng = random.Random(seed * 1000 + index)
        if think:
            # People do not all click at the same instant: no herd at the start.
            time.sleep(rng.uniform(0, 2 * think))
        for game in shares[index]:
            while game.state["state"] != "finished":
                if time.perf_counter() >= stop_at or not act(game, samples):
                    return samples
                if think:
                    time.sleep(rng.uniform(0, 2 * think))
            game.browser.close()
        exhausted[index] = time.perf_counter()
        return samples

    start = time.perf_counter()
    stop_at = start + seconds
    total = Samples()
    for samples in in_threads(players, player):
        total.merge(samples)
    window = min(stop_at, *exhausted) - start
    latencies = total.within(start, start + window)
    return len(latencies) / window, window, latencies, total


class FreshBrowser:
    """A fresh browser of the rush: its socket, what it has left to send, what it has read of
    the answer, the cookies it was given, when its request went out and its deadline."""

    __slots__ = ("sock", "outgoing", "incoming", "cookies", "sent", "deadline", "starting")

    def __init__(self, request: bytes) -> None:
        self.outgoing = request
        self.incoming = b""
        self.cookies: dict[bytes, bytes] = {}
        self.sent = time.perf_counter()
        self.deadline = self.sent + TIMEOUT
        # Whether its request is the start (the GET has been answered).
        self.starting = False


def split_response(data: bytes) -> tuple[int, dict[bytes, bytes], list[bytes], bytes] | None:
    """Status, headers (names lowercase), the Set-Cookie values and body of the whole HTTP/1.1
    response ``data`` holds, sized by its Content-Length; None while ``data`` holds less. The
    site answers these requests with a length, never in chunks, and a browser that sends one
    request at a time gets nothing after its answer: anything else is refused (ValueError)."""
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return None
    lines = data[:end].split(b"\r\n")
    version, _, rest = lines[0].partition(b" ")
    if not version.startswith(b"HTTP/1.") or not rest[:3].isdigit():
        raise ValueError(f"not an HTTP/1.x status line: {lines[0][:100]!r}")
    headers, cookies = {}, []
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        name, value = name.strip().lower(), value.strip()
        if name == b"set-cookie":
            cookies.append(value)
        headers[name] = value
    if b"content-length" not in headers:
        raise ValueError(f"an answer without a Content-Length: {data[:end][:300]!r}")
    total = end + 4 + int(headers[b"content-length"])
    if len(data) < total:
        return None
    if len(data) > total:
        raise ValueError(f"{len(data) - total} bytes after the answer")
    return int(rest[:3]), headers, cookies, data[end + 4 :]


@client_heap_apart
def rush_phase(port: int, players: int, concurrency: int) -> tuple[float, Samples]:
    """Seconds for ``players`` fresh browsers, ``concurrency`` at a time, to start today's daily:
    each reads it (cookies, CSRF token), then starts it on the same connection, as
    ``new_player_start`` does; a request unanswered after ``TIMEOUT`` is an error.

    They are driven from this one thread over non-blocking sockets, as a load generator such as
    wrk drives its connections: the client shares the machine's two cores with the site, and
    the rush is a target in seconds. A hundred ``http.client`` threads, one a browser, took
    0.7-1.2 ms of CPU a player; this takes 0.3-0.4 ms (docs/performance.md)."""
    samples = Samples()
    selector = selectors.DefaultSelector()
    host = f"Host: {HOST}:{port}\r\n".encode()
    read_today = b"GET /api/daily/today HTTP/1.1\r\n" + host + b"Accept: application/json\r\n\r\n"
    arrived = left = 0

    def connect(browser: FreshBrowser) -> None:
        browser.sock = socket.socket()
        browser.sock.setblocking(False)
        code = browser.sock.connect_ex((HOST, port))
        selector.register(browser.sock, selectors.EVENT_WRITE, browser)
        if code not in (0, errno.EINPROGRESS):
            leave(browser, f"connecting: {os.strerror(code)}")

    def leave(browser: FreshBrowser, error: str | None = None) -> None:
        nonlocal left
        selector.unregister(browser.sock)
        browser.sock.close()
        left += 1
        if error is not None:
            samples.errors.append(error)

    def send(browser: FreshBrowser) -> None:
        browser.outgoing = browser.outgoing[browser.sock.send(browser.outgoing) :]
        if not browser.outgoing:
            selector.modify(browser.sock, selectors.EVENT_READ, browser)

    def answered(browser: FreshBrowser, status: int, headers, cookies, body: bytes) -> None:
        now = time.perf_counter()
        if browser.starting:
            if status == 201 and json.loads(body).get("official"):
                samples.add(now, now - browser.sent)
                return leave(browser)
            return leave(browser, describe_error("POST /api/daily/today/attempts", status, body))
        if status != 200:
            return leave(browser, describe_error("GET /api/daily/today", status, body))
        samples.add(now, now - browser.sent)
        for cookie in cookies:
            name, _, value = cookie.split(b";", 1)[0].partition(b"=")
            browser.cookies[name.strip()] = value
        jar = b"; ".join(name + b"=" + value for name, value in browser.cookies.items())
        browser.outgoing = (
            b"POST /api/daily/today/attempts HTTP/1.1\r\n" + host + b"Accept: application/json\r\n"
            b"Content-Type: application/json\r\nContent-Length: 0\r\n"
            b"X-CSRFToken: "
            + browser.cookies.get(b"csrftoken", b"")
            + b"\r\n"
            + (b"Cookie: " + jar + b"\r\n" if jar else b"")
            + b"\r\n"
        )
        browser.incoming = b""
        browser.starting = True
        browser.sent = time.perf_counter()
        browser.deadline = browser.sent + TIMEOUT
        if headers.get(b"connection", b"").lower() == b"close":
            # As a browser would: the start goes out on a new connection.
            selector.unregister(browser.sock)
            browser.sock.close()
            connect(browser)
        else:
            # At once, as a browser does, rather than after the next wait for the sockets.
            send(browser)

    start = time.perf_counter()
    sweep = start + 1.0
    while left < players:
        while arrived < players and arrived - left < concurrency:
            arrived += 1
            connect(FreshBrowser(read_today))
        if left == players:
            break
        now = time.perf_counter()
        if now >= sweep:
            # Once a second is often enough for deadlines of 30 s.
            for key in list(selector.get_map().values()):
                if key.data.deadline <= now:
                    leave(key.data, f"no answer in {TIMEOUT:.0f} s")
            sweep = now + 1.0
            continue
        for key, _ in selector.select(sweep - now):
            browser = key.data
            try:
                if browser.outgoing:
                    send(browser)
                    continue
                data = browser.sock.recv(65536)
                if not data:
                    leave(browser, "the site closed the connection before answering")
                    continue
                browser.incoming += data
                response = split_response(browser.incoming)
                if response is not None:
                    answered(browser, *response)
            except (OSError, ValueError) as error:
                leave(browser, repr(error))
    selector.close()
    return time.perf_counter() - start, samples


def rush_check(database: str, since: datetime.datetime) -> tuple[int, int, int, int, int]:
    """New players (created from ``since`` on), their attempts, their official attempts, the
    players with exactly one official attempt, and the dailies whose player count differs from
    their official attempts (the count every official start adds to, read by the day's page).
    Players are told by their creation, not their ids: each web process takes ids from the
    sequence in blocks, so a rush's guests may have ids below an earlier guest's."""
    new = "SELECT id FROM daily_player WHERE created_at >= %s"
    with psycopg.connect(database, autocommit=True) as connection:
        (players,) = connection.execute(f"SELECT count(*) FROM ({new}) AS p", [since]).fetchone()
        attempts, official = connection.execute(
            "SELECT count(*), count(*) FILTER (WHERE official) FROM daily_attempt "
            f"WHERE player_id IN ({new})",
            [since],
        ).fetchone()
        (one_each,) = connection.execute(
            "SELECT count(*) FROM (SELECT player_id FROM daily_attempt "
            f"WHERE player_id IN ({new}) AND official GROUP BY player_id HAVING count(*) = 1) AS p",
            [since],
        ).fetchone()
        (miscounted,) = connection.execute(
            "SELECT count(*) FROM daily_puzzle p WHERE p.players <> "
            "(SELECT count(*) FROM daily_attempt a WHERE a.puzzle_id = p.id AND a.official)"
        ).fetchone()
    return players, attempts, official, one_each, miscounted


def midnight(
    port: int, database: str, cpu: Cpu, players: int, clients: int, target: float | None
) -> list[tuple]:
    """The midnight rush of ``players`` fresh browsers, ``clients`` at a time: printed, and its
    rows of the table (the time against ``target`` seconds, or only reported when None)."""
    since = datetime.datetime.now(datetime.UTC)
    cpu.start()
    seconds, rush = rush_phase(port, players, clients)
    usage = cpu.stop()
    report_errors(f"midnight, {players}", rush)
    new, attempts, official, one_each, miscounted = rush_check(database, since)
    print(
        f"midnight: {players} fresh browsers, {clients} at a time, GET today + POST start each, "
        f"in {seconds:.1f} s ({usage}); request p99 {p99(rush.seconds):.0f} ms; "
        f"{usage.server_ms(players):.2f} ms of server CPU per player",
        flush=True,
    )
    n = f"midnight: {players}"
    return [
        (f"{n} players start (s)", seconds, ".1f", target, "<" if target else ""),
        (f"{n}, request p99 (ms)", p99(rush.seconds), ".0f", None, ""),
        (f"{n}, server CPU per player (ms)", usage.server_ms(players), ".2f", None, ""),
        (f"{n}, errors", len(rush.errors), "d", 0, "="),
        (f"{n}, new players", new, "d", players, "="),
        (f"{n}, their attempts", attempts, "d", players, "="),
        (f"{n}, official attempts", official, "d", players, "="),
        (f"{n}, players with one official each", one_each, "d", players, "="),
        # The day's "n played today" (Puzzle.players) against its official attempts.
        (f"{n}, days miscounting their players", miscounted, "d", 0, "="),
    ]


def report_errors(name: str, samples: Samples) -> None:
    if samples.errors:
        print(f"!! {name}: {len(samples.errors)} errors, e.g. {samples.errors[:3]}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # The Procfile's default on two cores. Measured on them, 2 and 3 workers serve about as many
    # actions; 4 (2 × cores) serve a fifth fewer, each costing more CPU (oversubscribed cores).
    parser.add_argument("--workers", type=int, default=CORES + 1)
    parser.add_argument("--threads", type=int, default=8, help="per worker (WEB_THREADS)")
    parser.add_argument("--clients", type=int, default=32, help="healthz clients")
    parser.add_argument("--players", type=int, default=32, help="concurrent players")
    parser.add_argument("--seconds", type=float, default=6.0, help="per measured phase")
    parser.add_argument("--rounds", type=int, default=3, help="healthz/actions alternations")
    parser.add_argument("--think", type=float, default=1.0, help="a person's mean think time (s)")
    parser.add_argument("--rush", type=int, default=2000, help="midnight players")
    parser.add_argument("--rush-clients", type=int, default=100, help="at once")
    parser.add_argument("--rush-large", type=int, default=10_000, help="then this many (0: none)")
    args = parser.parse_args()
    server = server_url()
    name = bench_database(server, BENCH_SUFFIX)
    database = on_database(server, name)
    recreate_database(server, name)
    try:
        env = site_environment(database)
        migrate(env)
        with tempfile.TemporaryFile() as log:
            site = Server(env, args.workers, args.threads, log)
            try:
                site.wait_ready()
                run(site, database, args)
            finally:
                site.stop()
    finally:
        try:
            recreate_database(server, name, drop_only=True)
        finally:
            empty_cache()


def run(site: Server, database: str, args: argparse.Namespace) -> None:
    port = site.port
    cpu = Cpu(site, database)
    print(
        f"gunicorn farkle_site.wsgi: {args.workers} gthread workers × {args.threads} threads on "
        f"{CORES} cores, DEBUG=0, "
        f"Postgres database {urlsplit(database).path[1:]}; the client: this process, threads on "
        "http.client, keep-alive (the rush: one thread, non-blocking sockets); "
        f"{args.rounds} rounds of "
        f"{args.seconds:g} s: {args.clients} healthz clients, then {args.players} players "
        "playing without pause",
        flush=True,
    )
    # Warm every worker (the first daily read solves the table for its par) and learn the pace.
    warm_players = 4 * args.workers
    games = start_games(port, warm_players, warm_players, seed=0)
    start = time.perf_counter()
    rate, _, _, warm = actions_phase(games, warm_players, 60.0, 0.0, seed=0)
    report_errors("warm-up", warm)
    finished = [game for game in games if game.state["state"] == "finished"]
    per_game = len(warm.seconds) / warm_players
    print(
        f"warm-up: {warm_players} games, {per_game:.1f} actions a game, "
        f"{rate:.0f} actions/s ({time.perf_counter() - start:.1f} s)",
        flush=True,
    )

    healthz_rates, action_rates, action_latencies = [], [], []
    healthz_cost, action_cost = [], []
    for round_ in range(1, args.rounds + 1):
        cpu.start()
        healthz_rate, healthz = healthz_phase(port, args.clients, args.seconds)
        healthz_cpu = cpu.stop()
        report_errors("healthz", healthz)
        # Enough started games that no player runs out before the time is up.
        games_each = max(2, math.ceil(2 * rate * args.seconds / per_game / args.players))
        games = start_games(port, games_each * args.players, args.players, seed=round_)
        cpu.start()
        rate, window, latencies, actions = actions_phase(
            games, args.players, args.seconds, 0.0, round_
        )
        actions_cpu = cpu.stop()
        report_errors("actions", actions)
        finished += [game for game in games if game.state["state"] == "finished"]
        healthz_cost.append(healthz_cpu.server_ms(len(healthz.seconds)))
        action_cost.append(actions_cpu.server_ms(len(actions.seconds)))
        healthz_rates.append(healthz_rate)
        action_rates.append(rate)
        action_latencies += latencies
        # Each round's server CPU a request too: the machine's phase moves it from one round to
        # the next (3.45, 2.62, 2.07 ms an action in one run on the nineteenth machine).
        print(
            f"round {round_}: healthz {healthz_rate:.0f}/s ({healthz_cpu}); actions "
            f"{rate:.0f}/s over {window:.1f} s ({actions_cpu}); ratio {rate / healthz_rate:.2f}; "
            f"server CPU a healthz {healthz_cost[-1]:.2f} ms, an action {action_cost[-1]:.2f} ms",
            flush=True,
        )

    # Issue 12: a finished game's analysis beside the attempt itself, read by its own player.
    attempt_rates, analysis_rates = [], []
    for round_ in range(1, args.rounds + 1):
        attempt_rate, attempt_reads = reads_phase(finished, args.clients, args.seconds, "")
        report_errors("attempt reads", attempt_reads)
        analysis_rate, analysis_reads = reads_phase(
            finished, args.clients, args.seconds, "/analysis"
        )
        report_errors("analysis reads", analysis_reads)
        attempt_rates.append(attempt_rate)
        analysis_rates.append(analysis_rate)
        print(
            f"round {round_}: GET attempt {attempt_rate:.0f}/s, GET analysis "
            f"{analysis_rate:.0f}/s over {len(finished)} finished games; ratio "
            f"{analysis_rate / attempt_rate:.2f}",
            flush=True,
        )

    # Players who think between actions: the latency a person sees when 32 play at once. Five
    # times as long as the other phases: at a person's pace they send about 30 actions a second,
    # and a p99 is only as steady as the samples beyond it. Twice as long gave about 365, whose
    # p99 is the fourth slowest: one stall of a shared machine (a worker descheduled for tens of
    # milliseconds in the middle of a collection, seen on the fourteenth machine) decided it.
    paced_seconds = 5 * args.seconds
    games_each = math.ceil(paced_seconds / max(args.think, 0.01) / per_game) + 1
    games = start_games(port, games_each * args.players, args.players, seed=99)
    cpu.start()
    paced_rate, _, paced_latencies, paced = actions_phase(
        games, args.players, paced_seconds, args.think, seed=99
    )
    paced_cpu = cpu.stop()
    report_errors("paced actions", paced)
    print(
        f"paced: {args.players} players thinking U(0, {2 * args.think:.2f}) s between actions: "
        f"{paced_rate:.0f} actions/s, {len(paced_latencies)} actions ({paced_cpu})",
        flush=True,
    )

    rush_rows = midnight(port, database, cpu, args.rush, args.rush_clients, 5.0)
    if args.rush_large:
        rush_rows += midnight(port, database, cpu, args.rush_large, args.rush_clients, None)

    healthz_mean = statistics.fmean(healthz_rates)
    action_mean = statistics.fmean(action_rates)
    healthz_ms = statistics.fmean(healthz_cost)
    action_ms = statistics.fmean(action_cost)
    players_at = f"{args.players} players"
    mean_ms = statistics.fmean(action_latencies) * 1000
    little_ms = args.players / action_mean * 1000
    # (measure, value, format, target, sense of the target)
    rows = [
        (f"GET /healthz, {args.clients} clients (req/s)", healthz_mean, ".0f", None, ""),
        (f"game actions, {players_at} (actions/s)", action_mean, ".0f", None, ""),
        ("actions / healthz throughput", action_mean / healthz_mean, ".2f", 0.35, "≥"),
        (
            f"GET attempt, {args.clients} clients (req/s)",
            statistics.fmean(attempt_rates),
            ".0f",
            None,
            "",
        ),
        (
            f"GET attempt analysis, {args.clients} clients (req/s)",
            statistics.fmean(analysis_rates),
            ".0f",
            None,
            "",
        ),
        (
            "analysis / attempt throughput",
            statistics.fmean(analysis_rates) / statistics.fmean(attempt_rates),
            ".2f",
            0.5,
            "≥",
        ),
        ("server CPU per healthz (ms, gunicorn + postgres)", healthz_ms, ".2f", None, ""),
        ("server CPU per action (ms, gunicorn + postgres)", action_ms, ".2f", 3.0, "<"),
        ("healthz / action server CPU", healthz_ms / action_ms, ".2f", None, ""),
        (f"action p50, {players_at}, no think time (ms)", p50(action_latencies), ".1f", None, ""),
        (f"action mean, {players_at}, no think time (ms)", mean_ms, ".1f", None, ""),
        (f"  Little's law: {args.players} / throughput (ms)", little_ms, ".1f", None, ""),
        (f"action p99, {players_at}, no think time (ms)", p99(action_latencies), ".1f", None, ""),
        (f"action p50, {players_at}, thinking (ms)", p50(paced_latencies), ".1f", None, ""),
        (f"action p99, {players_at}, thinking (ms)", p99(paced_latencies), ".1f", 25.0, "<"),
        *rush_rows,
    ]
    print(f"{'measure':<50}{'value':>10}{'target':>10}{'ratio':>8}  met")
    for name, value, fmt, target, sense in rows:
        shown = format(value, fmt)
        if target is None:
            print(f"{name:<50}{shown:>10}")
            continue
        if sense == "=":
            ratio, met = "", value == target
        else:
            # Below 1 meets the target, whichever way it points.
            r = value / target if sense == "<" else target / value if value else math.inf
            ratio, met = f"{r:.2f}", (value < target if sense == "<" else value >= target)
        goal = f"{sense}{target:g}"
        print(f"{name:<50}{shown:>10}{goal:>10}{ratio:>8}  {'yes' if met else 'NO'}")
    print(
        "(ratio: value over target, or target over value for an 'at least' target: below 1 meets"
        " it. Throughputs are means over the rounds. Latencies are the client's; with no think"
        f" time, {args.players} requests always queue for {CORES} cores, so by Little's law the"
        " mean latency is players / throughput whatever the code does)"
    )


def p50(seconds: list[float]) -> float:
    return statistics.median(seconds) * 1000


def p99(seconds: list[float]) -> float:
    return percentile(seconds, 0.99) * 1000


if __name__ == "__main__":
    main()
