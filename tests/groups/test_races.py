"""Joins racing for a group's last place and a player's last group, in real threads."""

import datetime

import pytest
from django.test import Client

from farkle_site.domain import DomainError
from groups import services
from groups.models import Group, Membership
from play.models import Player
from tests.helpers import race
from tests.moments import NOON

from .helpers import player

pytestmark = pytest.mark.django_db(transaction=True)


def test_four_players_racing_for_the_last_place_leave_the_group_at_200(clock):
    group = services.group_create(creator=player("Owner"), name="Crowded", now=NOON)
    now = datetime.datetime(2026, 11, 29, tzinfo=datetime.UTC)
    crowd = Player.objects.bulk_create(
        Player(display_name=f"crowd {i:03d}", created_at=now) for i in range(198)
    )
    Membership.objects.bulk_create(Membership(group=group, player=p, joined_at=now) for p in crowd)
    racers = [player(f"Racer {c}") for c in "ABCD"]
    queue = list(racers)

    def join():
        try:
            services.group_join(group=group, player=queue.pop(), now=NOON)
            return "joined"
        except DomainError as error:
            return error.code

    assert sorted(race(4, join)) == ["group_full", "group_full", "group_full", "joined"]
    assert Membership.objects.filter(group=group).count() == 200


def test_one_player_racing_into_two_groups_stays_at_20(clock):
    me = player("Joiner")
    for n in range(19):
        services.group_join(
            group=services.group_create(
                creator=player(f"Maker {n:02d}x"), name=f"G {n:02d}x", now=NOON
            ),
            player=me,
            now=NOON,
        )
    groups = [
        services.group_create(creator=player(f"Last {c}"), name=f"Last {c}", now=NOON) for c in "AB"
    ]
    queue = list(groups)

    def join():
        try:
            services.group_join(group=queue.pop(), player=me, now=NOON)
            return "joined"
        except DomainError as error:
            return error.code

    assert sorted(race(2, join)) == ["joined", "too_many_groups"]
    assert Membership.objects.filter(player=me).count() == 20
    assert Group.objects.count() == 21
    assert Client().get("/api/groups").json() == []
