"""The player's settings (issue 40): the colour palette of the share squares and the pages' marks.

Kept on the player, so that an account's choice follows it to every browser it logs in on, and a
guest's is adopted with the guest when it signs up. The pages apply the browser's copy of it
(static/js/palette.js) before they draw, and write it here when the player changes it.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from farkle_site.domain import NotFound
from farkle_site.drf import ScopedPlayerThrottle
from play.apis import schemas
from play.models import PALETTES, Player
from play.web.session import session_player

_CHOICES = [value for value, _ in PALETTES]


class PreferencesSerializer(serializers.Serializer):
    palette = serializers.ChoiceField(
        choices=_CHOICES,
        help_text="`default`, or `colourblind`: squares and marks in colours told apart with "
        "any colour vision (and in greyscale).",
    )


class PreferencesShownSerializer(serializers.Serializer):
    palette = serializers.ChoiceField(
        choices=_CHOICES,
        allow_null=True,
        help_text="The player's palette; null while the browser has no player (its own copy "
        "stands).",
    )


def _data(player: Player | None) -> dict[str, str | None]:
    return {"palette": player.palette if player is not None else None}


class PreferencesApi(APIView):
    throttle_scope = "account"

    def get_throttles(self):
        return [ScopedPlayerThrottle()] if self.request.method == "PATCH" else []

    @extend_schema(
        responses={200: PreferencesShownSerializer},
        summary="This browser's player's settings (null before its first game)",
    )
    def get(self, request: Request) -> Response:
        return Response(_data(session_player(request)))

    @extend_schema(
        request=PreferencesSerializer,
        responses={
            200: PreferencesShownSerializer,
            400: schemas.ErrorSerializer,
            404: schemas.ErrorSerializer,
        },
        summary="Change the player's settings (404 before the browser's first game)",
    )
    def patch(self, request: Request) -> Response:
        serializer = PreferencesSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = session_player(request)
        if player is None:
            raise NotFound(
                "not_found", "This browser has no player yet: its settings stay in the browser."
            )
        palette = serializer.validated_data["palette"]
        Player.objects.filter(pk=player.pk).update(palette=palette)
        player.palette = palette
        return Response(_data(player))
