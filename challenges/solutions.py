"""The optimal player under house rules, solved once for every process of the site.

A challenge with house rules (an entry minimum, a Farkle penalty) is analysed against the whole
game's solution under them (``farkle.solver.game_solution``), which takes seconds of one core to
solve, holding the interpreter's lock: 2.3-6.6 s on ``farkle-challenge``, 18 s on ``royal`` with
both rules. Solved in a web process, that was the wait of the first analysis, replay or
leaderboard of such a challenge in each process, and a stall of every other request of that
process meanwhile. So a ruled challenge, once created, is solved by a Celery worker, which leaves
the solution in the site's shared cache; a web process then reads it from there (1.2 MB and 25 ms
to decode on ``farkle-challenge``, 4.3 MB and 150 ms on ``royal``) and keeps it. A solution the
cache does not hold (evicted, the worker down or not yet done) is solved where it is needed, as
before, and shared from there.
"""

from __future__ import annotations

import datetime
import logging
from functools import partial

from django.conf import settings
from django.core.cache import caches
from django.db import transaction

import farkle
from farkle import solver
from farkle.tables import HouseRules

logger = logging.getLogger(__name__)

# Longer than any challenge lasts (challenges.services.DAYS_MAX), from the last creation of a
# challenge with the same table and rules (which keeps it that long again): a live challenge's
# solution stays, one nobody plays any more leaves the cache. Evicted early, it is solved again.
KEPT_FOR = int(datetime.timedelta(days=31).total_seconds())


class CacheStore:
    """``farkle.solver.SharedStore`` on one of the site's caches."""

    def __init__(self, alias: str = "default") -> None:
        self.alias = alias

    def get(self, key: str) -> bytes | None:
        return caches[self.alias].get(key)

    def set(self, key: str, value: bytes) -> None:
        caches[self.alias].set(key, value, KEPT_FOR)

    def keep(self, key: str) -> bool:
        """Keep ``key`` for ``KEPT_FOR`` from now; whether the cache held it."""
        return caches[self.alias].touch(key, KEPT_FOR)


def share() -> None:
    """Share game solutions through the site's cache when it is shared (Redis, ``CACHE_URL``):
    a cache in each process's own memory would only hold a second copy of what it keeps."""
    solver.share_game_solutions(CacheStore() if settings.CACHE_URL else None)


def prepare(table: str, rules: HouseRules, alias: str = "default") -> bool:
    """See that the shared cache holds the game solution of ``table`` under ``rules`` for
    ``KEPT_FOR`` from now: kept longer if it is there, solved into it otherwise (not kept in
    this process: a worker serves other tables next); whether it was solved."""
    found = farkle.get_table(table)
    store, key = CacheStore(alias), solver.game_solution_key(found, rules)
    if store.keep(key):
        return False
    store.set(key, solver.encode_game(solver.solve_game(found, rules)))
    return True


def solve_later(rules: HouseRules, table: str) -> None:
    """Have a worker solve ``table`` under ``rules`` once the current transaction commits. Not
    with tasks run in-process (no broker): the solve would only move to the challenge's creation;
    nor without a shared cache, where a worker's solution would reach no web process."""
    if rules.off or settings.CELERY_TASK_ALWAYS_EAGER or not settings.CACHE_URL:
        return
    transaction.on_commit(partial(_send, table, rules))


def _send(table: str, rules: HouseRules) -> None:
    from challenges.tasks import solve_house_rules_task

    try:
        solve_house_rules_task.delay(table, rules.entry_minimum, rules.farkle_penalty)
    except Exception as error:
        # The challenge is made; its first analysis solves where it is needed instead.
        logger.warning("Could not queue the solve of %s under %s: %r", table, rules, error)
