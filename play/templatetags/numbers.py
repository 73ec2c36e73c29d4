"""One way to write a number per language, on the pages as in the scripts (static/js/farkle.js's
``fmt``, ``pct`` and analysis.js's signed points): "2,763" / "2 763", "−2,763", "98.8%" / "98,8 %".

Django's ``floatformat`` alone writes "-2763" and the templates added their own "%" and "+",
so the same figure read differently on the end screen and in the replay (issue 40).
"""

from __future__ import annotations

import math

from django import template
from django.template.defaultfilters import floatformat
from django.utils.formats import number_format
from django.utils.translation import pgettext

register = template.Library()


def _rounded(value: float) -> int:
    # Half up, as the scripts' Math.round: Python's round() takes 12.5 to 12 where they say 13.
    return math.floor(value + 0.5)


@register.filter
def points(value: float | None) -> str:
    """Whole points, grouped: "2,763" in English, "2 763" in French."""
    if value is None:
        return "–"
    return number_format(_rounded(value), force_grouping=True)


@register.filter
def signed(value: float | None) -> str:
    """Points with their sign, a true minus: "+512", "−2,763"."""
    if value is None:
        return "–"
    rounded = _rounded(value)
    return ("+" if rounded >= 0 else "\u2212") + points(abs(rounded))


@register.filter
def percent(value: float | None, digits: int = 1) -> str:
    """A percentage with at most ``digits`` decimals: "98.8%", "100%", "98,8 %"."""
    if value is None:
        return "–"
    return pgettext("a percentage", "%(value)s%%") % {"value": floatformat(value, f"-{digits}g")}
