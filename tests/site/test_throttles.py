"""Throttles: counted atomically in one shared place, whichever process serves the request, and
new guests' games limited per address (issue 10 items 2 and 6)."""

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.test import Client

from tests.daily.helpers import play_greedy, post, start_daily
from tests.helpers import REDIS

ROOT = Path(__file__).resolve().parents[2]

COUNT = """
import json, django
django.setup()
from farkle_site import ratelimit
print(json.dumps([ratelimit.hit({name!r}, 3600).count for _ in range(300)]))
"""


def test_processes_share_one_atomic_counter():
    name = f"test:{uuid.uuid4().hex}"
    env = {
        **os.environ,
        "CACHE_URL": REDIS,
        "DEBUG": "0",
        "SECRET_KEY": "e1Zq9rX4vN7kP2mW8tB5yH3cJ6dF0gL1sA9uQ7oI4eR2wT8zY5xC3vB6nM0kJ7hG",
        "FARKLE_SEED_SECRET": "a-production-seed-secret-nobody-knows",
        "DJANGO_SETTINGS_MODULE": "farkle_site.settings",
    }
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", COUNT.format(name=name)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    counts = [json.loads(worker.communicate(timeout=120)[0]) for worker in workers]
    # Every hit of every process got its own number: none was lost or counted twice.
    assert sorted(n for seen in counts for n in seen) == list(range(1, 901))


def test_with_a_shared_cache_a_throttle_counts_in_redis(shared_redis, db, clock):
    before = set(shared_redis.scan_iter("*farkle:rl:*"))
    client = Client(REMOTE_ADDR="10.9.9.9")
    response = post(client, "/api/auth/login", {"username": "nobody", "password": "x"})
    assert response.status_code == 400
    created = set(shared_redis.scan_iter("*farkle:rl:*")) - before
    assert any(b"10.9.9.9" in key for key in created), created


@pytest.mark.django_db
def test_official_starts_by_new_guests_are_throttled_per_address(clock):
    first = Client(REMOTE_ADDR="10.1.1.1")
    play_greedy(first, start_daily(first, "today"))
    for _ in range(29):
        start_daily(Client(REMOTE_ADDR="10.1.1.1"), "today")
    refused = post(Client(REMOTE_ADDR="10.1.1.1"), "/api/daily/today/attempts")
    assert (refused.status_code, refused.json()["code"]) == (429, "throttled")
    assert int(refused["Retry-After"]) > 0
    # Naming a new browser creates a guest too, under the same limit.
    named = Client(REMOTE_ADDR="10.1.1.1").patch(
        "/api/me", {"name": "Fresh Face"}, content_type="application/json"
    )
    assert named.status_code == 429
    # A guest that already plays is not new; another address has its own count.
    assert post(first, "/api/daily/today/attempts").status_code == 201
    start_daily(Client(REMOTE_ADDR="10.2.2.2"), "today")


def test_make_serve_shares_throttles_through_redis_by_default():
    makefile = (ROOT / "Makefile").read_text()
    assert "serve: export CACHE_URL := $(or $(CACHE_URL),redis://127.0.0.1:6379/1)" in makefile


@pytest.mark.django_db(transaction=True)
def test_several_web_processes_count_one_limit(tmp_path):
    """The Procfile's web line with three processes: the login limit (20 a minute per address)
    holds across them, as it would not with a count per process (60)."""
    import http.cookies
    import urllib.error
    import urllib.request

    from django_redis import get_redis_connection

    from tests.processes import shared_database_url
    from tests.site.test_slow_clients import _wait_listening, _web_command, free_port

    # The servers share the test's cache (CACHE_URL), as production's processes share theirs.
    server_keys = get_redis_connection("default")
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": shared_database_url(),
        "BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "3",
        "WEB_THREADS": "1",
        "SECURE_SSL_REDIRECT": "0",
        "PATH": f"{ROOT / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}",
    }
    server = subprocess.Popen(
        ["sh", "-c", f"exec {_web_command()}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"

    def logins(token: str) -> list[int]:
        statuses = []
        for n in range(24):
            request = urllib.request.Request(
                f"{base}/api/auth/login",
                data=json.dumps({"username": f"nobody{n}", "password": "x"}).encode(),
                headers={
                    "Content-Type": "application/json",
                    "X-CSRFToken": token,
                    "Cookie": f"csrftoken={token}",
                    # A new connection each time: the processes take turns accepting them.
                    "Connection": "close",
                },
                method="POST",
            )
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    statuses.append(answer.status)
            except urllib.error.HTTPError as error:
                statuses.append(error.code)
        return statuses

    runs = []
    try:
        _wait_listening(port, server)
        with urllib.request.urlopen(f"{base}/api/daily/today", timeout=30) as answer:
            jar = http.cookies.SimpleCookie()
            for header in answer.headers.get_all("Set-Cookie"):
                jar.load(header)
        token = jar["csrftoken"].value
        # The limit counts per minute of the clock (this machine's, the server's too): a run
        # that crosses into the next minute starts counting again, so it proves nothing and is
        # run again, in the new minute (a run takes seconds).
        for _ in range(2):
            # Counters of an earlier run in the same minute would count too.
            stale = list(server_keys.scan_iter("*farkle:rl:*"))
            if stale:
                server_keys.delete(*stale)
            started = time.time()
            statuses = logins(token)
            runs.append(statuses)
            if started // 60 == time.time() // 60:
                break
        else:
            pytest.fail(f"Every run crossed into another minute: {runs}")
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=60)
    assert runs[-1] == [400] * 20 + [429] * 4


def test_a_shared_counter_expires_with_its_window(shared_redis):
    from django.core.cache import cache

    from farkle_site import ratelimit

    name = f"test:{uuid.uuid4().hex}"
    now = 7_200.5  # 0.5 s into a window of an hour (windows start at multiples of it)
    counts = [ratelimit.hit(name, 3600, now=now).count for _ in range(3)]
    (key,) = shared_redis.keys(f"*farkle:rl:{name}:*")
    # The first hit of the window set its expiry, the window's length and a second; no hit
    # leaves a counter that never expires.
    assert counts == [1, 2, 3]
    assert key == cache.make_key(f"farkle:rl:{name}:2").encode()
    assert 3595 < shared_redis.ttl(key) <= 3601
    shared_redis.persist(key)
    ratelimit.hit(name, 3600, now=now)
    assert shared_redis.ttl(key) == -1  # only the window's first hit sets it
