"""The action response carries the engine's events, so the page derives no rule from two states."""

import datetime

import pytest
from django.conf import settings

import farkle
from play.apis import schemas
from tests.daily.helpers import act, start_daily

DAY = "2026-11-29"

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


def test_an_action_answers_with_its_events_and_a_read_with_none(client):
    seed = farkle.daily_seed(settings.FARKLE_SEED_SECRET.encode(), datetime.date(2026, 11, 29))
    attempt = start_daily(client, DAY)
    assert attempt["events"] == []

    rolled = act(client, attempt, {"action": "roll"}).json()

    first = farkle.roll_vector(seed, 1, 1)
    expected = [{"kind": "rolled", "turn": 1, "roll": 1, "dice": first}]
    if farkle.is_farkle(first):
        expected += [
            {"kind": "farkle", "turn": 1, "points": 0},
            {"kind": "turn_started", "turn": 2},
        ]
    assert rolled["events"] == expected
    assert client.get(f"/api/attempts/{attempt['id']}").json() == {**rolled, "events": []}


def test_a_bank_reports_the_points_and_the_next_turn(client):
    attempt = start_daily(client, DAY)
    attempt = act(client, attempt, {"action": "roll"}).json()
    while not attempt["keep_options"]:
        attempt = act(client, attempt, {"action": "roll"}).json()
    best = max(attempt["keep_options"], key=lambda o: o["score"])
    turn, held, score = attempt["turn"], attempt["turn_points"], attempt["score"]

    banked = act(client, attempt, {"action": "keep", "dice": best["dice"], "then": "bank"}).json()

    points = held + best["score"]
    assert banked["events"] == [
        {"kind": "kept", "turn": turn, "positions": best["dice"], "points": best["score"]},
        {"kind": "banked", "turn": turn, "points": points, "score": score + points},
        {"kind": "turn_started", "turn": turn + 1},
    ]


def test_events_have_only_documented_fields(client):
    attempt = start_daily(client, DAY)
    rolled = act(client, attempt, {"action": "roll"}).json()
    documented = set(schemas.EventSerializer().fields)
    assert all(set(event) <= documented for event in rolled["events"])
    serializer = schemas.EventSerializer(data=rolled["events"], many=True)
    assert serializer.is_valid(), serializer.errors
