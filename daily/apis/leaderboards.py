"""A day's leaderboard: ranked entries, the caller's standing, the score distribution."""

from __future__ import annotations

import datetime
from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from daily.apis import schemas
from daily.apis.attempts import day_or_today
from daily.apis.payloads import puzzle_ref
from daily.models import Puzzle
from daily.selectors.leaderboards import Leaderboard, leaderboard_page
from daily.services.puzzles import daily_get_or_create
from daily.web.session import session_player


def leaderboard_data(puzzle: Puzzle, board: Leaderboard, now: datetime.datetime) -> dict[str, Any]:
    """A leaderboard as the API shows it (a day's or a challenge's)."""
    status = puzzle.status(now)
    return {
        **puzzle_ref(puzzle),
        "status": status,
        # Closed is not yet final: the close still adds the unfinished official games.
        "final": status == "closed" and puzzle.closed_at is not None,
        "accounts": board.accounts,
        "page": board.page,
        "page_size": board.page_size,
        "pages": board.pages,
        "players": board.players,
        "entries": board.entries,
        "me": board.me,
        "distribution": board.distribution,
    }


class LeaderboardQuerySerializer(serializers.Serializer):
    page = serializers.IntegerField(min_value=1, default=1)
    accounts = serializers.BooleanField(
        default=False, help_text="Rank account holders only (fresh browsers left out)."
    )


def leaderboard_for_request(
    request: Request, puzzle: Puzzle, now: datetime.datetime
) -> dict[str, Any]:
    """The leaderboard of a puzzle for the request's ``page`` and ``accounts`` (a day's or a
    challenge's)."""
    query = LeaderboardQuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    board = leaderboard_page(
        puzzle=puzzle,
        page=query.validated_data["page"],
        now=now,
        player=session_player(request),
        accounts=query.validated_data["accounts"],
    )
    return leaderboard_data(puzzle, board, now)


class DailyLeaderboardApi(APIView):
    @extend_schema(
        parameters=[LeaderboardQuerySerializer],
        responses=schemas.LeaderboardSerializer,
        summary="A daily's leaderboard: a page of ranks, the caller's own, the distribution",
    )
    def get(self, request: Request, day: str) -> Response:
        now = timezone.now()
        puzzle = daily_get_or_create(day=day_or_today(day, now), now=now)
        data = leaderboard_for_request(request, puzzle, now)
        return Response(schemas.LeaderboardSerializer(data).data)
