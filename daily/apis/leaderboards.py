"""A day's leaderboard: ranked entries, the caller's standing, the score distribution."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from daily.apis.days import DailyApi
from play.apis import schemas
from play.apis.puzzles import PuzzleLeaderboardApi


class DailyLeaderboardApi(DailyApi, PuzzleLeaderboardApi):
    @extend_schema(
        parameters=[schemas.LeaderboardQuerySerializer],
        responses=schemas.LeaderboardSerializer,
        summary="A daily's leaderboard: a page of ranks, the caller's own, the distribution",
    )
    def get(self, request: Request, day: str) -> Response:
        return super().get(request, day=day)

    def get_serializer_class(self) -> type:
        return schemas.LeaderboardSerializer
