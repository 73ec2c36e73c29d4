"""The skill rating reads how well the player decided, never how the dice fell (issue 40).

Its Glicko-2 steps are checked against their source in test_glicko2.py; here, what the rating
reads: two games whose decisions are equally good move it the same however lucky their dice, a
better game moves it more, and the reference panel is what the bots' calibration games give."""

import hashlib

import pytest

from farkle import rating
from farkle.analysis import analyse
from farkle.bots import EASY, HARD, MEDIUM, POLICIES, play
from farkle.game import AWAITING_ROLL, Game, Roll
from farkle.glicko2 import Rating

SEEDS = [hashlib.sha256(f"rating-test:{i}".encode()).digest() for i in range(12)]


def _optimal_then_closed(seed: bytes, turns: int) -> Game:
    """The optimal player's first ``turns`` turns on a seed's dice, then the close ends the game:
    every decision the best one, the same turns left undone, whatever the dice."""
    game = Game.new(seed)
    while game.turn <= turns and not game.finished:
        action = Roll() if game.state == AWAITING_ROLL else POLICIES[HARD](game)
        game = game.apply(action)
    return game.ended_by_close()


def _luckiest_and_unluckiest(games):
    by_luck = sorted(games, key=lambda pair: pair[1].luck)
    return by_luck[-1], by_luck[0]


def test_the_same_decisions_on_luckier_dice_move_the_rating_the_same():
    # Five turns played perfectly, five left to the close, on twelve days' dice.
    graded = [(game, analyse(game)) for game in (_optimal_then_closed(s, 5) for s in SEEDS)]
    (lucky, lucky_found), (unlucky, unlucky_found) = _luckiest_and_unluckiest(graded)
    # The dice differed a lot: the lucky game scored far more, by luck alone.
    assert lucky_found.luck - unlucky_found.luck > 1000
    assert lucky.score - unlucky.score > 1000
    # The same decision quality: no loss in the decisions, half of par left to the close.
    assert lucky_found.accuracy == pytest.approx(50.0)
    assert unlucky_found.accuracy == pytest.approx(50.0)
    start = Rating(1600, 120, 0.06)
    after_lucky = rating.rate_day(start, lucky_found.accuracy)
    after_unlucky = rating.rate_day(start, unlucky_found.accuracy)
    assert after_lucky.rating == pytest.approx(after_unlucky.rating, abs=1e-9)
    assert after_lucky.deviation == pytest.approx(after_unlucky.deviation, abs=1e-9)


def test_perfect_games_on_any_dice_move_the_rating_the_same():
    graded = [analyse(play(seed, HARD).game) for seed in SEEDS]
    scores = [found.score for found in graded]
    assert max(scores) - min(scores) > 2000
    moves = {round(rating.rate_day(None, found.accuracy).rating, 9) for found in graded}
    assert len(moves) == 1
    # Drawing with the optimal player every day is the best there is.
    assert moves.pop() > rating.rate_day(None, 99.9).rating


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_better_decisions_on_the_same_dice_raise_the_rating_more(seed):
    # The bots' games on one day's dice: the fewer expected points lost, the higher the rating.
    start = Rating(1500, 200, 0.06)
    graded = [analyse(play(seed, level).game) for level in (EASY, MEDIUM, HARD)]
    by_loss = sorted(graded, key=lambda found: -found.lost)
    assert len({round(found.lost, 6) for found in graded}) == 3
    ratings = [rating.rate_day(start, found.accuracy).rating for found in by_loss]
    assert ratings == sorted(ratings) and len(set(ratings)) == 3


def test_the_rating_rises_with_the_accuracy_over_the_panels_range():
    # From the weakest calibration game to a perfect one, every better accuracy rates higher.
    accuracies = [44.6 + 0.1 * i for i in range(554)] + [100.0]
    ratings = [rating.rate_day(Rating(1500, 150, 0.06), a).rating for a in accuracies]
    assert all(b > a for a, b in zip(ratings, ratings[1:], strict=False))


def test_a_day_rated_after_idle_days_starts_from_a_wider_deviation():
    last = Rating(1700, 80, 0.06)
    after_a_month = rating.rate_day(last, 95.0, idle_days=30)
    assert after_a_month.deviation > rating.rate_day(last, 95.0).deviation


def test_share_beaten_reads_the_percentiles():
    cuts = tuple(float(i) for i in range(101))
    assert rating.share_beaten(-1, cuts) == 0
    assert rating.share_beaten(101, cuts) == 1
    assert rating.share_beaten(50, cuts) == pytest.approx(0.5)
    assert rating.share_beaten(50.25, cuts) == pytest.approx(0.5025)


def test_the_reference_panel_is_the_calibration_games():
    # The figures written in farkle/rating.py are those the bots' 2,000 games give (about 9 s).
    computed = rating.panel(2000)
    assert computed == rating.Panel(
        easy_percentiles=rating.EASY_PERCENTILES,
        medium_percentiles=rating.MEDIUM_PERCENTILES,
        easy_below_medium=rating.EASY_BELOW_MEDIUM,
        hard_above_medium=rating.HARD_ABOVE_MEDIUM,
    )
    # Medium out-decides Easy on about 98 % of the same dice (docs/analysis.md).
    assert 400 <= rating.EASY_BELOW_MEDIUM <= 900


# docs/analysis.md's table: where a player of constant accuracy settles after 100 days.
SETTLES = {80: 720, 90: 1030, 93: 1180, 95: 1400, 96: 1560, 97: 1720, 98: 1920, 99: 2090, 100: 2940}


@pytest.mark.parametrize(("accuracy", "documented"), SETTLES.items())
def test_where_a_constant_player_settles_is_as_documented(accuracy, documented):
    after = None
    for _ in range(100):
        after = rating.rate_day(after, accuracy)
    assert after.rating == pytest.approx(documented, abs=10)
