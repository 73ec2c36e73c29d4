"""The optimal player under house rules, solved once for every process of the site.

A challenge with house rules (an entry minimum, a Farkle penalty) is analysed against the whole
game's solution under them (``farkle.solver.game_solution``), which takes seconds to solve: up
to 7 s of one core for the slowest table and rules, holding the interpreter's lock. Solved in a
web process, that was the wait of the first analysis, replay or leaderboard of such a challenge
in each process, and a stall of every other request of that process meanwhile. So a ruled
challenge, once created, is solved by a Celery worker, which leaves the solution in the site's
shared cache; a web process then reads it from there (about 1.2 MB, tens of milliseconds) and
keeps it. A solution the cache does not hold (evicted, the worker down or not yet done) is solved
where it is needed, as before, and shared from there.
"""

from __future__ import annotations

import datetime
import logging
from functools import partial

from django.conf import settings
from django.core.cache import caches
from django.db import transaction

from farkle import solver
from farkle.tables import HouseRules

logger = logging.getLogger(__name__)

# Longer than any challenge lasts (challenges.services.DAYS_MAX): a live challenge's solution
# stays, and one nobody plays any more leaves the cache in time. Expired early, it is solved again.
KEPT_FOR = datetime.timedelta(days=31)


class CacheStore:
    """``farkle.solver.SharedStore`` on one of the site's caches."""

    def __init__(self, alias: str = "default") -> None:
        self.alias = alias

    def get(self, key: str) -> bytes | None:
        return caches[self.alias].get(key)

    def set(self, key: str, value: bytes) -> None:
        caches[self.alias].set(key, value, int(KEPT_FOR.total_seconds()))


def share() -> None:
    """Share game solutions through the site's cache when it is shared (Redis, ``CACHE_URL``):
    a cache in each process's own memory would only hold a second copy of what it keeps."""
    solver.share_game_solutions(CacheStore() if settings.CACHE_URL else None)


def solve_later(rules: HouseRules, table: str) -> None:
    """Have a worker solve ``table`` under ``rules`` once the current transaction commits. Not
    with tasks run in-process (no broker): the solve would only move to the challenge's creation."""
    if rules.off or settings.CELERY_TASK_ALWAYS_EAGER:
        return
    transaction.on_commit(partial(_send, table, rules))


def _send(table: str, rules: HouseRules) -> None:
    from challenges.tasks import solve_house_rules_task

    try:
        solve_house_rules_task.delay(table, rules.entry_minimum, rules.farkle_penalty)
    except Exception as error:
        # The challenge is made; its first analysis solves where it is needed instead.
        logger.warning("Could not queue the solve of %s under %s: %r", table, rules, error)
