"""The facts to verify a daily by: commitment, revealed seed, an attempt's throws (no verdict)."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from daily.apis.attempts import parse_day
from daily.apis.schemas import PuzzleRefSerializer
from daily.selectors.verification import puzzle_verification
from daily.services.puzzles import daily_get_or_create
from daily.web.session import session_player


class VerifyQuerySerializer(serializers.Serializer):
    attempt = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)


class VerifiedThrowSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    roll = serializers.IntegerField(help_text="1 for the turn's first throw, then 2, 3, …")
    dice = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The faces served: the first n faces of the roll vector of (turn, roll).",
    )


class VerifiedAttemptSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player = serializers.CharField()
    official = serializers.BooleanField()
    score = serializers.IntegerField()
    finished = serializers.BooleanField()
    dice_source = serializers.ChoiceField(
        choices=["puzzle", "own"],
        help_text="`own`: a practice game played while the puzzle was open, on its own seed.",
    )
    commitment = serializers.CharField(help_text="SHA-256 of the seed of this game's dice, hex.")
    seed = serializers.CharField(allow_null=True, help_text="That seed, hex, once revealed.")
    throws = VerifiedThrowSerializer(many=True)


class VerificationSerializer(serializers.Serializer):
    puzzle = PuzzleRefSerializer()
    table = serializers.CharField()
    status = serializers.ChoiceField(choices=["upcoming", "open", "grace", "closed"])
    opens_at = serializers.DateTimeField()
    closes_at = serializers.DateTimeField()
    commitment = serializers.CharField(help_text="SHA-256 of the seed, published in advance.")
    seed = serializers.CharField(allow_null=True, help_text="The revealed seed, hex, once closed.")
    attempt = VerifiedAttemptSerializer(allow_null=True)


def verification_response(request: Request, puzzle) -> Response:
    """The facts to verify a puzzle by, for ``?attempt=<id>`` (shared with the challenges)."""
    query = VerifyQuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    data = puzzle_verification(
        puzzle=puzzle,
        attempt_id=query.validated_data.get("attempt"),
        player=session_player(request),
        now=timezone.now(),
    )
    return Response(data)


class VerifyDailyApi(APIView):
    @extend_schema(
        parameters=[VerifyQuerySerializer],
        responses=VerificationSerializer,
        summary="Facts to check a daily by: commitment, seed once closed, an attempt's throws",
    )
    def get(self, request: Request, day: str) -> Response:
        puzzle = daily_get_or_create(day=parse_day(day), now=timezone.now())
        return verification_response(request, puzzle)
