"""An action that banks nothing rewrites its attempt without touching the table's indexes (a HOT
update): no index reads the columns such an action changes (docs/performance.md)."""

import pytest
from django.db import connection

from tests.daily.helpers import act, start_daily

DAY = "2026-11-29"

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


def _updates() -> tuple[int, int]:
    """This transaction's updates of attempts so far: all of them, and the HOT ones."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_stat_get_xact_tuples_updated('daily_attempt'::regclass),"
            " pg_stat_get_xact_tuples_hot_updated('daily_attempt'::regclass)"
        )
        return cursor.fetchone()


def test_rolls_and_keeps_that_bank_nothing_are_hot_updates(client):
    attempt = start_daily(client, DAY)
    before = _updates()
    moves = 0
    # Roll, and keep while rolling on, until a bank or a Farkle would change the score (an
    # indexed column): each of these changes the state, the step and the actions only.
    while True:
        if attempt["state"] == "awaiting_roll":
            moved = act(client, attempt, {"action": "roll"}).json()
        else:
            best = max(attempt["keep_options"], key=lambda o: o["dice_left"])
            moved = act(client, attempt, {"action": "keep", "dice": best["dice"], "then": "roll"})
            moved = moved.json()
        if moved["score"] != attempt["score"] or moved["turn"] != attempt["turn"]:
            break
        attempt = moved
        moves += 1
    after = _updates()

    updated, hot = after[0] - before[0], after[1] - before[1]
    assert moves >= 1
    # Every update before the one that ended the turn was HOT (that one may be HOT too).
    assert updated == moves + 1
    assert hot >= moves
