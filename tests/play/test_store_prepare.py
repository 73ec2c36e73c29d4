"""The game's update and a fresh browser's start prepare their values as Django does, without
Django's chain of calls for the plain ones (daily/services/attempts.py, ``_prepare_plainly``;
issue 15)."""

from __future__ import annotations

import datetime
import itertools
import uuid
import warnings
import zoneinfo
from unittest import mock

import pytest
import time_machine
from django.db import connection, models

from daily.services.puzzles import daily_get_or_create, puzzle_row_condition
from play.models import Attempt, Player
from play.services.attempts import (
    _GUEST_FIELDS,
    _VARYING,
    _guest_statement,
    _new_guest_game,
    _prepare_plainly,
)
from tests.moments import NOON

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
# Every field a fresh browser's statement writes: its guest's, and its attempt's that vary.
FIELDS = (
    [(Attempt, name) for name in WRITTEN]
    + [(Player, name) for name in _GUEST_FIELDS]
    + [(Attempt, name) for name in _VARYING]
)
UTC_NOON = datetime.datetime(2026, 12, 3, 12, tzinfo=datetime.UTC)
BROWSER = uuid.UUID("6f1c1b2e-8a4d-4f53-9a57-3c2f8e0d9b11")
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
    BROWSER,
    str(BROWSER),
)


def _django(field, value):
    with warnings.catch_warnings():
        # A naive date-time: Django warns, then makes it aware.
        warnings.simplefilter("ignore", RuntimeWarning)
        return field.get_db_prep_save(value, connection)


def _comparable(prepared):
    # Django's JSON parameter wraps the value in an adapter without equality of its own.
    return (type(prepared), getattr(prepared, "obj", prepared))


@pytest.mark.parametrize(
    ("model", "name", "value"),
    [(model, name, value) for (model, name), value in itertools.product(FIELDS, VALUES)],
)
def test_each_value_is_prepared_as_django_prepares_it(model, name, value):
    field = model._meta.get_field(name)
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


@time_machine.travel(NOON, tick=False)
@pytest.mark.parametrize(
    "session", [None, ("django_session", ("session_key", "session_data", "expire_date"))]
)
def test_a_fresh_browsers_values_are_those_django_would_save(session):
    puzzle = daily_get_or_create(day=NOON.date(), now=NOON)
    player, attempt = _new_guest_game(
        player_id=41, name="Brave Badger 42", browser_id=BROWSER, puzzle=puzzle, now=NOON
    )
    same_row, _ = puzzle_row_condition("p", puzzle)
    with connection.cursor():
        _, guest_values, attempt_values = _guest_statement(same_row, session)

    # As the statement's values were given before: each through Django, the attempt's after
    # its pre_save.
    guest_fields = [Player._meta.get_field(name) for name in _GUEST_FIELDS]
    attempt_fields = [Attempt._meta.get_field(name) for name in _VARYING]
    assert [_comparable(value_of(player)) for value_of in guest_values] == [
        _comparable(f.get_db_prep_save(getattr(player, f.attname), connection))
        for f in guest_fields
    ]
    assert [_comparable(value_of(attempt)) for value_of in attempt_values] == [
        _comparable(f.get_db_prep_save(f.pre_save(attempt, add=True), connection))
        for f in attempt_fields
    ]
