"""The daily and its attempts: read a day, start an attempt, read it, act on it."""

from __future__ import annotations

import datetime

from django.middleware.csrf import get_token
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from daily.apis.days import DAY_PARAMETER, DailyApi
from daily.services.puzzles import daily_get_or_create
from play.apis import schemas
from play.apis.payloads import puzzle_data
from play.apis.puzzles import PuzzleAttemptsApi
from play.rules.days import day_of, parse_day
from play.selectors.attempts import player_attempts_on
from play.web.session import session_player


def _daily_payload(request: Request, day: datetime.date, now: datetime.datetime):
    # What the page shows: the count of players may be a second old (the midnight rush).
    puzzle = daily_get_or_create(day=day, now=now, recent=True)
    player = session_player(request)
    attempts = player_attempts_on(player=player, puzzle=puzzle)
    return puzzle_data(puzzle, now, attempts)


class DailyTodayApi(APIView):
    @extend_schema(responses=schemas.DailySerializer, summary="Today's daily (UTC)")
    def get(self, request: Request) -> Response:
        # The CSRF cookie comes with today's daily, so an API client gets its token without a
        # page (Django's CsrfViewMiddleware sets it as the answer leaves).
        get_token(request)
        now = timezone.now()
        return Response(_daily_payload(request, day_of(now), now))


class DailyDayApi(APIView):
    # ``today`` is DailyTodayApi's address.
    path_parameters = [DAY_PARAMETER]

    @extend_schema(responses=schemas.DailySerializer, summary="The daily of a date")
    def get(self, request: Request, day: str) -> Response:
        return Response(_daily_payload(request, parse_day(day), timezone.now()))


class DailyAttemptsApi(DailyApi, PuzzleAttemptsApi):
    @extend_schema(
        request=None,
        responses={201: schemas.AttemptSerializer},
        summary="Start an attempt on a daily (the first on the open day is official)",
    )
    def post(self, request: Request, day: str) -> Response:
        return super().post(request, day=day)
