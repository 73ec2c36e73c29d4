"""The Redis cache backend reuses one client per pool (farkle_site/cache.py, issue 15 item 5)."""

import os
import subprocess
import sys
import uuid
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import pytest
import redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT, CacheKeyWarning
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisSerializer
from hypothesis import given
from hypothesis import strategies as st

from farkle_site import redis_wire
from farkle_site.cache import PickleFirstSerializer, RedisCache
from tests.helpers import REDIS, redis_commands_sent

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def constructions(monkeypatch):
    """How many ``redis.Redis`` clients were built (redis-py's own constructor, counted), once
    the one the gets and sets take their connections' settings from is made."""
    redis_wire.client(REDIS)
    built = []
    original = redis.Redis.__init__

    def counting(self, *args, **kwargs):
        built.append(self)
        original(self, *args, **kwargs)

    monkeypatch.setattr(redis.Redis, "__init__", counting)
    return built


@pytest.fixture
def caches():
    """Make caches, and close their sockets afterwards (an open one warns when collected)."""
    made = []

    def make(backend):
        made.append(backend(REDIS, {}))
        return made[-1]

    yield make
    for cache in made:
        for pool in cache._cache._pools.values():
            pool.disconnect()


def commands(cache) -> list:
    """Ten commands of the kinds a request sends: add, set, get, incr, get_many, delete."""
    key = f"test:cache:{uuid.uuid4().hex}"
    seen = [cache.add(key, 1, 60), cache.get(key), cache.incr(key), cache.get(key)]
    cache.set(f"{key}:b", {"x": [1, 2]}, 60)
    many = cache.get_many([key, f"{key}:b"])
    seen += [[many[key], many[f"{key}:b"]], cache.get(f"{key}:b"), cache.has_key(key)]
    cache.delete_many([key, f"{key}:b"])
    seen.append(cache.get(key, "gone"))
    return seen


# Each command's answer, as Redis and Django's cache API define them.
EXPECTED = [True, 1, 2, 2, [2, {"x": [1, 2]}], {"x": [1, 2]}, True, "gone"]


def test_one_client_serves_every_command(constructions, caches):
    cache = caches(RedisCache)
    assert commands(cache) == EXPECTED
    assert len(constructions) == 1


def test_django_alone_builds_a_client_per_command(constructions, caches):
    # Why farkle_site/cache.py exists: should Django stop doing this, the class can go.
    assert commands(caches(DjangoRedisCache)) == EXPECTED
    assert len(constructions) >= 10


def test_a_pool_is_made_under_the_clients_lock(caches, monkeypatch):
    # Django makes a missing pool without a lock: two threads' first commands could each make
    # one, and the threads then get two clients (the test below saw it once in a while).
    cache = caches(RedisCache)
    client = cache._cache
    made_locked = []
    pool_class = client._pool_class

    def from_url(*args, **kwargs):
        made_locked.append(client._making.locked())
        return pool_class.from_url(*args, **kwargs)

    monkeypatch.setattr(client, "_pool_class", SimpleNamespace(from_url=from_url))
    key = f"test:cache:{uuid.uuid4().hex}"
    # Commands that take the pool's client (a get and a set go on the thread's own connection).
    assert cache.add(key, 1, 60) and cache.incr(key) == 2
    cache.delete(key)
    assert made_locked == [True]


def test_threads_share_the_client_and_keep_their_answers(constructions, caches):
    cache = caches(RedisCache)
    prefix = f"test:cache:{uuid.uuid4().hex}"

    def work(i: int) -> int:
        cache.set(f"{prefix}:{i}", i, 60)
        for _ in range(i):
            cache.incr(f"{prefix}:{i}")
        return cache.get(f"{prefix}:{i}")

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(work, range(40)))
    cache.delete_many([f"{prefix}:{i}" for i in range(40)])
    assert results == [2 * i for i in range(40)]
    assert len(constructions) == 1


