"""Groups of friends: create, look up, join, leave, remove and let back, rename, change the code,
close; the day's table and the season (members only: anyone else gets 403 ``not_a_member``, a
player the creator removed 403 ``removed``)."""

from __future__ import annotations

import datetime
import re
from typing import Any

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from farkle_site.domain import Invalid
from farkle_site.drf import ScopedAddressThrottle, ScopedPlayerThrottle
from farkle_site.fields import StrictCharField
from farkle_site.openapi import ErrorSerializer
from farkle_site.query import QuerySerializer
from groups import selectors, services
from groups.codes import PATTERN, code_display
from groups.models import Group
from play.apis.payloads import iso
from play.models import Player
from play.rules.days import DAY_PATTERN, day_of, parse_day
from play.web.session import session_player, session_player_or_create

# Code lookups share the challenges' per-address budget: a client guessing codes of either kind
# meets 429 long before a hit (docs/play.md).
LOOKUP_SCOPE = "challenge_lookup"
# A month as the season's query string writes it (ASCII digits: \d would match others too).
MONTH_PATTERN = r"^[0-9]{4}-[0-9]{2}$"
_MONTH = re.compile(MONTH_PATTERN)


# The code in a URL, as the OpenAPI schema describes it.
CODE_PARAMETER = OpenApiParameter(
    "code",
    str,
    OpenApiParameter.PATH,
    pattern=PATTERN,
    description="The group's code, seven characters of Crockford base 32 (like G7K4M2Q); "
    "read forgivingly too: any case, dashes, O for 0, I or L for 1.",
)


def group_data(request: Request, group: Group, player: Player | None) -> dict[str, Any]:
    """What anyone holding the code may see: enough to decide to join, never members' scores;
    and whether the creator removed me (then I cannot join)."""
    member = selectors.is_member(group=group, player=player)
    return {
        "code": group.code,
        "display_code": code_display(group.code),
        "url": request.build_absolute_uri(group.get_absolute_url()),
        "name": group.name,
        "created_at": iso(group.created_at),
        "members": selectors.member_count(group=group),
        "member": member,
        "creator": player is not None and group.creator_id == player.pk,
        "removed": not member and selectors.is_removed(group=group, player=player),
    }


class GroupSerializer(serializers.Serializer):
    code = serializers.CharField()
    display_code = serializers.CharField(help_text="Grouped for reading: G7K-4M2Q.")
    url = serializers.URLField(help_text="The invite link.")
    name = serializers.CharField()
    created_at = serializers.DateTimeField()
    members = serializers.IntegerField(help_text="How many players the group holds.")
    member = serializers.BooleanField(help_text="I am a member.")
    creator = serializers.BooleanField(
        help_text="I created it (so I rename, remove and let back, change the code, close)."
    )
    removed = serializers.BooleanField(
        help_text="The group's creator removed me: I cannot join until they let me back."
    )


class StandingSerializer(serializers.Serializer):
    code = serializers.CharField()
    display_code = serializers.CharField()
    url = serializers.URLField()
    name = serializers.CharField()
    members = serializers.IntegerField()
    finished = serializers.IntegerField(help_text="Members who finished today's official game.")
    my_rank = serializers.IntegerField(
        allow_null=True, help_text="My rank in the group today, once my own game is finished."
    )
    my_score = serializers.IntegerField(allow_null=True)
    leader = serializers.CharField(allow_null=True, help_text="Today's best, once I finished.")
    leader_score = serializers.IntegerField(allow_null=True)


class NameSerializer(serializers.Serializer):
    name = StrictCharField(max_length=200, trim_whitespace=False)


