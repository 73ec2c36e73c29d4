"""The facts to verify a daily by: commitment, revealed seed, an attempt's throws (no verdict)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from daily.apis.days import DAY_PARAMETER, DailyApi
from play.apis import schemas
from play.apis.puzzles import PuzzleVerificationApi


class VerifyDailyApi(DailyApi, PuzzleVerificationApi):
    # A verification names its day: a link to it must not change meaning at midnight.
    today_allowed = False
    path_parameters = [DAY_PARAMETER]

    @extend_schema(
        parameters=[schemas.VerifyQuerySerializer],
        responses={200: schemas.VerificationSerializer, 409: schemas.ErrorSerializer},
        summary="Facts to check a daily by: commitment, seed once closed, an attempt's throws",
    )
    def get(self, request: Request, day: str) -> Response:
        return super().get(request, day=day)
