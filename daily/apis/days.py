"""Dailies in URLs: a date (YYYY-MM-DD), or ``today``; the views that find a daily by it."""

from __future__ import annotations

import datetime
from typing import Any

from drf_spectacular.utils import OpenApiParameter

from daily.services.puzzles import daily_get_or_create
from play.apis.puzzles import PuzzleApi
from play.models import Puzzle
from play.rules.days import DAY_PATTERN, day_of, parse_day

# The day in a URL, as the OpenAPI schema describes it.
DAY_PARAMETER = OpenApiParameter(
    "day", str, OpenApiParameter.PATH, pattern=DAY_PATTERN, description="A UTC date, YYYY-MM-DD."
)
DAY_OR_TODAY_PARAMETER = OpenApiParameter(
    "day",
    str,
    OpenApiParameter.PATH,
    pattern=f"^(today|{DAY_PATTERN.strip('^$')})$",
    description="A UTC date, YYYY-MM-DD, or `today`.",
)


def day_or_today(text: str, now: datetime.datetime) -> datetime.date:
    """A date from the URL, where ``today`` means the UTC date of ``now``."""
    return day_of(now) if text == "today" else parse_day(text)


class DailyApi(PuzzleApi):
    # A view of the daily the URL's ``day`` names (``today`` too, unless ``today_allowed`` is off).

    today_allowed = True
    path_parameters = [DAY_OR_TODAY_PARAMETER]
    # A start is given the shared cache's copy (below), which the start proves.
    puzzle_read = False

    def _day(self, text: str, now: datetime.datetime) -> datetime.date:
        return day_or_today(text, now) if self.today_allowed else parse_day(text)

    def find_puzzle(self, *, now: datetime.datetime, **url_kwargs: Any) -> Puzzle:
        return daily_get_or_create(day=self._day(url_kwargs["day"], now), now=now)

    def find_puzzle_to_start(self, *, now: datetime.datetime, **url_kwargs: Any) -> Puzzle:
        # The shared cache's copy, its counters unread: a start needs none of them, and its
        # count of the player proves the copy (every fresh browser of the midnight rush).
        day = self._day(url_kwargs["day"], now)
        return daily_get_or_create(day=day, now=now, counters=False)
