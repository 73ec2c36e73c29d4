"""One way to write a day per language, everywhere: "November 29, 2026", "29 novembre 2026".

The scripts write the same with ``Intl.DateTimeFormat`` (day, long month, year); Django's own
``DATE_FORMAT`` for English ("Nov. 29, 2026") would be a second English form.
"""

from __future__ import annotations

import datetime

from django import template
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext, pgettext

register = template.Library()


def day_text(value: datetime.date) -> str:
    """A day in the page's language: "November 29, 2026" or "29 novembre 2026", and a month's
    first day as the language writes it ("1er décembre 2026")."""
    if value.day == 1:
        return date_format(value, pgettext("date format of a month's first day", "F j, Y"))
    return date_format(value, pgettext("date format of a day", "F j, Y"))


@register.filter
def day(value: datetime.date | None) -> str:
    """``{{ puzzle.day|day }}``: see ``day_text``."""
    return day_text(value) if value else ""


@register.filter
def moment(value: datetime.datetime | None) -> str:
    """A UTC instant as its day and a 24-hour time: "December 6, 2026 at 00:00"."""
    if not value:
        return ""
    value = value.astimezone(datetime.UTC)
    return gettext("%(day)s at %(time)s") % {
        "day": day_text(value),
        "time": time_format(value, "H:i"),
    }
