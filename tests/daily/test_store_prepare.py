"""The game's update prepares its values as Django does, without Django's chain of calls for
the plain ones (daily/services/attempts.py, ``_prepare_plainly``; issue 15)."""

from __future__ import annotations

import datetime
import itertools
import warnings
import zoneinfo
from unittest import mock

import pytest
from django.db import connection, models

from daily.models import Attempt
from daily.services.attempts import _prepare_plainly

pytestmark = pytest.mark.django_db

# Every field the update may write: an action's, a clock's and a finishing game's.
WRITTEN = (
    "state",
    "step",
    "turn",
    "score",
    "updated_at",
    "finished_at",
    "turn_started_at",
    "time_taken",
    "held",
    "foresight",
    "foresight_p",
    "score_position",
)
UTC_NOON = datetime.datetime(2026, 12, 3, 12, tzinfo=datetime.UTC)
VALUES = (
    None,
    0,
    7,
    1_000_000,
    True,
    False,
    2.5,
    "awaiting_keep",
    Attempt.State.FINISHED,
    UTC_NOON,
    UTC_NOON.astimezone(zoneinfo.ZoneInfo("Europe/Paris")),
    datetime.datetime(2026, 12, 3, 12),
    datetime.timedelta(seconds=42),
    {"p": 0.5},
    [1, 2],
)


def _django(field, value):
    with warnings.catch_warnings():
        # A naive date-time: Django warns, then makes it aware.
        warnings.simplefilter("ignore", RuntimeWarning)
        return field.get_db_prep_save(value, connection)


def _comparable(prepared):
    # Django's JSON parameter wraps the value in an adapter without equality of its own.
    return (type(prepared), getattr(prepared, "obj", prepared))


@pytest.mark.parametrize(("name", "value"), list(itertools.product(WRITTEN, VALUES)))
def test_each_value_is_prepared_as_django_prepares_it(name, value):
    field = Attempt._meta.get_field(name)
    prepare = _prepare_plainly(field, connection.vendor)
    try:
        expected = _django(field, value)
    except Exception as refusal:
        # What Django refuses is refused the same way.
        with pytest.raises(type(refusal)), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            prepare(value)
        return

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        prepared = prepare(value)

    assert _comparable(prepared) == _comparable(expected)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("state", "rolling"),
        ("step", 12),
        ("score", 0),
        ("updated_at", UTC_NOON),
        ("finished_at", None),
        ("turn_started_at", UTC_NOON),
        ("time_taken", datetime.timedelta(seconds=3)),
    ],
)
def test_an_actions_values_skip_djangos_preparation(name, value):
    field = Attempt._meta.get_field(name)
    with mock.patch.object(type(field), "get_db_prep_save", side_effect=AssertionError):
        prepared = _prepare_plainly(field, connection.vendor)(value)

    assert prepared == value


def test_a_naive_date_time_still_goes_through_django():
    field = Attempt._meta.get_field("updated_at")
    naive = datetime.datetime(2026, 12, 3, 12)

    with pytest.warns(RuntimeWarning, match="naive datetime"):
        prepared = _prepare_plainly(field, connection.vendor)(naive)

    assert prepared.tzinfo is not None


class _NoOffset(datetime.tzinfo):
    """A zone that knows no offset: Django counts such a date-time as naive."""

    def utcoffset(self, dt):
        return None


def test_a_date_time_whose_zone_has_no_offset_goes_through_django():
    field = Attempt._meta.get_field("updated_at")
    value = datetime.datetime(2026, 12, 3, 12, tzinfo=_NoOffset())

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        prepared = _prepare_plainly(field, connection.vendor)(value)
        expected = _django(field, value)

    assert prepared == expected
    assert prepared.utcoffset() is not None


def test_a_field_class_of_its_own_prepares_its_values_itself():
    class Doubled(models.PositiveIntegerField):
        def get_prep_value(self, value):
            return 2 * super().get_prep_value(value)

    field = Doubled()
    field.set_attributes_from_name("doubled")

    assert _prepare_plainly(field, connection.vendor)(21) == 42
