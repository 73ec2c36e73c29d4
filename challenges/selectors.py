"""Reads of friend challenges."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q, Subquery

from challenges.models import Challenge
from daily.models import Attempt, Player


def challenges_of_player(*, player: Player, limit: int = 100) -> list[Challenge]:
    """Challenges the player created or played, newest first."""
    mine = Attempt.objects.filter(puzzle=OuterRef("puzzle"), player=player)
    official = mine.filter(official=True, state=Attempt.State.FINISHED).values("score")[:1]
    return list(
        Challenge.objects.select_related("puzzle", "creator")
        .annotate(played=Exists(mine), my_score=Subquery(official))
        .filter(Q(creator=player) | Q(played=True))
        .order_by("-created_at", "-id")[:limit]
    )
