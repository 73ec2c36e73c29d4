"""Friend challenges: create, look up, start an attempt, and list mine."""

from __future__ import annotations

import datetime
from typing import Any

from django.middleware.csrf import get_token
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import farkle
from challenges import selectors, services
from challenges.codes import PATTERN, code_display
from challenges.models import Challenge
from farkle_site.domain import Invalid
from farkle_site.drf import ScopedAddressThrottle, ScopedPlayerThrottle
from farkle_site.fields import StrictCharField, StrictIntegerField
from play.apis.payloads import attempt_summary, iso, options_data, puzzle_fields
from play.apis.puzzles import (
    PuzzleApi,
    PuzzleAttemptsApi,
    PuzzleLeaderboardApi,
    PuzzleVerificationApi,
)
from play.apis.schemas import (
    AttemptSerializer,
    AttemptSummarySerializer,
    ErrorSerializer,
    LeaderboardEntrySerializer,
    LeaderboardQuerySerializer,
    LeaderboardSerializer,
    OptionsSerializer,
    PuzzleSerializer,
    VerificationSerializer,
    VerifyQuerySerializer,
)
from play.models import Puzzle
from play.selectors.attempts import player_attempts_on
from play.web.session import session_player, session_player_or_create
from play.web.throttles import NewGuestThrottle

# The code in a URL, as the OpenAPI schema describes it.
CODE_PARAMETER = OpenApiParameter(
    "code",
    str,
    OpenApiParameter.PATH,
    pattern=PATTERN,
    description="The challenge's code, six characters of Crockford base 32 (like K7M2QX); "
    "read forgivingly too: any case, dashes, O for 0, I or L for 1.",
)


def challenge_data(
    request: Request, challenge: Challenge, now: datetime.datetime
) -> dict[str, Any]:
    """A challenge: its puzzle as a day's is shown, with what makes it a challenge."""
    puzzle = challenge.puzzle
    return {
        **puzzle_fields(puzzle, now),
        "display_code": code_display(puzzle.code),
        "url": request.build_absolute_uri(challenge.get_absolute_url()),
        "title": challenge.title,
        "creator": challenge.creator.display_name,
        "created_at": iso(challenge.created_at),
        "expires_at": iso(puzzle.closes_at),
        "options": options_data(puzzle),
    }


class ChallengeSerializer(PuzzleSerializer):
    code = serializers.CharField()
    display_code = serializers.CharField(help_text="Grouped for reading: K7M-2QX.")
    url = serializers.URLField(help_text="The link to share.")
    title = serializers.CharField(allow_blank=True)
    creator = serializers.CharField()
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    options = OptionsSerializer(help_text="Chosen at creation, never changed; `par` follows them.")


class ChallengeDetailSerializer(ChallengeSerializer):
    my_attempts = AttemptSummarySerializer(many=True)


class ChallengesApi(APIView):
    throttle_classes = [ScopedPlayerThrottle, ScopedAddressThrottle]
    throttle_scope = "challenge_create"
    address_throttle_scope = "challenge_create_address"
    field_error_codes = {
        "title": "invalid_title",
        "table": "unknown_table",
        "entry_minimum": "invalid_option",
        "farkle_penalty": "invalid_option",
        "turn_seconds": "invalid_option",
    }

    class CreateSerializer(serializers.Serializer):
        title = StrictCharField(
            required=False, allow_blank=True, max_length=200, trim_whitespace=False
        )
        table = StrictCharField(required=False, max_length=64)
        days = StrictIntegerField(required=False, min_value=1, max_value=services.DAYS_MAX)
        entry_minimum = StrictIntegerField(
            required=False, help_text="0 (off), 350, 500 or 1000 (seeds 000, 004)."
        )
        farkle_penalty = StrictIntegerField(
            required=False, help_text="0 (off), 500 or 1000 (seeds 000, 004)."
        )
        turn_seconds = StrictIntegerField(
            required=False, allow_null=True, help_text="null (off), 30, 60 or 90 (seed 001)."
        )

    @extend_schema(
        request=CreateSerializer,
        responses={201: ChallengeSerializer},
        summary="Create a friend challenge",
    )
    def post(self, request: Request) -> Response:
        if not isinstance(request.data, dict):
            raise Invalid("invalid", "The body is a JSON object.")
        serializer = self.CreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        now = timezone.now()
        challenge = services.challenge_create(
            creator=session_player_or_create(request, now=now),
            title=data.get("title", ""),
            table=data.get("table", farkle.DEFAULT_TABLE),
            days=data.get("days", services.DAYS_DEFAULT),
            entry_minimum=data.get("entry_minimum", 0),
            farkle_penalty=data.get("farkle_penalty", 0),
            turn_seconds=data.get("turn_seconds"),
            now=now,
        )
        return Response(challenge_data(request, challenge, now), status=status.HTTP_201_CREATED)


