"""The daily and its attempts: read a day, start an attempt, read it, act on it."""

from __future__ import annotations

import datetime

from django.http import HttpRequest
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from daily.apis.days import DailyApi
from daily.services.puzzles import daily_get_or_create
from farkle_site.csrf import csrf_cookie_ensure
from farkle_site.domain import Conflict, Invalid, NotFound
from farkle_site.drf import (
    PlainGet,
    PlainJsonPost,
    ScopedPlayerThrottle,
    SessionCountedThrottles,
)
from play.apis import schemas
from play.apis.payloads import attempt_data, puzzle_data
from play.apis.puzzles import PuzzleAttemptsApi
from play.rules.days import day_of, parse_day
from play.selectors.attempts import attempt_of_player, attempt_visible, player_attempts_on
from play.services.attempts import attempt_act, attempt_clock
from play.web.session import session_player, session_player_id


def _daily_payload(request: HttpRequest | Request, day: datetime.date, now: datetime.datetime):
    # What the page shows: the count of players may be a second old (the midnight rush).
    puzzle = daily_get_or_create(day=day, now=now, recent=True)
    player = session_player(request)
    attempts = player_attempts_on(player=player, puzzle=puzzle)
    return puzzle_data(puzzle, now, attempts)


# The CSRF cookie comes with today's daily, so an API client gets its token without a page. The
# first request of every fresh browser, served through the plain lane (farkle_site.drf); the
# cookie is set as Django's ``ensure_csrf_cookie`` sets it, drawn in one read (farkle_site.csrf).
class DailyTodayApi(PlainGet, APIView):
    @extend_schema(responses=schemas.DailySerializer, summary="Today's daily (UTC)")
    def get(self, request: Request) -> Response:
        csrf_cookie_ensure(request)
        now = timezone.now()
        return Response(_daily_payload(request, day_of(now), now))

    def plain_get(self, request: HttpRequest, query: dict) -> tuple[dict, int]:
        csrf_cookie_ensure(request)
        now = timezone.now()
        return _daily_payload(request, day_of(now), now), 200


class DailyDayApi(APIView):
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


class AttemptApi(APIView):
    @extend_schema(responses=schemas.AttemptSerializer, summary="An attempt's state")
    def get(self, request: Request, attempt_id: int) -> Response:
        now = timezone.now()
        attempt = attempt_visible(attempt_id=attempt_id, player=session_player(request), now=now)
        if attempt is None:
            raise NotFound("not_found", "No such attempt.")
        # Seed 001: a timed turn left alone ends when its time is up, seen at the next read.
        attempt, game = attempt_clock(attempt=attempt, now=now)
        return Response(attempt_data(attempt, game))


_FIELDS = frozenset(("step", "action", "dice", "then"))


def plain_action(body: dict) -> dict | None:
    """The body of an action as ``ActionSerializer`` validates it, when it is plainly valid: JSON
    integers and strings, as every client sends them; None for anything else, which the
    serializer then validates or refuses with its messages.

    The site's most frequent request (issue 15): building the serializer deep-copies its fields
    each time, several percent of an action's server CPU. A test holds this to the serializer.
    """
    if not body.keys() <= _FIELDS:
        return None
    step, action = body.get("step"), body.get("action")
    if type(step) is not int or not 0 <= step <= 10_000 or action not in ("roll", "keep"):
        return None
    dice, then = body.get("dice"), body.get("then")
    if "dice" in body and not (
        type(dice) is list and len(dice) <= 6 and all(type(d) is int and 0 <= d <= 5 for d in dice)
    ):
        return None
    if "then" in body and then not in ("roll", "bank"):
        return None
    if action == "keep" and ("dice" not in body or "then" not in body):
        return None
    return dict(body)


class AttemptActionsApi(PlainJsonPost, SessionCountedThrottles, APIView):
    throttle_classes = [ScopedPlayerThrottle]
    throttle_scope = "attempt_act"
    # Which refusal code a malformed field gets (the README lists the API's codes).
    field_error_codes = {
        "dice": "invalid_dice",
        "action": "invalid_action",
        "then": "invalid_action",
    }

    class ActionSerializer(serializers.Serializer):
        step = serializers.IntegerField(min_value=0, max_value=10_000)
        action = serializers.ChoiceField(choices=["roll", "keep"])
        dice = serializers.ListField(
            child=serializers.IntegerField(min_value=0, max_value=5),
            max_length=6,
            required=False,
        )
        then = serializers.ChoiceField(choices=["roll", "bank"], required=False)

        def validate(self, data):
            if data["action"] == "keep" and ("dice" not in data or "then" not in data):
                raise serializers.ValidationError(
                    {"then": "A keep names its `dice` and what comes `then`: roll or bank."}
                )
            return data

    plain_data = staticmethod(plain_action)

    @extend_schema(
        request=ActionSerializer,
        responses={200: schemas.AttemptSerializer, 409: schemas.ConflictSerializer},
        summary="Act on an attempt: roll, or keep dice then roll or bank",
    )
    def post(self, request: Request, attempt_id: int) -> Response:
        if not isinstance(request.data, dict):
            raise Invalid("invalid", "The body is a JSON object.")
        data = plain_action(request.data)
        if data is None:
            serializer = self.ActionSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
        payload, status = self.plain_post(request._request, data, attempt_id=attempt_id)
        return Response(payload, status=status)

    def plain_post(self, request: HttpRequest, data: dict, *, attempt_id: int) -> tuple[dict, int]:
        player_id = session_player_id(request)
        try:
            attempt, game = attempt_act(
                attempt_id=attempt_id,
                player_id=player_id,
                step=data["step"],
                action={k: v for k, v in data.items() if k != "step"},
                now=timezone.now(),
            )
        except Conflict as error:
            # A refused action answers with the attempt as it stands, for the client to resync.
            current = attempt_of_player(
                attempt_id=error.shown.get("attempt_id", 0), player_id=player_id
            )
            if current is None:
                raise
            raise Conflict(
                error.code, error.message, attempt=attempt_data(current, current.game())
            ) from error
        return attempt_data(attempt, game, game.events), 200
