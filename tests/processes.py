"""Helpers for tests that start other processes of the project (a worker, the servers)."""

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
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
