"""Issue 40: a game's accuracy as the pages show it, and where it stands among other games'.

The end screen leads with how well a player decided; the standing compares that with the puzzle's
other finished games on the same dice. Accuracy is kept and compared in tenths of a percent, the
figure the pages show (98.8 %), so that two games that read the same are tied, never 2nd and 3rd.
"""

from __future__ import annotations

from dataclasses import dataclass

from farkle.analysis import Analysis


def accuracy_tenths(analysis: Analysis) -> int:
    """The analysis's accuracy in tenths of a percent, rounded as the API sends it."""
    return round(round(analysis.accuracy, 1) * 10)


@dataclass(frozen=True)
class AccuracyStanding:
    """Where a game's accuracy stands among ``players`` graded games: ``rank`` is one more than
    those strictly more accurate (equal accuracies share a rank, 1, 2, 2, 4, as scores do), and
    ``tied`` says another game has the same."""

    rank: int
    tied: bool
    players: int
