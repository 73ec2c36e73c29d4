"""A ruled challenge's optimal player solved off the request path (challenges/solutions.py): a
worker solves it once the challenge is made, into the shared cache, where web processes find it."""

from __future__ import annotations

import logging
import uuid

import pytest
import redis
from celery import Celery
from django.core.cache import caches
from kombu.exceptions import OperationalError

from challenges import solutions
from challenges.services import DAYS_MAX
from challenges.tasks import solve_house_rules_task
from farkle import solver
from farkle.tables import HouseRules
from tests.helpers import REDIS
from tests.processes import celery_worker

from ..daily.helpers import play_greedy, post

pytestmark = pytest.mark.django_db

SHARED_CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "shared": {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": REDIS},
}
# The quickest ruled solve of a site table (a few seconds): what the worker test waits for.
TABLE, RULES = "farkle-challenge", HouseRules(350, 0)


@pytest.fixture
def sent(monkeypatch, settings):
    """Tasks run by a worker (a broker configured), the solves queued recorded, not sent."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CACHE_URL = REDIS
    queued = []
    monkeypatch.setattr(solve_house_rules_task, "delay", lambda *args: queued.append(args))
    return queued


def create(client, **body):
    response = post(client, "/api/challenges", body)
    assert response.status_code == 201, response.json()
    return response.json()


def test_the_store_keeps_bytes_in_redis_for_longer_than_any_challenge(settings):
    settings.CACHES = SHARED_CACHES
    store = solutions.CacheStore("shared")
    key = f"test:solutions:{uuid.uuid4().hex}"

    store.set(key, b"\x00\xffsolution")

    assert store.get(key) == b"\x00\xffsolution"
    server = redis.Redis.from_url(REDIS)
    stored = caches["shared"].make_key(key)
    assert DAYS_MAX * 86400 < server.ttl(stored) <= 31 * 86400
    server.delete(stored)
    server.close()


def test_solutions_are_shared_through_a_shared_cache_only(settings, new_process):
    settings.CACHE_URL = REDIS
    solutions.share()
    assert isinstance(solver._shared, solutions.CacheStore)

    settings.CACHE_URL = None
    solutions.share()
    assert solver._shared is None


def test_a_ruled_challenge_queues_its_solve_once_made(
    client, sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        create(client, table="royal", entry_minimum=500, farkle_penalty=1000)
    assert sent == []  # nothing before the commit

    for callback in callbacks:
        callback()

    assert sent == [("royal", 500, 1000)]


def test_a_challenge_without_house_rules_queues_nothing(
    client, sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        create(client, table="royal", turn_seconds=30)

    assert sent == []


def test_with_tasks_run_in_process_nothing_is_queued(
    client, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    ran = []
    monkeypatch.setattr(solve_house_rules_task, "delay", lambda *args: ran.append(args))

    with django_capture_on_commit_callbacks(execute=True):
        create(client, entry_minimum=500)

    # The solve would only move into the creation's request: the first analysis does it.
    assert ran == []


def test_without_a_shared_cache_nothing_is_queued(
    client, sent, settings, django_capture_on_commit_callbacks
):
    settings.CACHE_URL = None

    with django_capture_on_commit_callbacks(execute=True):
        create(client, entry_minimum=500)

    # A worker's solution would reach no web process.
    assert sent == []


def test_a_broker_down_still_makes_the_challenge(
    client, settings, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CACHE_URL = REDIS

    def down(*args):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(solve_house_rules_task, "delay", down)

    with (
        caplog.at_level(logging.WARNING, logger="challenges.solutions"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        made = create(client, entry_minimum=500)

    assert client.get(f"/api/challenges/{made['code']}").status_code == 200
    assert any("Could not queue the solve" in r.getMessage() for r in caplog.records)


@pytest.fixture
def worker_queue():
    """A Celery worker on its own queue, sharing its solutions in the test Redis."""
    with celery_worker(
        CELERY_BROKER_URL=REDIS, CELERY_RESULT_BACKEND=REDIS, CACHE_URL=REDIS
    ) as queue:
        yield queue


def test_a_worker_solves_and_a_web_process_finds_it_without_solving(
    client, settings, worker_queue, new_process, monkeypatch
):
    settings.CACHES = SHARED_CACHES
    key = caches["shared"].make_key(solver.game_solution_key(solver.get_table(TABLE), RULES))
    server = redis.Redis.from_url(REDIS)
    server.delete(key)
    try:
        sender = Celery("farkle-test", broker=REDIS, backend=REDIS)
        result = sender.send_task(
            "challenges.solve_house_rules", args=[TABLE, 350, 0], queue=worker_queue
        )
        assert result.get(timeout=300) == {"table": TABLE, "rules": "350-0", "solved": True}
        assert server.exists(key)
        # Asked again (a second challenge of the same table and rules): kept longer, not solved.
        server.expire(key, 60)
        again = sender.send_task(
            "challenges.solve_house_rules", args=[TABLE, 350, 0], queue=worker_queue
        )
        assert again.get(timeout=60) == {"table": TABLE, "rules": "350-0", "solved": False}
        assert server.ttl(key) > DAYS_MAX * 86400
        # The par of seed 000's challenge table with a 350-point entry, stored with the solver.
        par = solver.stored_house_pars()[TABLE]["350-0"]

        solver.share_game_solutions(solutions.CacheStore("shared"))

        def no_solving(*args, **kwargs):
            raise AssertionError("solved in the web process")

        monkeypatch.setattr(solver, "solve_game", no_solving)
        found = solver.game_solution(TABLE, RULES)
        assert found.par == par
        assert found.rules == RULES

        # A player's game of such a challenge, played and analysed here with no solve.
        solver.forget_game_solutions()
        code = create(client, table=TABLE, entry_minimum=350)["code"]
        attempt = post(client, f"/api/challenges/{code}/attempts").json()
        finished = play_greedy(client, attempt, bank_at=400)
        analysis = client.get(f"/api/attempts/{finished['id']}/analysis")
        assert analysis.status_code == 200, analysis.json()
        assert analysis.json()["par"] == round(par, 2)
    finally:
        server.delete(key)
        server.close()
