"""UTC days, the site's unit of play (a daily, a group's table, a streak): the date of an instant,
the instant a date starts, and the one form of a date in public URLs."""

from __future__ import annotations

import datetime
import re

from farkle_site.domain import Invalid

UTC = datetime.UTC

# A day as URLs and query strings write it, for the OpenAPI schema too (ASCII digits: \d would
# also match other scripts' digits).
DAY_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
_DAY = re.compile(DAY_PATTERN)


def day_of(now: datetime.datetime) -> datetime.date:
    """The UTC date of an instant: the day whose daily is open."""
    return now.astimezone(UTC).date()


def day_start(day: datetime.date) -> datetime.datetime:
    return datetime.datetime.combine(day, datetime.time(), tzinfo=UTC)


def parse_day(text: str) -> datetime.date:
    """A date of the form YYYY-MM-DD (only that one: dates are part of public URLs)."""
    try:
        if _DAY.fullmatch(text):
            return datetime.date.fromisoformat(text)
    except ValueError:
        pass
    raise Invalid("invalid_date", f"{text[:20]} is not a date (YYYY-MM-DD).")