def test_settings_use_it_with_a_redis_cache_url():
    env = {**os.environ, "CACHE_URL": REDIS, "DJANGO_SETTINGS_MODULE": "farkle_site.settings"}
    env.update(DEBUG="1")
    code = (
        "import django; django.setup(); from django.core.cache import caches; "
        "cache = caches['default']; print(type(cache).__module__, type(cache._cache).__name__)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["farkle_site.cache", "ReusedRedisCacheClient"]


def test_gets_and_sets_go_on_the_threads_own_connection(caches, monkeypatch):
    cache = caches(RedisCache)
    key = f"test:cache:{uuid.uuid4().hex}"

    def refused(self, *args, **options):
        raise AssertionError(f"sent through redis-py's client: {args[0]}")

    monkeypatch.setattr(redis.Redis, "execute_command", refused)
    sent = redis_commands_sent(monkeypatch)
    cache.set(key, {"player": 7}, 60)
    assert cache.get(key) == {"player": 7}
    cache.set(key, "gone", 0)
    assert cache.get(key, "default") == "default"
    assert sent == ["SET", "GET", "DEL", "GET"]


# Values and timeouts as a request caches them (None: for good; 0: deleted; the default: 300 s).
VALUES = [{"seen": "2026-12-01", "farkle_player_id": 12}, 5, "text", [1, None], True]
TIMEOUTS = [60, None, 0, DEFAULT_TIMEOUT, 2.5]


@pytest.mark.parametrize("timeout", TIMEOUTS)
def test_what_one_backend_stores_the_other_reads_with_the_same_expiry(caches, timeout):
    ours, djangos = caches(RedisCache), caches(DjangoRedisCache)
    server = redis.Redis.from_url(REDIS)
    for writer, reader in ((ours, djangos), (djangos, ours)):
        for value in VALUES:
            key = f"test:cache:{uuid.uuid4().hex}"
            writer.set(key, value, timeout, version=3)
            stored = djangos.make_and_validate_key(key, version=3)
            # Expiries by hand: Django's RedisCache.get_backend_timeout.
            if timeout == 0:
                assert (reader.get(key, "none", version=3), server.exists(stored)) == ("none", 0)
                continue
            assert reader.get(key, version=3) == value
            assert reader.get(key, "other version", version=2) == "other version"
            ttl = server.ttl(stored)
            expected = {60: 60, None: -1, DEFAULT_TIMEOUT: 300, 2.5: 2}[timeout]
            assert ttl == expected if expected <= 0 else 0 < ttl <= expected
            server.delete(stored)
    # An integer is stored as digits (Django's serializer), so that incr can count on it.
    key = f"test:cache:{uuid.uuid4().hex}"
    ours.set(key, 41, 60)
    assert server.get(ours.make_and_validate_key(key)) == b"41"
    assert (ours.incr(key), djangos.get(key)) == (42, 42)
    ours.delete(key)
    server.close()


def test_a_cache_with_options_sends_every_command_through_djangos_client(caches, monkeypatch):
    cache = RedisCache(REDIS, {"OPTIONS": {"socket_timeout": 5}})
    calls = []
    original = redis.Redis.execute_command
    monkeypatch.setattr(
        redis.Redis,
        "execute_command",
        lambda self, *args, **kw: calls.append(args[0]) or original(self, *args, **kw),
    )
    key = f"test:cache:{uuid.uuid4().hex}"
    cache.set(key, "x", 60)
    assert cache.get(key) == "x"
    cache.delete(key)
    assert calls == ["SET", "GET", "DEL"]
    for pool in cache._cache._pools.values():
        pool.disconnect()


def _memcached_would_refuse() -> str:
    # A space, and longer than memcached's 250 characters.
    return f"test:cache:{uuid.uuid4().hex} with a space:" + "x" * 250


def test_a_key_memcached_would_refuse_is_stored_without_a_warning(caches):
    cache = caches(RedisCache)
    key = _memcached_would_refuse()

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cache.set(key, 1, 60)
        assert cache.get(key) == 1
        cache.delete(key)


def test_djangos_backend_checks_every_key_for_memcached(caches):
    cache = caches(DjangoRedisCache)
    key = _memcached_would_refuse()

    with pytest.warns(CacheKeyWarning):
        cache.set(key, 1, 60)
    with pytest.warns(CacheKeyWarning):
        assert cache.get(key) == 1
    with pytest.warns(CacheKeyWarning):
        cache.delete(key)


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text() | st.binary() | st.floats(),
        lambda children: st.lists(children) | st.dictionaries(st.text(), children),
        max_leaves=20,
    )
)
def test_the_serializer_reads_what_djangos_writes_as_django_reads_it(value):
    stored = RedisSerializer().dumps(value)
    # What Redis hands back: bytes (an integer is stored as its digits).
    raw = str(stored).encode() if isinstance(stored, int) else stored
    mine, djangos = PickleFirstSerializer().loads(raw), RedisSerializer().loads(raw)
    assert repr(mine) == repr(djangos)
    for digits in (b"0", b"-17", b" 42 ", b"1_000"):
        assert PickleFirstSerializer().loads(digits) == RedisSerializer().loads(digits)


def _exceptions_raised_reading(serializer, raw: bytes) -> list:
    """The exceptions raised in the serializer's frames (caught there or not) as it reads."""
    raised = []

    def frames(frame, event, arg):
        return events

    def events(frame, event, arg):
        if event == "exception":
            raised.append(arg[0])
        return events

    sys.settrace(frames)
    try:
        serializer.loads(raw)
    finally:
        sys.settrace(None)
    return raised


def test_a_pickle_is_read_without_first_failing_as_an_integer(caches):
    raw = RedisSerializer().dumps({"seen": "2026-12-01", "farkle_player_id": 12})
    assert _exceptions_raised_reading(PickleFirstSerializer(), raw) == []
    # Django's own tries int() first, which fails (the cost the project's serializer spares).
    assert _exceptions_raised_reading(RedisSerializer(), raw) == [ValueError]
    assert isinstance(caches(RedisCache)._cache._serializer, PickleFirstSerializer)
    chosen = RedisCache(REDIS, {"OPTIONS": {"serializer": RedisSerializer}})
    assert type(chosen._cache._serializer) is RedisSerializer
