"""Verification of a closed daily: the revealed seed, and an attempt's throws recomputed."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from daily import services
from daily.apis.attempts import parse_day
from daily.apis.schemas import PuzzleRefSerializer
from daily.verify import puzzle_verification


class VerifyQuerySerializer(serializers.Serializer):
    attempt = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)


class VerifiedThrowSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    roll = serializers.IntegerField()
    served = serializers.ListField(child=serializers.IntegerField())
    recomputed = serializers.ListField(child=serializers.IntegerField())
    match = serializers.BooleanField()


class VerifiedAttemptSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player = serializers.CharField()
    official = serializers.BooleanField()
    score = serializers.IntegerField()
    throws = VerifiedThrowSerializer(many=True)
    all_match = serializers.BooleanField()


class VerificationSerializer(serializers.Serializer):
    puzzle = PuzzleRefSerializer()
    table = serializers.CharField()
    commitment = serializers.CharField()
    seed = serializers.CharField(help_text="The revealed seed, hex.")
    matches = serializers.BooleanField(help_text="SHA-256(seed) equals the commitment.")
    attempt = VerifiedAttemptSerializer(allow_null=True)


def verification_response(request: Request, puzzle) -> Response:
    """The verification of a puzzle for ``?attempt=<id>`` (shared with the challenges)."""
    query = VerifyQuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    return Response(
        puzzle_verification(
            puzzle=puzzle, attempt_id=query.validated_data.get("attempt"), now=timezone.now()
        )
    )


class VerifyDailyApi(APIView):
    @extend_schema(
        parameters=[VerifyQuerySerializer],
        responses=VerificationSerializer,
        summary="Check a closed daily: its seed against the commitment, an attempt's throws",
    )
    def get(self, request: Request, day: str) -> Response:
        puzzle = services.daily_get_or_create(day=parse_day(day), now=timezone.now())
        return verification_response(request, puzzle)
