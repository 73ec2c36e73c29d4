"""Reads of friend challenges."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Subquery

from challenges.codes import InvalidCode, code_normalise
from challenges.models import Challenge
from farkle_site.db import one_or_none
from farkle_site.domain import Invalid, NotFound
from play.models import Attempt, Player, Puzzle


def challenge_get(*, code: str) -> Challenge:
    """The challenge of a typed code: 400 ``invalid_code`` when malformed, 404 when unknown."""
    try:
        canonical = code_normalise(code)
    except InvalidCode as error:
        raise Invalid("invalid_code", str(error)) from None
    challenge = one_or_none(
        Challenge.objects.select_related("puzzle", "creator").filter(
            puzzle__kind=Puzzle.Kind.CHALLENGE, puzzle__code=canonical
        )
    )
    if challenge is None:
        raise NotFound("not_found", f"No challenge has the code {canonical}.")
    return challenge


def challenges_of_player(*, player: Player, limit: int = 100) -> list[Challenge]:
    """Challenges the player created or played, newest first.

    The two halves are found on their own indexes (the creator's challenges, the player's
    attempts) and joined by id: an OR across both would scan every challenge.
    """
    created = Challenge.objects.filter(creator=player).values("id")
    played_puzzles = Attempt.objects.filter(
        player=player, puzzle__kind=Puzzle.Kind.CHALLENGE
    ).values("puzzle_id")
    played = Challenge.objects.filter(puzzle_id__in=played_puzzles).values("id")
    ids = list(created.union(played).values_list("id", flat=True))
    mine = Attempt.objects.filter(puzzle=OuterRef("puzzle"), player=player)
    official = mine.filter(official=True, state=Attempt.State.FINISHED).values("score")[:1]
    return list(
        Challenge.objects.select_related("puzzle", "creator")
        .filter(id__in=ids)
        .annotate(played=Exists(mine), my_score=Subquery(official))
        .order_by("-created_at", "-id")[:limit]
    )
