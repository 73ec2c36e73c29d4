"""The Glicko-2 rating system, as Glickman describes it step by step.

Source: Mark E. Glickman, "Example of the Glicko-2 system" (Boston University, 2012),
http://www.glicko.net/glicko/glicko2.pdf. The steps below carry the paper's numbers; the
volatility is found with the paper's Illinois iteration (step 5). Pure Python, no Django: the
site's skill rating (``farkle.rating``) rates each day with it.

A small module of our own rather than a package: the PyPI packages found for Glicko-2 are
single-author and dormant, and the algorithm is these few formulas, tested against the paper's
worked example (tests/farkle/test_glicko2.py).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

# Step 1 and 2: the Glicko scale's defaults and the factor between it and Glicko-2's.
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
SCALE = 173.7178
# The system constant: how much the volatility may change. The paper advises 0.3 to 1.2.
TAU = 0.5
# Step 5's convergence tolerance.
TOLERANCE = 0.000001


@dataclass(frozen=True)
class Rating:
    """A rating on the Glicko scale: r, its deviation RD and its volatility σ."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY


@dataclass(frozen=True)
class Result:
    """One game of the rating period: the opponent's rating and deviation, and the score
    (1 a win, 0.5 a draw, 0 a loss, or any fraction between)."""

    rating: float
    deviation: float
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: float, opponent: float, opponent_deviation: float = 0.0) -> float:
    """The score a player of rating ``player`` expects against ``opponent`` (step 3's E)."""
    return _expected(
        (player - DEFAULT_RATING) / SCALE,
        (opponent - DEFAULT_RATING) / SCALE,
        opponent_deviation / SCALE,
    )


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    # Step 5: the new volatility solves f(x) = 0, by the Illinois algorithm.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > TOLERANCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: Iterable[Result], tau: float = TAU) -> Rating:
    """The player's rating after one rating period with these results (steps 2 to 8); a period
    without a game only widens the deviation (``idle``)."""
    results = list(results)
    if not results:
        return idle(player)
    # Step 2.
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    opponents = [
        ((r.rating - DEFAULT_RATING) / SCALE, r.deviation / SCALE, r.score) for r in results
    ]
    # Steps 3 and 4: the estimated variance and the estimated improvement.
    terms = [(_g(phi_j), _expected(mu, mu_j, phi_j), s) for mu_j, phi_j, s in opponents]
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e, _ in terms)
    improvement = sum(g * (s - e) for g, e, s in terms)
    delta = v * improvement
    # Steps 5 to 7.
    sigma = _volatility(player.volatility, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    # Step 8.
    return Rating(SCALE * mu_new + DEFAULT_RATING, SCALE * phi_new, sigma)


def idle(player: Rating, periods: int = 1, ceiling: float = DEFAULT_DEVIATION) -> Rating:
    """The rating after ``periods`` rating periods without a game: the deviation grows as the
    paper says (φ' = √(φ² + σ²) each period), up to ``ceiling``, an unrated player's (as Glicko
    caps it: a long absence makes a rating no less known than none)."""
    phi = player.deviation / SCALE
    phi = math.sqrt(phi * phi + periods * player.volatility * player.volatility)
    return Rating(player.rating, min(SCALE * phi, ceiling), player.volatility)
