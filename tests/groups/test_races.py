"""Joins racing for a group's last place and a player's last group, a removal and a new code,
in real threads."""

import datetime

import pytest
from django.test import Client

from farkle_site.domain import DomainError
from groups import selectors, services
from groups.models import Group, Membership, Removal
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


def _outcome(work, done: str):
    """``done`` when the work succeeds, else the code of its refusal."""
    try:
        work()
    except DomainError as error:
        return error.code
    return done


def test_a_removal_racing_the_members_own_joins_leaves_them_out_for_good(clock):
    owner, bob = player("Owner"), player("Bob Racer")
    group = services.group_create(creator=owner, name="Strict", now=NOON)
    services.group_join(group=group, player=bob, now=NOON)

    def remove():
        return services.member_remove(group=group, by=owner, player_id=bob.pk, now=NOON)

    def rejoin():
        return services.group_join(group=group, player=bob, now=NOON)

    works = [(remove, "removal"), (rejoin, "joined"), (rejoin, "joined"), (rejoin, "joined")]

    results = race(4, lambda: _outcome(*works.pop()))

    # A join ordered before the removal finds Bob already in; one after it is refused.
    assert results.count("removal") == 1
    assert set(results) - {"removal"} <= {"joined", "removed"}
    assert not Membership.objects.filter(group=group, player=bob).exists()
    assert Removal.objects.filter(group=group, player=bob).count() == 1
    assert _outcome(rejoin, "joined") == "removed"


def test_two_removals_of_one_member_at_once_are_one_removal(clock):
    owner, bob = player("Owner"), player("Bob Racer")
    group = services.group_create(creator=owner, name="Strict", now=NOON)
    services.group_join(group=group, player=bob, now=NOON)

    def remove():
        services.member_remove(group=group, by=owner, player_id=bob.pk, now=NOON)

    assert race(2, lambda: _outcome(remove, "removal")) == ["removal", "removal"]
    assert Removal.objects.filter(group=group, player=bob).count() == 1


def test_a_join_by_the_old_code_racing_a_new_code_is_in_or_finds_nothing(clock):
    owner, newcomer = player("Owner"), player("Late Lark")
    old = services.group_create(creator=owner, name="Moving", now=NOON).code

    # Each as its endpoint does it: look the group up by the code in the URL, then write.
    def change():
        return "code", services.group_code_change(group=selectors.group_get(code=old), by=owner)

    def join():
        group = selectors.group_get(code=old)
        return "join", services.group_join(group=group, player=newcomer, now=NOON)

    works = [change, join]
    results = race(2, lambda: works.pop()())

    outcomes = {r[0] if isinstance(r, tuple) else r.code: r for r in results}
    assert set(outcomes) in ({"code", "join"}, {"code", "not_found"})
    joined = "join" in outcomes
    assert Membership.objects.filter(player=newcomer).exists() == joined
    assert Group.objects.get().code == outcomes["code"][1].code != old
    assert Client().get(f"/api/groups/{old}").status_code == 404


def test_of_two_code_changes_read_at_once_the_second_finds_the_old_code_gone(clock):
    owner = player("Owner")
    old = services.group_create(creator=owner, name="Moving", now=NOON).code
    # Both requests looked the group up by its code before either changed it.
    read = [selectors.group_get(code=old), selectors.group_get(code=old)]

    def change():
        services.group_code_change(group=read.pop(), by=owner)

    results = race(2, lambda: _outcome(change, "changed"))

    assert sorted(results) == ["changed", "not_found"]
    assert Group.objects.get().code != old
