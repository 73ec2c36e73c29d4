"""The daily on any day of the year (issue 44): the suite's sweep, cheap enough to run every time.

At each of the sweep's instants (tests/clock.py: month ends at 23:59:59 and 00:00:00 UTC, the
last day of a year, the leap day, and an instant every 13 days over a year), a fresh browser
reads the day, plays it to the end through the API and finds itself on the leaderboard. What
each answer should say comes from the SPEC (§4: a day opens at 00:00:00Z and takes actions until
the next midnight plus a 90-second grace) and from the engine playing the same dice, never from
the site's own code. tests/sweep.py runs the rest of the date-dependent tests over the same
instants.
"""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.test import Client

import farkle
from tests.clock import frozen_at, sweep_instants

from .helpers import greedy_action, play_greedy, post

pytestmark = pytest.mark.django_db

GRACE = datetime.timedelta(seconds=90)
DAY = datetime.timedelta(days=1)


def _iso(instant: datetime.datetime) -> str:
    return instant.isoformat().replace("+00:00", "Z")


def _engine_greedy_score(day: datetime.date) -> int:
    """The score of the greedy player of tests/daily/helpers.py on that day's dice, played by the
    engine alone."""
    game = farkle.Game.new(farkle.daily_seed(settings.FARKLE_SEED_SECRET.encode(), day))
    while not game.finished:
        if game.state == farkle.AWAITING_ROLL:
            game = game.apply(farkle.Roll())
            continue
        options = game.keep_options()
        best = max(options, key=lambda o: (o.points, -len(o.positions)))
        then = "bank" if game.turn_points + best.points >= 300 else "roll"
        game = game.apply(farkle.Keep(positions=best.positions, then=then))
    return game.score


@pytest.mark.parametrize("instant", sweep_instants(), ids=_iso)
def test_a_daily_is_read_played_and_ranked_at(instant):
    day = instant.date()
    midnight = datetime.datetime.combine(day, datetime.time(0), datetime.UTC)
    with frozen_at(instant):
        client = Client()
        today = client.get("/api/daily/today").json()
        assert (today["date"], today["status"]) == (day.isoformat(), "open")
        assert (today["opens_at"], today["ends_at"], today["closes_at"]) == (
            _iso(midnight),
            _iso(midnight + DAY),
            _iso(midnight + DAY + GRACE),
        )
        tomorrow = client.get(f"/api/daily/{day + DAY}").json()
        assert tomorrow["status"] == "upcoming"
        assert client.get(f"/api/daily/{day + 2 * DAY}").status_code == 404

        started = post(client, "/api/daily/today/attempts")
        assert started.status_code == 201, started.json()
        attempt = started.json()
        assert (attempt["official"], attempt["puzzle"], attempt["deadline"]) == (
            True,
            {"kind": "daily", "date": day.isoformat()},
            _iso(midnight + DAY + GRACE),
        )
        assert greedy_action(attempt) == {"action": "roll"}
        finished = play_greedy(client, attempt)
        assert finished["score"] == _engine_greedy_score(day)

        board = client.get(f"/api/daily/{day}/leaderboard").json()
        mine = {"rank": 1, "score": finished["score"], "finished_at": _iso(instant)}
        assert board["players"] == 1
        assert {key: board["me"][key] for key in mine} == mine
        assert [{key: entry[key] for key in mine} for entry in board["entries"]] == [mine]
