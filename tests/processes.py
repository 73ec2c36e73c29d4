"""Helpers for tests that start other processes of the project (a worker, the servers)."""

import os
import signal
import socket
import subprocess
import sys
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from urllib.parse import quote

from django.db import connection

from tests.repository_guard import ROOT


def shared_database_url() -> str:
    """The URL of the test database, for another process to use the same data."""
    db = connection.settings_dict
    password = f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else ""
    host = db["HOST"] or "127.0.0.1"
    return f"postgres://{quote(db['USER'])}{password}@{host}:{db['PORT'] or 5432}/{db['NAME']}"


@contextmanager
def celery_worker(**env: str) -> Iterator[str]:
    """A Celery worker process on a queue of its own, using the test database and ``env`` (its
    broker among them), the queue's name yielded; stopped afterwards, and it must exit cleanly."""
    queue = f"test-{uuid.uuid4().hex[:12]}"
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "farkle_site", "worker", "--pool", "solo",
         "--queues", queue, "--hostname", f"{queue}@%h", "--without-mingle", "--without-gossip",
         "--loglevel", "WARNING"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": shared_database_url(), **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        yield queue
    finally:
        worker.terminate()
        try:
            _, errors = worker.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            worker.kill()
            raise
    assert worker.returncode == 0, errors


@contextmanager
def web_server(**env: str) -> Iterator[str]:
    """The Procfile's web line (gunicorn) serving the test database with ``env``, its base URL
    yielded once it answers; stopped afterwards."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = next(
        line.removeprefix("web:").strip()
        for line in (ROOT / "Procfile").read_text().splitlines()
        if line.startswith("web:")
    )
    path = f"{ROOT / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}"
    server = subprocess.Popen(
        ["sh", "-c", f"exec {command}"],
        cwd=ROOT,
        env={
            **os.environ,
            "DATABASE_URL": shared_database_url(),
            "BIND": f"127.0.0.1:{port}",
            "SECURE_SSL_REDIRECT": "0",
            "PATH": path,
            **env,
        },
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            if server.poll() is not None:
                raise AssertionError("The web server stopped.")
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=5):
                    break
            except OSError:
                # Not listening yet: wait on the process rather than on a clock.
                with suppress(subprocess.TimeoutExpired):
                    server.wait(timeout=0.1)
        else:
            raise AssertionError("The web server never answered.")
        yield url
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=60)