def _body(request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise Invalid("invalid", "The body is a JSON object.")
    serializer = NameSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _member_group(request: Request, code: str) -> tuple[Group, Player]:
    group = selectors.group_get(code=code)
    player = session_player(request)
    selectors.member_require(group=group, player=player)
    return group, player


# What each refusal of the groups' endpoints means (403 and 404 answers), for the schema.
_CSRF = "`forbidden`: the CSRF check failed (send `X-CSRFToken` with the `csrftoken` cookie)"
_NOT_A_MEMBER = (
    "`not_a_member`: only the group's members may (join it first); `removed`: the group's "
    "creator removed me, and I cannot join it again until they let me back"
)
_CREATOR_ONLY = "`forbidden`: only the group's creator may"
_NO_GROUP = "`not_found`: no group has this code (nor has a code its creator changed)"


def _refusals(forbidden: list[str], not_found: str = _NO_GROUP) -> dict[int, OpenApiResponse]:
    return {
        403: OpenApiResponse(ErrorSerializer, description="; ".join(forbidden) + "."),
        404: OpenApiResponse(ErrorSerializer, description=not_found + "."),
    }


_MEMBERS_ONLY = _refusals([_NOT_A_MEMBER])


class GroupsApi(APIView):
    throttle_classes = [ScopedPlayerThrottle, ScopedAddressThrottle]
    throttle_scope = "challenge_create"
    address_throttle_scope = "challenge_create_address"

    def get_throttles(self):
        # Only creating is limited: reading my groups is what every end screen does.
        return super().get_throttles() if self.request.method == "POST" else []

    @extend_schema(
        responses=StandingSerializer(many=True),
        summary="My groups, newest joined first, with today's standing in each",
    )
    def get(self, request: Request) -> Response:
        player = session_player(request)
        if player is None:
            return Response([])
        today = day_of(timezone.now())
        return Response(
            [
                {
                    "code": s.group.code,
                    "display_code": code_display(s.group.code),
                    "url": request.build_absolute_uri(s.group.get_absolute_url()),
                    "name": s.group.name,
                    "members": s.members,
                    "finished": s.finished,
                    "my_rank": s.my_rank,
                    "my_score": s.my_score,
                    "leader": s.leader,
                    "leader_score": s.leader_score,
                }
                for s in selectors.groups_of_player(player=player, day=today)
            ]
        )

    @extend_schema(
        request=NameSerializer,
        responses={201: GroupSerializer},
        summary="Create a group (its name obeys the rules of display names); I am its first member",
    )
    def post(self, request: Request) -> Response:
        name = _body(request)["name"]
        now = timezone.now()
        player = session_player_or_create(request, now=now)
        group = services.group_create(creator=player, name=name, now=now)
        return Response(group_data(request, group, player), status=status.HTTP_201_CREATED)


class GroupApi(APIView):
    path_parameters = [CODE_PARAMETER]
    throttle_classes = [ScopedAddressThrottle]
    throttle_scope = LOOKUP_SCOPE

    @extend_schema(
        responses={200: GroupSerializer, 404: _refusals([])[404]},
        summary="Look a group up by its code: its name and size (members and scores need joining)",
    )
    def get(self, request: Request, code: str) -> Response:
        group = selectors.group_get(code=code)
        return Response(group_data(request, group, session_player(request)))

    @extend_schema(
        request=NameSerializer,
        responses={200: GroupSerializer, **_refusals([_NOT_A_MEMBER, _CREATOR_ONLY, _CSRF])},
        summary="Rename the group (its creator only: 403 `forbidden`)",
    )
    def patch(self, request: Request, code: str) -> Response:
        name = _body(request)["name"]
        group, player = _member_group(request, code)
        group = services.group_rename(group=group, by=player, name=name)
        return Response(group_data(request, group, player))

    @extend_schema(
        request=None,
        responses={204: None, **_refusals([_NOT_A_MEMBER, _CREATOR_ONLY, _CSRF])},
        summary="Close the group for everyone (its creator only); the games themselves stay",
    )
    def delete(self, request: Request, code: str) -> Response:
        group, player = _member_group(request, code)
        services.group_close(group=group, by=player)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MemberSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    joined_at = serializers.DateTimeField()
    creator = serializers.BooleanField()
    me = serializers.BooleanField()


class GroupMembersApi(APIView):
    path_parameters = [CODE_PARAMETER]
    throttle_classes = [ScopedAddressThrottle]
    throttle_scope = LOOKUP_SCOPE

    @extend_schema(
        responses={200: MemberSerializer(many=True), **_MEMBERS_ONLY},
        summary="The group's members, earliest joined first (members only)",
    )
    def get(self, request: Request, code: str) -> Response:
        group, player = _member_group(request, code)
        return Response(
            [
                {
                    "id": m.player_id,
                    "name": m.player.display_name,
                    "joined_at": iso(m.joined_at),
                    "creator": m.player_id == group.creator_id,
                    "me": m.player_id == player.pk,
                }
                for m in selectors.members_of(group=group)
            ]
        )

    @extend_schema(
        request=None,
        responses={
            200: GroupSerializer,
            **_refusals(
                [
                    "`removed`: the group's creator removed me, and I cannot join it again until "
                    "they let me back",
                    _CSRF,
                ]
            ),
        },
        summary="Join the group (as a guest or an account); joining twice changes nothing",
    )
    def post(self, request: Request, code: str) -> Response:
        group = selectors.group_get(code=code)
        now = timezone.now()
        player = session_player_or_create(request, now=now)
        services.group_join(group=group, player=player, now=now)
        return Response(group_data(request, group, player))


class GroupLeaveApi(APIView):
    path_parameters = [CODE_PARAMETER]

    @extend_schema(
        request=None,
        responses={
            204: None,
            **_refusals([_NOT_A_MEMBER, "`forbidden`: the creator closes it instead", _CSRF]),
        },
        summary="Leave the group (its creator closes it instead: 403 `forbidden`)",
    )
    def delete(self, request: Request, code: str) -> Response:
        group, player = _member_group(request, code)
        services.group_leave(group=group, player=player)
        return Response(status=status.HTTP_204_NO_CONTENT)


class GroupMemberApi(APIView):
    path_parameters = [CODE_PARAMETER]

    @extend_schema(
        request=None,
        responses={
            204: OpenApiResponse(
                description="Removed (or already removed): the player cannot join again until "
                "the creator lets them back."
            ),
            **_refusals(
                [_NOT_A_MEMBER, _CREATOR_ONLY + " (and never on themselves)", _CSRF],
                _NO_GROUP + ", or the player is not a member",
            ),
        },
        summary="Remove a member for good (the group's creator only): they cannot join again "
        "until the creator lets them back",
    )
    def delete(self, request: Request, code: str, player_id: int) -> Response:
        group, player = _member_group(request, code)
        services.member_remove(group=group, by=player, player_id=player_id, now=timezone.now())
        return Response(status=status.HTTP_204_NO_CONTENT)


class RemovedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    removed_at = serializers.DateTimeField()


class GroupRemovedApi(APIView):
    path_parameters = [CODE_PARAMETER]
    throttle_classes = [ScopedAddressThrottle]
    throttle_scope = LOOKUP_SCOPE

    @extend_schema(
        responses={
            200: RemovedSerializer(many=True),
            **_refusals([_NOT_A_MEMBER, "`forbidden`: only the group's creator sees them"]),
        },
        summary="The players the creator removed, most recently first (the creator only)",
    )
    def get(self, request: Request, code: str) -> Response:
        group, player = _member_group(request, code)
        return Response(
            [
                {"id": r.player_id, "name": r.player.display_name, "removed_at": iso(r.removed_at)}
                for r in selectors.removals_of(group=group, viewer=player)
            ]
        )


class GroupRemovedPlayerApi(APIView):
    path_parameters = [CODE_PARAMETER]

    @extend_schema(
        request=None,
        responses={
            204: OpenApiResponse(
                description="Let back: the player may join again, with the group's code."
            ),
            **_refusals(
                [_NOT_A_MEMBER, _CREATOR_ONLY, _CSRF],
                _NO_GROUP + ", or the player was not removed from it",
            ),
        },
        summary="Let a removed player back (the creator only): they may join again, by the code",
    )
    def delete(self, request: Request, code: str, player_id: int) -> Response:
        group, player = _member_group(request, code)
        services.member_let_back(group=group, by=player, player_id=player_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class GroupCodeApi(APIView):
    path_parameters = [CODE_PARAMETER]
    throttle_classes = [ScopedAddressThrottle]
    throttle_scope = LOOKUP_SCOPE

    @extend_schema(
        request=None,
        responses={200: GroupSerializer, **_refusals([_NOT_A_MEMBER, _CREATOR_ONLY, _CSRF])},
        summary="Give the group a new random code (the creator only): the old code and link find "
        "nothing from then on; the members stay",
    )
    def post(self, request: Request, code: str) -> Response:
        group, player = _member_group(request, code)
        group = services.group_code_change(group=group, by=player)
        return Response(group_data(request, group, player))


class RowSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    # Text rather than a choice: an enum named "state" would collide with the attempts' own.
    state = serializers.CharField(help_text="`finished`, `playing` or `not_started`.")
    score = serializers.IntegerField(allow_null=True, help_text="Once the scores are revealed.")
    rank = serializers.IntegerField(allow_null=True, help_text="Ties share a rank (1, 2, 2, 4).")
    finished_at = serializers.DateTimeField(allow_null=True)
    me = serializers.BooleanField()


class DayTableSerializer(serializers.Serializer):
    day = serializers.DateField()
    revealed = serializers.BooleanField(
        help_text="Scores are shown once my own official game of the day is finished, or the "
        "day has closed (its grace over)."
    )
    finished = serializers.IntegerField()
    members = serializers.IntegerField()
    rows = RowSerializer(many=True)


def day_table_data(table: selectors.DayTable) -> dict[str, Any]:
    """A day's table as the API shows it.

    The optimal player's score of the day joins here as its own field once the issue "after the
    game" (12) gives the day one, under the same rule as the members' scores: only once revealed.
    """
    return {
        "day": table.day.isoformat(),
        "revealed": table.revealed,
        "finished": table.finished,
        "members": table.members,
        "rows": [
            {
                "id": r.player_id,
                "name": r.name,
                "state": r.state,
                "score": r.score,
                "rank": r.rank,
                "finished_at": iso(r.finished_at),
                "me": r.mine,
            }
            for r in table.rows
        ],
    }


class DayQuerySerializer(QuerySerializer):
    day = serializers.RegexField(
        DAY_PATTERN,
        required=False,
        help_text="YYYY-MM-DD; today by default.",
        error_messages={"invalid": "A day is written YYYY-MM-DD."},
    )


class GroupTableApi(APIView):
    path_parameters = [CODE_PARAMETER]
    throttle_classes = [ScopedAddressThrottle]
    throttle_scope = LOOKUP_SCOPE
    # A malformed day is refused as one that is no date of the calendar.
    field_error_codes = {"day": "invalid_date"}

    @extend_schema(
        parameters=[DayQuerySerializer],
        responses={200: DayTableSerializer, **_MEMBERS_ONLY},
        summary="A day's table of the group: who played, and scores and ranks once revealed",
    )
    def get(self, request: Request, code: str) -> Response:
        query = DayQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        now = timezone.now()
        typed = query.validated_data.get("day")
        day = parse_day(typed) if typed is not None else day_of(now)
        group, player = _member_group(request, code)
        table = selectors.day_table(group=group, day=day, viewer=player, now=now)
        return Response(day_table_data(table))


class SeasonRowSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    days = serializers.IntegerField(help_text="Official dailies finished.")
    wins = serializers.IntegerField(help_text="Days with the group's best score (ties share).")
    average = serializers.IntegerField(allow_null=True)
    total = serializers.IntegerField()
    streak = serializers.IntegerField(help_text="The current run of consecutive days played.")
    me = serializers.BooleanField()


class SeasonSerializer(serializers.Serializer):
    month = serializers.CharField(help_text="YYYY-MM")
    months = serializers.ListField(
        child=serializers.CharField(), help_text="Months with a game of a member, newest first."
    )
    month_table = SeasonRowSerializer(many=True)
    all_time = SeasonRowSerializer(many=True)


def _season_rows(rows: list[selectors.SeasonRow]) -> list[dict[str, Any]]:
    return [
        {
            "id": r.player_id,
            "name": r.name,
            "days": r.days,
            "wins": r.wins,
            "average": r.average,
            "total": r.total,
            "streak": r.streak,
            "me": r.mine,
        }
        for r in rows
    ]


def parse_month(text: str) -> str:
    """A month of the form YYYY-MM."""
    try:
        if _MONTH.fullmatch(text):
            datetime.date.fromisoformat(text + "-01")
            return text
    except ValueError:
        pass
    raise Invalid("invalid_date", f"{text[:20]} is not a month (YYYY-MM).")


class MonthQuerySerializer(QuerySerializer):
    month = serializers.RegexField(
        MONTH_PATTERN,
        required=False,
        help_text="YYYY-MM; this month by default.",
        error_messages={"invalid": "A month is written YYYY-MM."},
    )


class GroupSeasonApi(APIView):
    path_parameters = [CODE_PARAMETER]
    throttle_classes = [ScopedAddressThrottle]
    throttle_scope = LOOKUP_SCOPE
    # A malformed month is refused as one that is no date of the calendar.
    field_error_codes = {"month": "invalid_date"}

    @extend_schema(
        parameters=[MonthQuerySerializer],
        responses={200: SeasonSerializer, **_MEMBERS_ONLY},
        summary="The group's season: a month's table and all time, from official dailies only",
    )
    def get(self, request: Request, code: str) -> Response:
        query = MonthQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        typed = query.validated_data.get("month")
        month = parse_month(typed) if typed is not None else None
        group, player = _member_group(request, code)
        result = selectors.season(group=group, viewer=player, now=timezone.now(), month=month)
        return Response(
            {
                "month": result.month,
                "months": result.months,
                "month_table": _season_rows(result.month_rows),
                "all_time": _season_rows(result.all_time),
            }
        )
