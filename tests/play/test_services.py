"""The attempt services called directly, where their rules live: one official attempt per player
and puzzle, the step lock, holding and releasing a game. HTTP tests keep the contract."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import farkle
from daily.services.puzzles import daily_get_or_create
from farkle_site.domain import Conflict
from play.models import Attempt, Player, Puzzle, ScoreCount
from play.rules.days import day_of
from play.services.attempts import attempt_act, attempt_start
from play.services.foresight import attempt_hold, attempt_release
from play.services.players import player_create
from tests.helpers import race, stored
from tests.moments import NOON


def _daily() -> Puzzle:
    return daily_get_or_create(day=day_of(NOON), now=NOON)


def _finish(attempt: Attempt, player: Player) -> Attempt:
    """Play to the end through the service: roll, keep the first option, bank when allowed."""
    game = attempt.game()
    while not game.finished:
        if game.state == farkle.AWAITING_ROLL:
            action = {"action": "roll"}
        else:
            option = game.keep_options()[0]
            then = "bank" if option.may_bank else "roll"
            action = {"action": "keep", "dice": list(option.positions), "then": then}
        attempt, game = attempt_act(
            attempt_id=attempt.pk, player_id=player.pk, step=game.step, action=action, now=NOON
        )
    return attempt


@pytest.mark.django_db(transaction=True)
def test_attempt_start_racing_gives_one_official_attempt():
    puzzle = _daily()
    player = player_create(now=NOON)
    results = race(4, lambda: attempt_start(player=player, puzzle=puzzle, now=NOON))
    started = [r for r in results if isinstance(r, Attempt)]
    refused = [r for r in results if isinstance(r, Conflict)]
    # The official game is unfinished, so the losers are told to finish it, pointing at it.
    assert (len(started), len(refused)) == (1, 3)
    assert {(e.code, e.shown["attempt_id"]) for e in refused} == {("wrong_state", started[0].pk)}
    assert list(Attempt.objects.values_list("official", flat=True)) == [True]
    assert Puzzle.objects.get(pk=puzzle.pk).players == 1


@pytest.mark.django_db
def test_attempt_start_after_the_official_game_is_practice_on_own_dice():
    puzzle = _daily()
    player = player_create(now=NOON)
    _finish(attempt_start(player=player, puzzle=puzzle, now=NOON), player)
    practice = attempt_start(player=player, puzzle=puzzle, now=NOON)
    assert (practice.official, practice.dice_source) == (False, Attempt.DiceSource.OWN)
    assert Puzzle.objects.get(pk=puzzle.pk).players == 1


@pytest.mark.django_db
def test_attempt_act_on_a_stale_step_is_refused_and_changes_nothing():
    player = player_create(now=NOON)
    attempt = attempt_start(player=player, puzzle=_daily(), now=NOON)
    attempt_act(
        attempt_id=attempt.pk, player_id=player.pk, step=0, action={"action": "roll"}, now=NOON
    )
    before = stored(attempt.pk)
    with pytest.raises(Conflict) as refusal:
        attempt_act(
            attempt_id=attempt.pk, player_id=player.pk, step=0, action={"action": "roll"}, now=NOON
        )
    assert (refusal.value.code, refusal.value.shown) == ("stale_step", {"attempt_id": attempt.pk})
    assert stored(attempt.pk) == before


@pytest.mark.django_db(transaction=True)
def test_attempt_act_racing_on_one_step_moves_it_once():
    player = player_create(now=NOON)
    attempt = attempt_start(player=player, puzzle=_daily(), now=NOON)

    def roll():
        return attempt_act(
            attempt_id=attempt.pk, player_id=player.pk, step=0, action={"action": "roll"}, now=NOON
        )

    results = race(3, roll)
    assert sorted(type(r).__name__ for r in results) == ["Conflict", "Conflict", "tuple"]
    assert (stored(attempt.pk)["step"], len(stored(attempt.pk)["actions"])) == (1, 1)


@pytest.mark.django_db
def test_attempt_hold_and_release_count_once_each():
    puzzle = _daily()
    player = player_create(now=NOON)
    finished = _finish(attempt_start(player=player, puzzle=puzzle, now=NOON), player)
    counted = {finished.score: 1}

    def counts() -> dict[int, int]:
        return dict(
            ScoreCount.objects.filter(puzzle=puzzle, count__gt=0).values_list("score", "count")
        )

    assert counts() == counted
    assert [attempt_hold(attempt_id=finished.pk) for _ in range(2)] == [True, False]
    assert counts() == {}
    assert [attempt_release(attempt_id=finished.pk, now=NOON) for _ in range(2)] == [True, False]
    assert counts() == counted


@pytest.mark.django_db
def test_an_official_start_stores_and_counts_it_in_one_transaction():
    puzzle = _daily()
    player = player_create(now=NOON)
    with CaptureQueriesContext(connection) as queries:
        attempt = attempt_start(player=player, puzzle=puzzle, now=NOON)
    # The attempt's INSERT first, the puzzle's count last: the hottest row of the midnight rush
    # stays locked from the count to the commit only.
    statements = [q["sql"].split()[0] for q in queries if "daily_" in q["sql"]]
    assert statements == ["INSERT", "UPDATE"]
    assert (Attempt.objects.get().pk, Puzzle.objects.get(pk=puzzle.pk).players) == (attempt.pk, 1)
    # The attempt returned is the stored one, as read: saving it updates the row.
    attempt.score = 50
    attempt.save()
    assert list(Attempt.objects.values_list("score", "official")) == [(50, True)]


@pytest.mark.django_db
def test_a_refused_second_official_start_counts_no_one():
    puzzle = _daily()
    player = player_create(now=NOON)
    first = attempt_start(player=player, puzzle=puzzle, now=NOON)
    with pytest.raises(Conflict) as refused:
        attempt_start(player=player, puzzle=puzzle, now=NOON)
    assert (refused.value.code, refused.value.shown["attempt_id"]) == ("wrong_state", first.pk)
    assert (Attempt.objects.count(), Puzzle.objects.get(pk=puzzle.pk).players) == (1, 1)
