"""``model_copy`` makes the copy ``copy.copy`` makes of a model instance (Django's pickling
protocol), which it replaces on the hot paths: the remembered game's row, a process's daily."""

import copy

import pytest
import time_machine
from django.db.models.base import DJANGO_VERSION_PICKLE_KEY

from daily.services.puzzles import daily_get_or_create
from farkle_site.db import model_copy
from play.models import Attempt, Puzzle
from tests.moments import NOON

from ..daily.helpers import start_daily

pytestmark = pytest.mark.django_db


def _fields(row) -> dict:
    return {field.attname: getattr(row, field.attname) for field in row._meta.concrete_fields}


def _state(row) -> dict:
    return {k: v for k, v in vars(row._state).items() if k != "fields_cache"}


@pytest.fixture
def rows(client) -> list:
    with time_machine.travel(NOON, tick=False):
        puzzle = daily_get_or_create(day=NOON.date(), now=NOON)
        started = start_daily(client, NOON.date().isoformat())
    attempt = Attempt.objects.select_related("puzzle").get(pk=started["id"])
    # A related row cached, as a remembered attempt carries its puzzle.
    assert Attempt.puzzle.is_cached(attempt)
    return [puzzle, attempt]


def test_the_copy_is_the_one_copy_copy_makes(rows):
    for row in rows:
        reference = copy.copy(row)
        copied = model_copy(row)
        assert type(copied) is type(reference)
        assert copied is not row and copied._state is not row._state
        assert _fields(copied) == _fields(reference) == _fields(row)
        # Django's unpickling leaves the pickle's version stamp on its copy; nothing reads it.
        assert set(vars(copied)) == set(vars(reference)) - {DJANGO_VERSION_PICKLE_KEY}
        assert _state(copied) == _state(reference)
        assert copied._state.fields_cache == reference._state.fields_cache
        assert copied._state.fields_cache is not row._state.fields_cache


def test_changing_the_copy_leaves_the_original_alone(rows):
    puzzle, attempt = rows
    copied = model_copy(puzzle)
    copied.players += 5
    copied._state.adding = True
    assert (puzzle.players, puzzle._state.adding) == (0, False)

    copied = model_copy(attempt)
    copied.step += 3
    copied._state.fields_cache.clear()
    assert attempt.step == 0
    assert Attempt.puzzle.is_cached(attempt)
    assert isinstance(attempt.puzzle, Puzzle)
