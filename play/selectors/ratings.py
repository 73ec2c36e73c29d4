"""A player's skill rating and its history (docs/analysis.md, "The skill rating")."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from play.models import Player, Rating

# Rated days listed by ``player_rating``, most recent first: three months of dailies.
RATING_HISTORY_LENGTH = 90


@dataclass(frozen=True)
class RatedDay:
    """The rating after one rated day, and the accuracy it was rated on."""

    day: datetime.date
    accuracy: float
    rating: float
    deviation: float


@dataclass(frozen=True)
class PlayerRating:
    """The latest rating (None before the first rated day), its number of rated days, and the
    latest rated days, newest first."""

    current: RatedDay | None
    days: int
    history: list[RatedDay]


def player_rating(*, player: Player) -> PlayerRating:
    """The player's rating as the last close left it: nothing of a day before its close."""
    rows = Rating.objects.filter(player=player).order_by("-day")
    fields = ("day", "accuracy", "rating", "deviation")
    history = [RatedDay(*values) for values in rows.values_list(*fields)[:RATING_HISTORY_LENGTH]]
    days = len(history) if len(history) < RATING_HISTORY_LENGTH else rows.count()
    return PlayerRating(current=history[0] if history else None, days=days, history=history)
