"""Rows looked up by a unique key are asked for as they are (``get()``), not sorted first
(``first()`` adds an ORDER BY that the ORM compiles and the database sorts by, for one row)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from farkle_site.db import one_or_none
from play import game_cache
from play.models import Player
from tests.daily.helpers import act, start_daily
from tests.moments import NOON

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]
DAY = NOON.date().isoformat()


def _selects(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].startswith("SELECT")]


def test_one_or_none_is_the_row_or_none(db):
    player = Player.objects.create(display_name="Quiet Heron 7", created_at=NOON)
    assert one_or_none(Player.objects.filter(pk=player.pk)) == player
    assert one_or_none(Player.objects.filter(pk=player.pk + 1)) is None
    with pytest.raises(Player.MultipleObjectsReturned):
        Player.objects.create(display_name="Calm Heron 7", created_at=NOON)
        one_or_none(Player.objects.all())


def test_the_unique_reads_of_a_day_and_an_action_sort_nothing(client, settings):
    settings.FARKLE_CHECK_GAME_CACHE = False  # its own read is the tests', not the site's
    settings.FARKLE_RECENT_COUNTERS_MS = 0  # the day's counters are read each time
    attempt = start_daily(client, DAY)
    with CaptureQueriesContext(connection) as queries:
        # The session's player, the daily's counters, the player's attempts on it.
        assert client.get(f"/api/daily/{DAY}").status_code == 200
        # An action on a game this process does not remember reads the attempt's row.
        game_cache.clear()
        assert act(client, attempt, {"action": "roll"}).status_code == 200
    selects = _selects(queries)
    reads = {
        "player": '"daily_player"."id" = ',
        "counters": 'SELECT "daily_puzzle"."players" AS',
        "attempt": 'FROM "daily_attempt" INNER JOIN "daily_puzzle"',
    }
    for name, sign in reads.items():
        found = [sql for sql in selects if sign in sql]
        assert len(found) == 1, (name, selects)
        assert "ORDER BY" not in found[0], (name, found[0])
