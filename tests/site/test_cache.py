"""The Redis cache backend reuses one client per pool (farkle_site/cache.py, issue 15 item 5)."""

import os
import subprocess
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import redis
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache

from farkle_site.cache import RedisCache

ROOT = Path(__file__).resolve().parents[2]
REDIS = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@pytest.fixture
def constructions(monkeypatch):
    """How many ``redis.Redis`` clients were built (redis-py's own constructor, counted)."""
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
