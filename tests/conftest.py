"""Settings for the whole test run."""

import pytest
from django.conf import settings
from django.core.cache import cache


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
