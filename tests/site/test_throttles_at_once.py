"""A start's throttles counted in one round trip to Redis (farkle_site.ratelimit.hit_all,
issue 15 item 2): the same counts and refusals as one MULTI per throttle."""

import uuid

import pytest
from django.test import Client

from farkle_site import ratelimit, redis_wire
from tests.daily.helpers import post, start_daily
from tests.helpers import REDIS, rates, redis_commands_sent


@pytest.fixture
def commands(monkeypatch):
    """The commands Redis is sent (a pipeline's counted as one, "MULTI")."""
    sent = redis_commands_sent(monkeypatch)
    client = redis_wire.client(REDIS)
    pipe = type(client).pipeline.__get__(client)
    monkeypatch.setattr(client, "pipeline", lambda *a, **k: sent.append("MULTI") or pipe(*a, **k))
    return sent


def _counters(server, address: str) -> dict[str, int]:
    return {
        key.decode().split(":")[2].split("_address")[0]: int(server.get(key))
        for key in server.scan_iter(f"farkle:rl:*{address}*")
    }


@pytest.mark.django_db
def test_a_new_guests_start_counts_both_throttles_in_one_command(shared_redis, commands, clock):
    address = f"10.77.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}"
    ratelimit.hit_all([(f"test:{uuid.uuid4().hex}", 60)])  # Redis knows the script from now on
    commands.clear()
    start_daily(Client(REMOTE_ADDR=address), "today")
    # Counted by hand: the per-player (here per-address) start and the new guest's, one script.
    assert commands == ["EVALSHA"]
    keys = sorted(k.decode() for k in shared_redis.scan_iter(f"farkle:rl:*{address}*"))
    assert [key.split(":")[2].split("_")[1] for key in keys] == ["attempt", "guest"]
    assert [int(shared_redis.get(key)) for key in keys] == [1, 1]
    assert all(0 < shared_redis.ttl(key) <= 61 for key in keys if "attempt_start" in key)


@pytest.mark.django_db
def test_the_guest_limit_refuses_with_the_longest_wait(shared_redis, clock):
    address = f"10.78.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}"
    with rates(guest_start="2/hour", attempt_start="100/minute"):
        codes = [
            post(Client(REMOTE_ADDR=address), "/api/daily/today/attempts").status_code
            for _ in range(3)
        ]
        refused = post(Client(REMOTE_ADDR=address), "/api/daily/today/attempts")
    assert codes == [201, 201, 429]
    # The hour's window (the clock frozen at noon: a whole hour left), not the minute's.
    assert refused["Retry-After"] == "3600"
    # Each refused request was counted too, as DRF counts every throttle of a request.
    guest = next(k for k in shared_redis.scan_iter(f"farkle:rl:*guest_start*{address}*"))
    assert int(shared_redis.get(guest)) == 4


def test_hit_all_counts_each_window_as_hit_does(shared_redis):
    name = f"test:{uuid.uuid4().hex}"
    first = ratelimit.hit_all([(f"{name}:a", 60), (f"{name}:b", 3600)], now=1_000_030.0)
    second = ratelimit.hit_all([(f"{name}:a", 60), (f"{name}:b", 3600)], now=1_000_031.0)
    alone = ratelimit.hit(f"{name}:a", 60, now=1_000_032.0)
    assert [h.count for h in first] == [1, 1]
    assert [h.count for h in second] == [2, 2]
    assert alone.count == 3
    # 1,000,030 s is 10 s into a minute (16,667 × 60 = 1,000,020) and 2,830 s into an hour.
    assert [h.window_left for h in first] == [50.0, 770.0]
    assert ratelimit.hit_all([]) == []