class ChallengeApi(APIView):
    path_parameters = [CODE_PARAMETER]
    throttle_classes = [ScopedAddressThrottle]
    throttle_scope = "challenge_lookup"

    @extend_schema(responses=ChallengeDetailSerializer, summary="Look a challenge up by its code")
    def get(self, request: Request, code: str) -> Response:
        # An API client that starts from a code gets its CSRF cookie here, as from today's daily.
        get_token(request)
        now = timezone.now()
        challenge = selectors.challenge_get(code=code)
        attempts = player_attempts_on(player=session_player(request), puzzle=challenge.puzzle)
        return Response(
            {
                **challenge_data(request, challenge, now),
                "my_attempts": [attempt_summary(a) for a in attempts],
            }
        )


class ChallengeApiBase(PuzzleApi):
    # A view of the challenge the URL's ``code`` names.

    challenge: Challenge
    path_parameters = [CODE_PARAMETER]

    def find_puzzle(self, *, now: datetime.datetime, **url_kwargs: Any) -> Puzzle:
        # Kept on the view for what a challenge adds to its puzzle (its title, its creator).
        self.challenge = selectors.challenge_get(code=url_kwargs["code"])
        return self.challenge.puzzle


class ChallengeAttemptsApi(ChallengeApiBase, PuzzleAttemptsApi):
    throttle_classes = [ScopedPlayerThrottle, ScopedAddressThrottle, NewGuestThrottle]
    address_throttle_scope = "challenge_lookup"

    @extend_schema(
        request=None,
        responses={201: AttemptSerializer},
        summary="Start an attempt on a challenge (each player's first is official)",
    )
    def post(self, request: Request, code: str) -> Response:
        return super().post(request, code=code)


class MyChallengeSerializer(ChallengeSerializer):
    created = serializers.BooleanField(help_text="I created it.")
    played = serializers.BooleanField(help_text="I started an attempt on it.")
    my_score = serializers.IntegerField(allow_null=True, help_text="My official finished score.")


class MyChallengesApi(APIView):
    @extend_schema(
        responses=MyChallengeSerializer(many=True),
        summary="Challenges I created or played, newest first",
    )
    def get(self, request: Request) -> Response:
        player = session_player(request)
        if player is None:
            return Response([])
        now = timezone.now()
        return Response(
            [
                {
                    **challenge_data(request, challenge, now),
                    "created": challenge.creator_id == player.pk,
                    "played": challenge.played,
                    "my_score": challenge.my_score,
                }
                for challenge in selectors.challenges_of_player(player=player)
            ]
        )


class ChallengeLeaderboardEntrySerializer(LeaderboardEntrySerializer):
    rank = serializers.IntegerField(
        help_text="Equal scores share a rank (1, 2, 2, 4), except on a timed challenge, where "
        "the least total time taken ranks first (seed 001)."
    )
    time_taken = serializers.FloatField(
        allow_null=True,
        help_text="Seconds its turns took, each from its first throw to its end, on a timed "
        "challenge; null otherwise.",
    )


class ChallengeLeaderboardSerializer(LeaderboardSerializer):
    entries = ChallengeLeaderboardEntrySerializer(
        many=True, help_text="Empty past the last page, and while the scores are hidden."
    )
    title = serializers.CharField(allow_blank=True)
    creator = serializers.CharField()
    table = serializers.CharField()
    expires_at = serializers.DateTimeField()
    options = OptionsSerializer()
    tie_break = serializers.ChoiceField(
        choices=["time_taken", "finished_at"],
        help_text="Among equal scores: the least total time taken first on a timed challenge "
        "(seed 001), otherwise the earliest finish.",
    )


class ChallengeLeaderboardApi(ChallengeApiBase, PuzzleLeaderboardApi):
    throttle_classes = [ScopedAddressThrottle]
    throttle_scope = "challenge_lookup"
    timed_entries = True

    @extend_schema(
        parameters=[LeaderboardQuerySerializer],
        responses=ChallengeLeaderboardSerializer,
        summary="A challenge's leaderboard, ranked as the daily's",
    )
    def get(self, request: Request, code: str) -> Response:
        return super().get(request, code=code)

    def leaderboard_extra(self, puzzle: Puzzle) -> dict[str, Any]:
        return {
            "title": self.challenge.title,
            "creator": self.challenge.creator.display_name,
            "table": puzzle.table,
            "expires_at": iso(puzzle.closes_at),
            "options": options_data(puzzle),
            "tie_break": "finished_at" if puzzle.turn_seconds is None else "time_taken",
        }

    def get_serializer_class(self) -> type:
        return ChallengeLeaderboardSerializer


class VerifyChallengeApi(ChallengeApiBase, PuzzleVerificationApi):
    throttle_classes = [ScopedAddressThrottle]
    throttle_scope = "challenge_lookup"

    @extend_schema(
        parameters=[VerifyQuerySerializer],
        responses={200: VerificationSerializer, 409: ErrorSerializer},
        summary="Facts to check a challenge by: commitment, seed once closed, an attempt's throws",
    )
    def get(self, request: Request, code: str) -> Response:
        return super().get(request, code=code)
