import pytest


@pytest.fixture(autouse=True)
def _fresh_throttles():
    # Throttle counters live in the cache: each test starts with none.
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
