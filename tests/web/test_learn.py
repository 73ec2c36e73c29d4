"""/learn, the first game that teaches (issue 40 item 6): its numbers are the engine's, it stores
nothing, and the daily page invites a first-time visitor to it (and only them)."""

from __future__ import annotations

import datetime
import html
import itertools
import json
import re

import pytest
from django.test import Client

import farkle
from play.models import Attempt, Player
from tests.daily.helpers import act, start_daily
from tests.helpers import stored

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]

INVITE = 'href="/learn"'


def french() -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")


def teaching(response) -> dict:
    found = re.search(
        r'<script id="learn-data" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    return json.loads(found.group(1))


def scoring_subsets(throw: list[int]) -> dict[tuple[int, ...], int]:
    """Every set of positions of ``throw`` whose dice score together, with their points, found
    by asking the engine's scorer about each subset (not through its keep listing)."""
    found = {}
    for size in range(1, len(throw) + 1):
        for positions in itertools.combinations(range(len(throw)), size):
            points = farkle.score([throw[p] for p in positions])
            if points is not None:
                found[positions] = points
    return found


def test_the_walkthroughs_numbers_are_the_engines(client):
    data = teaching(client.get("/learn"))
    steps = {step["name"]: step for step in data["steps"]}

    assert [step["name"] for step in data["steps"]] == ["keep", "farkle", "hot", "bank"]
    for step in data["steps"]:
        keeps = {tuple(k["positions"]): k["points"] for k in step["keeps"]}
        assert keeps == scoring_subsets(step["throw"]), step["name"]
    # Turn 1: a 1, a 5 and three 4s are kept, the last die rolled on Farkles and loses them.
    keep = steps["keep"]
    assert sorted(keep["throw"][p] for p in keep["keep"]) == [1, 4, 4, 4, 5]
    first_turn = farkle.score([1, 4, 4, 4, 5])
    assert (keep["points"], keep["at_stake_after"]) == (first_turn, first_turn)
    assert keep["dice_left"] == 1
    assert len(steps["farkle"]["throw"]) == 1 and scoring_subsets(steps["farkle"]["throw"]) == {}
    assert steps["farkle"]["kind"] == "farkle" and steps["farkle"]["lost"] == first_turn
    # Turn 2: all six score (hot dice), then a 1 is kept and the turn banked.
    hot = steps["hot"]
    assert hot["keep"] == [0, 1, 2, 3, 4, 5] and hot["hot_dice"] is True
    assert hot["points"] == farkle.score(hot["throw"]) is not None
    bank = steps["bank"]
    assert [bank["throw"][p] for p in bank["keep"]] == [1] and bank["then"] == "bank"
    banked = farkle.score(hot["throw"]) + farkle.score([1])
    assert bank["at_stake_after"] == banked == data["score"] == bank["score_after"]
    assert steps["farkle"]["score_after"] == 0


@pytest.mark.parametrize(
    ("make_client", "sentences"),
    [
        (
            Client,
            [
                "A 1 scores {one}, a 5 scores {five}, three of a kind score too",
                "(three 4s: {fours})",
                "its {lost} points are lost",
                "the turn's {banked} points join your score",
                "You banked {banked} points.",
            ],
        ),
        (
            french,
            [
                "Un 1 vaut {one}, un 5 vaut {five}, un brelan marque aussi",
                "(trois 4\xa0: {fours})",
                "ses {lost} points sont perdus",
                "les {banked} points du tour rejoignent votre score",
                "Vous avez encaissé {banked} points.",
            ],
        ),
    ],
)
def test_the_walkthroughs_sentences_state_the_engines_points(make_client, sentences):
    response = make_client().get("/learn")
    content = html.unescape(response.content.decode())
    numbers = {
        "one": farkle.score([1]),
        "five": farkle.score([5]),
        "fours": farkle.score([4, 4, 4]),
        "lost": farkle.score([1, 4, 4, 4, 5]),
        "banked": farkle.score([5, 2, 1, 2, 5, 2]) + farkle.score([1]),
    }

    assert response.status_code == 200
    for sentence in sentences:
        assert sentence.format(**numbers) in content


def test_the_teaching_dice_are_nobodys_puzzle(client, clock, settings):
    # Fairness: the same throws whatever the day and the seed secret, so they are no puzzle's
    # dice and show nothing of an open one.
    shown = teaching(client.get("/learn"))
    settings.FARKLE_SEED_SECRET = "another-secret"
    clock.shift(datetime.timedelta(days=3))

    assert teaching(Client().get("/learn")) == shown


def test_the_walkthrough_reads_and_stores_nothing(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/learn")

    assert response.status_code == 200
    assert Player.objects.count() == 0 and Attempt.objects.count() == 0
    assert "sessionid" not in response.cookies


def test_the_walkthrough_leaves_a_started_official_game_as_it_was(client):
    attempt = start_daily(client, "2026-11-29")
    attempt = act(client, attempt, {"action": "roll"}).json()
    before = stored(attempt["id"])

    assert client.get("/learn").status_code == 200

    assert stored(attempt["id"]) == before
    assert Attempt.objects.count() == 1 and Player.objects.count() == 1


def test_the_daily_invites_a_first_time_visitor_to_learn(client):
    assert INVITE in client.get("/").content.decode()
    assert "Débutant" in french().get("/").content.decode()


def test_the_daily_does_not_invite_a_returning_player(client):
    start_daily(client, "2026-11-29")

    assert INVITE not in client.get("/").content.decode()


def test_the_rules_link_to_the_walkthrough(client):
    assert INVITE in client.get("/rules").content.decode()
