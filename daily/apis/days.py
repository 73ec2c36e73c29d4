"""Dailies in URLs: a date (YYYY-MM-DD), or ``today``; the views that find a daily by it."""

from __future__ import annotations

import datetime
import re
from typing import Any

from daily.apis.puzzles import PuzzleApi
from daily.models import Puzzle
from daily.rules.calendar import day_of
from daily.services.puzzles import daily_get_or_create
from farkle_site.domain import Invalid

_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def parse_day(text: str) -> datetime.date:
    """A date of the form YYYY-MM-DD (only that one: dates are part of public URLs)."""
    try:
        if _DAY.fullmatch(text):
            return datetime.date.fromisoformat(text)
    except ValueError:
        pass
    raise Invalid("invalid_date", f"{text!r} is not a date (YYYY-MM-DD).")


def day_or_today(text: str, now: datetime.datetime) -> datetime.date:
    """A date from the URL, where ``today`` means the UTC date of ``now``."""
    return day_of(now) if text == "today" else parse_day(text)


class DailyApi(PuzzleApi):
    # A view of the daily the URL's ``day`` names (``today`` too, unless ``today_allowed`` is off).

    today_allowed = True

    def find_puzzle(self, *, now: datetime.datetime, **url_kwargs: Any) -> Puzzle:
        text = url_kwargs["day"]
        day = day_or_today(text, now) if self.today_allowed else parse_day(text)
        return daily_get_or_create(day=day, now=now)
