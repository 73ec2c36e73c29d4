"""Writes of puzzles: a day's daily, created on demand exactly as the rollover would."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import IntegrityError, transaction

import farkle
from daily.models import DAILY_GRACE, Puzzle
from daily.rules.calendar import day_start, first_day, published_until
from farkle_site.domain import NotFound


def daily_create(*, day: datetime.date) -> bool:
    """Create the daily of ``day`` with its commitment unless it exists; True when created.

    Two creators may race (the request path and the rollover): the unique constraint keeps one
    row and the other creator finds it.
    """
    if Puzzle.objects.filter(kind=Puzzle.Kind.DAILY, day=day).exists():
        return False
    seed = farkle.daily_seed(settings.FARKLE_SEED_SECRET.encode(), day)
    ends_at = day_start(day + datetime.timedelta(days=1))
    try:
        with transaction.atomic():
            Puzzle.objects.create(
                kind=Puzzle.Kind.DAILY,
                day=day,
                table=farkle.DEFAULT_TABLE,
                commitment=farkle.commitment(seed),
                opens_at=day_start(day),
                ends_at=ends_at,
                closes_at=ends_at + DAILY_GRACE,
            )
    except IntegrityError:
        return False
    return True


def daily_get_or_create(*, day: datetime.date, now: datetime.datetime) -> Puzzle:
    """The daily of ``day``, created on first use exactly as the rollover would; NotFound
    ``not_found`` for a day beyond the published horizon (whatever the client's clock says) or
    before the first day. Tomorrow's daily exists, upcoming: its commitment is public."""
    if day > published_until(now) or day < first_day():
        raise NotFound("not_found", f"There is no daily for {day.isoformat()}.")
    puzzle = Puzzle.objects.filter(kind=Puzzle.Kind.DAILY, day=day).first()
    if puzzle is None:
        daily_create(day=day)
        puzzle = Puzzle.objects.get(kind=Puzzle.Kind.DAILY, day=day)
    return puzzle
