"""Settings for the whole test run."""

import pytest
from django.conf import settings
from django.core.cache import cache
from django.utils import translation

from daily.services import puzzles
from play import game_cache
from tests import repository_guard
from tests.clock import frozen_at, suite_instant
from tests.moments import NOON


def pytest_configure(config):
    # A fresh clone has nothing beside it: refuse every file opened outside the repository.
    repository_guard.install()
    # The tests run with DEBUG off but without `collectstatic`: static files are found in the apps'
    # folders, as in development, instead of in the hashed copies production serves.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    settings.WHITENOISE_USE_FINDERS = True
    settings.WHITENOISE_AUTOREFRESH = True
    # Every game play/game_cache.py serves is checked against its replay, in every test.
    settings.FARKLE_CHECK_GAME_CACHE = True


@pytest.fixture(autouse=True)
def _nothing_read_outside_the_repository():
    # The guard raises where the file is opened; this also fails a test that caught the refusal.
    before = len(repository_guard.violations)
    yield
    refused = repository_guard.violations[before:]
    if refused:
        pytest.fail(f"opened outside the repository: {', '.join(refused)}", pytrace=False)


def pytest_sessionfinish(session, exitstatus):
    # Refusals during collection or in a fixture outside any test still fail the run.
    if repository_guard.violations and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(autouse=True)
def _suite_clock(request):
    # Every test at the suite's frozen instant, never the real date (tests/clock.py); first of
    # the test's own fixtures, so that what they make is made then too.
    if request.node.get_closest_marker("real_clock"):
        yield
        return
    with frozen_at(suite_instant()):
        yield


@pytest.fixture(autouse=True)
def _no_language_left_over():
    # The locale middleware activates a request's language in the thread and leaves it there:
    # a French request must not choose the language of the next test's code run outside one.
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_cache(_suite_clock):
    # Throttle counters live in the cache: every test starts with none; nor any remembered game.
    cache.clear()
    game_cache.clear()
    # Nor a process's recent counters of a daily: each test's database has its own rows.
    puzzles._recent.clear()
    yield
    cache.clear()


@pytest.fixture
def shared_redis():
    """A client of the Redis the cache, hence the throttles, count in (as in production); each
    test empties it (``_fresh_cache``)."""
    from django_redis import get_redis_connection

    return get_redis_connection("default")


@pytest.fixture
def clock():
    """Time frozen at NOON; move it with ``clock.move_to`` or ``clock.shift``."""
    with frozen_at(NOON) as traveller:
        yield traveller


@pytest.fixture
def new_process():
    """This process as one that has solved no game solution and shares none (farkle.solver's
    memory and store set aside); both as they were afterwards."""
    from farkle import solver

    kept, store = dict(solver._games), solver._shared
    solver.forget_game_solutions()
    solver.share_game_solutions(None)
    yield
    solver.share_game_solutions(store)
    solver.forget_game_solutions()
    solver._games.update(kept)
