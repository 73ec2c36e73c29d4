"""The calendar of dailies: one a UTC day, published a day ahead, from an operator's first day."""

from __future__ import annotations

import datetime

from django.conf import settings

from play.rules.days import day_of

# Issue 10: a daily's commitment is public at least a day before it opens. The reconcile (and,
# should beat be late, the first request) creates the next day's puzzle as soon as today opens.
PUBLISHED_AHEAD = datetime.timedelta(days=1)


def first_day() -> datetime.date:
    """The first date with a daily (an operator's setting)."""
    return settings.FARKLE_FIRST_DAY


def published_until(now: datetime.datetime) -> datetime.date:
    """The last date whose daily exists at ``now``: tomorrow, upcoming with its commitment."""
    return day_of(now) + PUBLISHED_AHEAD
