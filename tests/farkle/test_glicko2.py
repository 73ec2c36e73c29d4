"""Glicko-2 against the worked example of its source: Glickman, "Example of the Glicko-2 system"
(2012), http://www.glicko.net/glicko/glicko2.pdf. The expected figures are the paper's, printed
there to the digits compared here."""

import math

import pytest

from farkle.glicko2 import SCALE, Rating, Result, expected_score, idle, rate

PLAYER = Rating(1500, 200, 0.06)
# The paper's three games: a win against 1400 (RD 30), losses against 1550 (100) and 1700 (300).
GAMES = [Result(1400, 30, 1), Result(1550, 100, 0), Result(1700, 300, 0)]


def test_the_papers_worked_example():
    after = rate(PLAYER, GAMES, tau=0.5)
    # r' = 1464.06 from μ' = -0.2069 rounded: the exact μ' gives 1464.05.
    assert after.rating == pytest.approx(1464.06, abs=0.015)
    assert (after.rating - 1500) / SCALE == pytest.approx(-0.2069, abs=0.00005)
    assert after.deviation == pytest.approx(151.52, abs=0.005)
    assert after.deviation / SCALE == pytest.approx(0.8722, abs=0.00005)
    # 0.05999 as the paper prints it, after its rounded intermediate steps.
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_the_papers_expected_scores():
    # Step 3's E for each opponent, as the paper tabulates them.
    expected = [expected_score(1500, r.rating, r.deviation) for r in GAMES]
    assert expected == pytest.approx([0.639, 0.432, 0.303], abs=0.0005)


def test_a_period_without_games_widens_the_deviation_only():
    # Step 6 for a player who did not compete: φ' = √(φ² + σ²), rating and volatility unchanged.
    after = rate(PLAYER, [])
    phi = 200 / SCALE
    assert after.deviation == pytest.approx(SCALE * math.sqrt(phi**2 + 0.06**2))
    assert (after.rating, after.volatility) == (1500, 0.06)
    assert idle(PLAYER, 3).deviation == pytest.approx(SCALE * math.sqrt(phi**2 + 3 * 0.06**2))


def test_a_long_absence_leaves_no_wider_deviation_than_a_newcomers():
    assert idle(Rating(1800, 340, 0.06), 10_000).deviation == 350
