"""After the game: a finished attempt's analysis, and the coach of a practice game."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from play.apis import schemas
from play.apis.payloads import analysis_data, coach_data
from play.selectors.analysis import attempt_analysis, attempt_coach
from play.web.session import session_player


class AttemptAnalysisApi(APIView):
    @extend_schema(
        responses={200: schemas.AnalysisSerializer, 409: schemas.ErrorSerializer},
        summary="A finished attempt's decisions graded, its luck, and the bots on its dice",
        description="Yours as soon as your game is finished; anyone's once the puzzle has "
        "closed (404 before). The bots' scores show before the close only to a player whose "
        "official game on the puzzle is finished; their games only after the close. 409 "
        "`wrong_state` while the game is being played. Analysis never changes a score, a rank "
        "or a streak.",
    )
    def get(self, request: Request, attempt_id: int) -> Response:
        found = attempt_analysis(
            attempt_id=attempt_id, player=session_player(request), now=timezone.now()
        )
        return Response(analysis_data(found))


class AttemptCoachApi(APIView):
    @extend_schema(
        responses={200: schemas.CoachSerializer, 409: schemas.ErrorSerializer},
        summary="The coach: before the next decision of your practice game, the expected points "
        "of rolling and of banking and the best keep",
        description="Only on your own practice games: 409 `wrong_state` on a game that counts "
        "(an official daily or challenge attempt), 404 on anyone else's.",
    )
    def get(self, request: Request, attempt_id: int) -> Response:
        attempt, advice = attempt_coach(attempt_id=attempt_id, player=session_player(request))
        return Response(coach_data(attempt, advice))
