"""Settings for the whole test run."""

import pytest
import time_machine
from django.conf import settings
from django.core.cache import cache

from tests.moments import NOON


def pytest_configure(config):
    # The tests run with DEBUG off but without `collectstatic`: static files are found in the apps'
    # folders, as in development, instead of in the hashed copies production serves.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    settings.WHITENOISE_USE_FINDERS = True
    settings.WHITENOISE_AUTOREFRESH = True


@pytest.fixture(autouse=True)
def _fresh_cache():
    # Throttle counters live in the cache: every test starts with none.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def clock():
    """Time frozen at NOON; move it with ``clock.move_to`` or ``clock.shift``."""
    with time_machine.travel(NOON, tick=False) as traveller:
        yield traveller
