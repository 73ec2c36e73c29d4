"""Helpers every test package shares: real-thread races, stored rows, throttle rates."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import connection
from django.test import override_settings

from daily.models import Attempt


def race(n: int, work: Callable[[], Any]) -> list:
    """Run ``work`` in n threads released together, each on its own database connection; their
    results (or the exception each raised) in thread order."""
    barrier = threading.Barrier(n)
    results: list = [None] * n

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = work()
        except Exception as error:  # The race's loser refusing is a result like any other.
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def stored(attempt_id: int) -> dict:
    """What the database holds for an attempt, to prove a refusal changed nothing."""
    return Attempt.objects.filter(pk=attempt_id).values().get()


def rates(**changes: str) -> override_settings:
    """The throttle rates of the settings with ``changes`` (scope: "n/period")."""
    current = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    return override_settings(
        REST_FRAMEWORK={
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {**current, **changes},
        }
    )
