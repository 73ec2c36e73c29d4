"""`make serve`, the production shape, starts, serves a request and stops cleanly."""

import os
import queue
import signal
import socket
import subprocess
import threading
import urllib.request
from pathlib import Path

import pytest

from tests.processes import shared_database_url

# docs/operations.md: /healthz with Postgres and Redis both up.
HEALTHY = b'{"status": "ok", "database": "ok", "cache": "ok"}'

ROOT = Path(__file__).resolve().parents[2]
READY = ("Listening at:", "celery@", "beat: Starting")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.django_db(transaction=True)
def test_make_serve_starts_serves_and_stops(tmp_path):
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": shared_database_url(),
        "CELERY_BROKER_URL": "redis://127.0.0.1:6379/14",
        "BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "2",
        "BEAT_SCHEDULE_FILE": str(tmp_path / "beat-schedule"),
        "SECURE_SSL_REDIRECT": "0",
    }
    serve = subprocess.Popen(
        ["make", "--no-print-directory", "serve"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(line) for line in serve.stdout])
    reader.start()
    output = []
    try:
        # Wait for the three processes to say they are ready (each line arrives as printed).
        waiting = set(READY)
        while waiting:
            line = lines.get(timeout=120)
            output.append(line)
            waiting -= {mark for mark in waiting if mark in line}
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=30) as response:
            assert (response.status, response.read()) == (200, HEALTHY)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/daily/today", timeout=30) as r:
            assert r.status == 200
    finally:
        os.killpg(serve.pid, signal.SIGTERM)
        serve.wait(timeout=60)
        reader.join(timeout=60)
        serve.stdout.close()
    while not lines.empty():
        output.append(lines.get())
    text = "".join(output)
    for process in ("web.1", "worker.1", "beat.1"):
        assert f"{process} stopped" in text, text[-3000:]
    assert "Traceback" not in text, text[-3000:]
