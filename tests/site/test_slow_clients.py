"""Slow clients trickling their headers do not starve the production web server (issue 10
item 8): the Procfile's web line, run as `make serve` runs it, still answers a normal request
while more slow clients than it has processes hold connections open."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import urllib.request
from pathlib import Path

import pytest

from tests.processes import shared_database_url

# docs/operations.md: /healthz with Postgres and Redis both up.
HEALTHY = b'{"status": "ok", "database": "ok", "cache": "ok"}'

ROOT = Path(__file__).resolve().parents[2]
WORKERS = 2
SLOW_CLIENTS = 6


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _web_command() -> str:
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.startswith("web:"):
            return line.removeprefix("web:").strip()
    pytest.fail("The Procfile has no web line.")


def _wait_listening(port: int, server: subprocess.Popen) -> None:
    for _ in range(600):
        if server.poll() is not None:
            pytest.fail("The web server stopped.")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5):
                return
        except OSError:
            # Not listening yet: wait on the process rather than on a clock.
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.wait(timeout=0.1)
    pytest.fail("The web server never answered.")


@pytest.mark.django_db(transaction=True)
def test_slow_clients_do_not_starve_the_web_server():
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": shared_database_url(),
        "BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": str(WORKERS),
        "SECURE_SSL_REDIRECT": "0",
    }
    server = subprocess.Popen(
        ["sh", "-c", f"exec {_web_command()}"],
        cwd=ROOT,
        env={**env, "PATH": f"{ROOT / '.venv' / 'bin'}{os.pathsep}{env['PATH']}"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    slow: list[socket.socket] = []
    try:
        _wait_listening(port, server)
        # Each slow client sends the start of a request and then nothing more: a client on a
        # bad line, or one starving the server on purpose, keeps its connection open.
        for _ in range(SLOW_CLIENTS):
            client = socket.create_connection(("127.0.0.1", port), timeout=5)
            client.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            slow.append(client)
        for client in slow:
            client.sendall(b"a")
        # A normal visitor is still answered (the timeout bounds the test, it measures nothing).
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as answer:
            assert (answer.status, answer.read()) == (200, HEALTHY)
    finally:
        for client in slow:
            client.close()
        os.killpg(server.pid, 15)
        server.wait(timeout=60)
