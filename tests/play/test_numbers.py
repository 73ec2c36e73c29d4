"""The pages' one way to write a number per language (play/templatetags/numbers.py), as the
scripts write it with Intl.NumberFormat: expected values as a reader of each language writes
them."""

from __future__ import annotations

import pytest
from django.utils import translation

from play.templatetags.numbers import percent, points, signed

NNBSP = "\u202f"


@pytest.mark.parametrize(
    ("language", "value", "expected"),
    [
        ("en", 2763.4, "2,763"),
        ("en", 12.5, "13"),
        ("fr", 2763.4, f"2{NNBSP}763"),
        ("en", None, "–"),
    ],
)
def test_points_are_whole_and_grouped(language, value, expected):
    with translation.override(language):
        assert points(value) == expected


@pytest.mark.parametrize(
    ("language", "value", "expected"),
    [
        ("en", -2763.2, "\u22122,763"),
        ("en", 512, "+512"),
        ("en", 0.2, "+0"),
        ("fr", -2763.2, f"\u22122{NNBSP}763"),
    ],
)
def test_signed_points_use_a_true_minus(language, value, expected):
    with translation.override(language):
        assert signed(value) == expected


@pytest.mark.parametrize(
    ("language", "value", "digits", "expected"),
    [
        ("en", 98.84, 1, "98.8%"),
        ("en", 100.0, 1, "100%"),
        ("fr", 98.84, 1, f"98,8{NNBSP}%"),
        ("fr", 100.0, 1, f"100{NNBSP}%"),
        ("en", 33.333, 2, "33.33%"),
    ],
)
def test_percentages_as_each_language_writes_them(language, value, digits, expected):
    with translation.override(language):
        assert percent(value, digits) == expected
