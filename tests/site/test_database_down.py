"""With its Postgres stopped, the site answers 503 `unavailable` with Retry-After, and recovers.

The Postgres here is a throwaway cluster of its own (initdb on a free port): the shared server
that the other tests use is never stopped.
"""

from __future__ import annotations

import glob
import http.cookies
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "e1Zq9rX4vN7kP2mW8tB5yH3cJ6dF0gL1sA9uQ7oI4eR2wT8zY5xC3vB6nM0kJ7hG",
    "FARKLE_SEED_SECRET": "a-production-seed-secret-nobody-knows",
    "SECURE_SSL_REDIRECT": "0",
    "CELERY_BROKER_URL": "",
    "CACHE_URL": "",
    # The count of players a day in play shows may come from the last second's read
    # (daily/services/puzzles.py): read each time here, so that a visitor's first request meets
    # the outage at once rather than within the second.
    "FARKLE_RECENT_COUNTERS_MS": "0",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _postgres_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if not found:
        pytest.fail(
            "No Postgres server binaries in /usr/lib/postgresql/*/bin (apt-get install postgresql)."
        )
    return Path(found[-1]).parent


class Cluster:
    """A Postgres cluster in a temporary folder, run as the postgres user when we are root."""

    def __init__(self, folder: Path) -> None:
        self.bin = _postgres_bin()
        self.data = folder / "data"
        self.port = free_port()
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        folder.mkdir(exist_ok=True)
        if self.as_user:
            shutil.chown(folder, "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")

    def _run(self, tool: str, *args: str) -> None:
        done = subprocess.run(
            [*self.as_user, str(self.bin / tool), *args], capture_output=True, timeout=120
        )
        assert done.returncode == 0, (tool, done.stderr[-2000:])

    def start(self) -> None:
        options = f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 -c fsync=off"
        # A log file: the server would otherwise hold our output pipe open as long as it runs.
        log = str(self.data.parent / "server.log")
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", log, "-o", options, "-w", "-t", "60", "start"
        )

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/farkle"


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    # Not pytest's tmp_path: its parent is private to root, and the server runs as postgres.
    folder = Path(tempfile.mkdtemp(prefix="farkle-pg-"))
    pg = Cluster(folder)
    pg.start()
    try:
        pg._run("createdb", "-h", "127.0.0.1", "-p", str(pg.port), "-U", "postgres", "farkle")
        yield pg
    finally:
        subprocess.run(
            [*pg.as_user, str(pg.bin / "pg_ctl"), "-D", str(pg.data), "-m", "immediate", "stop"],
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(folder, ignore_errors=True)


def _site(cluster: Cluster) -> tuple[subprocess.Popen, str]:
    """gunicorn as `make serve` runs it, on the throwaway database."""
    env = {**os.environ, **PRODUCTION, "DATABASE_URL": cluster.url}
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=300,
    )
    # The pages need the hashed static files, as under `make serve`.
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=300,
    )
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "farkle_site.wsgi", "--bind", f"127.0.0.1:{port}",
         "--workers", "1"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return server, base
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.kill()
                pytest.fail(f"gunicorn did not start: {server.communicate()[1][-2000:]}")
            # Polling a socket until a real server listens: no clock is being faked here.
            time.sleep(0.1)


class Browser:
    """Keeps cookies over plain HTTP (the site marks them Secure, which a cookie jar honours)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookies: dict[str, str] = {}

    def call(self, method: str, path: str, body: dict | None = None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"{self.base}{path}", data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if "csrftoken" in self.cookies:
            request.add_header("X-CSRFToken", self.cookies["csrftoken"])
        if self.cookies:
            request.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                answer = response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            answer = error.code, error.headers, error.read()
        for header in answer[1].get_all("Set-Cookie") or []:
            jar = http.cookies.SimpleCookie(header)
            self.cookies.update({name: morsel.value for name, morsel in jar.items()})
        return answer


def _assert_unavailable(answer) -> None:
    status, headers, body = answer
    assert status == 503, body[:500]
    assert headers["Content-Type"] == "application/json", body[:500]
    assert json.loads(body)["code"] == "unavailable"
    assert int(headers["Retry-After"]) > 0


def test_api_answers_503_while_the_database_is_down_and_recovers(cluster):
    server, base = _site(cluster)
    player = Browser(base)
    try:
        assert player.call("GET", "/api/daily/today")[0] == 200
        status, _, body = player.call("POST", "/api/daily/today/attempts", {})
        assert status == 201, body[:500]
        attempt = json.loads(body)

        cluster.stop()
        _assert_unavailable(player.call("GET", "/api/daily/today"))
        _assert_unavailable(player.call("GET", f"/api/attempts/{attempt['id']}"))
        roll = {"step": attempt["step"], "action": "roll"}
        _assert_unavailable(player.call("POST", f"/api/attempts/{attempt['id']}/actions", roll))
        _assert_unavailable(player.call("GET", "/api/daily/today/leaderboard"))
        _assert_unavailable(player.call("GET", "/api/me"))
        _assert_unavailable(player.call("PATCH", "/api/me", {"name": "Someone"}))
        # A new visitor, without a session, too; pages answer 503 as well.
        visitor = Browser(base)
        _assert_unavailable(visitor.call("GET", "/api/daily/today"))
        _assert_unavailable(visitor.call("GET", "/api/challenges/K7M2QX"))
        # Shells that the scripts fill from the API need no database; a page that reads it
        # (the leaderboard's own state, /me's player) says in plain words to come back soon.
        for path in ("/", "/rules"):
            assert player.call("GET", path)[0] == 200, path
        for path in ("/leaderboard", "/me"):
            status, headers, body = player.call("GET", path)
            assert (status, headers.get("Retry-After")) == (503, "30"), path
            assert b"Farkle Daily is briefly unavailable" in body, path
        assert visitor.call("GET", "/healthz")[0] == 503

        cluster.start()
        status, _, body = player.call("GET", f"/api/attempts/{attempt['id']}")
        assert (status, json.loads(body)["id"]) == (200, attempt["id"])
    finally:
        server.terminate()
        _, errors = server.communicate(timeout=60)
    assert "Traceback" not in errors or "OperationalError" in errors, errors[-3000:]
