"""An attempt's endpoints, the same for every kind of puzzle: its state, and acting on it."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from farkle_site.domain import Conflict, Invalid, NotFound
from farkle_site.drf import ScopedPlayerThrottle
from farkle_site.fields import StrictIntegerField
from play.apis import schemas
from play.apis.payloads import attempt_data
from play.selectors.attempts import attempt_of_player, attempt_visible
from play.services.attempts import (
    attempt_act,
    attempt_clock,
    attempt_game,
    attempt_retry,
    retry_actions,
    retry_refusal,
)
from play.web.session import session_player, session_player_id, session_player_or_create
from play.web.throttles import NewGuestThrottle


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


class AttemptActionsApi(APIView):
    throttle_classes = [ScopedPlayerThrottle]
    throttle_scope = "attempt_act"
    # Which refusal code a malformed field gets (the README lists the API's codes).
    field_error_codes = {
        "dice": "invalid_dice",
        "action": "invalid_action",
        "then": "invalid_action",
    }

    class ActionSerializer(serializers.Serializer):
        # JSON integers only: "1", 1.0 and true are refused, not read as numbers.
        step = StrictIntegerField(min_value=0, max_value=10_000)
        action = serializers.ChoiceField(choices=["roll", "keep"])
        dice = serializers.ListField(
            child=StrictIntegerField(min_value=0, max_value=5),
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

    @extend_schema(
        request=ActionSerializer,
        responses={200: schemas.AttemptSerializer, 409: schemas.ConflictSerializer},
        summary="Act on an attempt: roll, or keep dice then roll or bank",
    )
    def post(self, request: Request, attempt_id: int) -> Response:
        if not isinstance(request.data, dict):
            raise Invalid("invalid", "The body is a JSON object.")
        serializer = self.ActionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
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
        return Response(attempt_data(attempt, game, game.events))


class AttemptRetriesApi(APIView):
    throttle_classes = [ScopedPlayerThrottle, NewGuestThrottle]
    # A retry starts an attempt: it counts with the starts.
    throttle_scope = "attempt_start"
    field_error_codes = {"decision": "invalid_decision"}

    class RetrySerializer(serializers.Serializer):
        decision = StrictIntegerField(
            min_value=0,
            max_value=10_000,
            help_text="The decision to take again, numbered from 0 as the analysis's "
            "`decisions` are.",
        )

    @extend_schema(
        request=RetrySerializer,
        responses={201: schemas.AttemptSerializer, 409: schemas.ErrorSerializer},
        summary="Retry from a decision: a practice game from a finished game's decision, on "
        "the same dice",
        description="A practice game for the caller that replays the finished game's actions "
        "before `decision` (numbered as the analysis's `decisions`) on the same dice, and waits "
        "for that keep to be chosen again; the coach helps in it. Any game whose analysis the "
        "caller may read: their own, anyone's once the puzzle has closed (404 otherwise). On a "
        "puzzle's dice only once the puzzle has closed (409 `not_closed`, with `closes_at`): "
        "after another choice, the throws that follow are ones its players have yet to roll. "
        "A practice game on dice of its own may be retried at any time. 409 `wrong_state` for "
        "a game not finished, 400 `invalid_decision` (with `decisions`) for a decision the "
        "game does not have. A retry is never official: never ranked, counted or in a streak.",
    )
    def post(self, request: Request, attempt_id: int) -> Response:
        if not isinstance(request.data, dict):
            raise Invalid("invalid", "The body is a JSON object.")
        serializer = self.RetrySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        now = timezone.now()
        original = attempt_visible(attempt_id=attempt_id, player=session_player(request), now=now)
        if original is None:
            raise NotFound("not_found", "No such attempt.")
        # Refused before the caller's player is created: a refusal stores nothing.
        refusal = retry_refusal(original=original, now=now)
        if refusal is not None:
            raise refusal
        retry_actions(original.actions, serializer.validated_data["decision"])
        player = session_player_or_create(request, now=now)
        retry = attempt_retry(
            player=player,
            original=original,
            decision=serializer.validated_data["decision"],
            now=now,
        )
        return Response(attempt_data(retry, attempt_game(retry)), status=status.HTTP_201_CREATED)
