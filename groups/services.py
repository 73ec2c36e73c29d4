"""Writes of groups: create, join, leave, remove a member and let them back, rename, change the
code, close (docs/play.md)."""

from __future__ import annotations

import datetime

from django.db import IntegrityError, transaction

from farkle_site.domain import Conflict, Forbidden, NotFound
from groups.codes import code_generate
from groups.models import Group, Membership, Removal
from groups.selectors import removed_refusal
from play.models import Player
from play.rules.names import display_name_clean

# Issue 13: a player follows at most this many groups, and a group holds at most this many.
GROUPS_PER_PLAYER = 20
MEMBERS_PER_GROUP = 200


def _check_room_for(player: Player) -> None:
    if Membership.objects.filter(player=player).count() >= GROUPS_PER_PLAYER:
        raise Conflict(
            "too_many_groups",
            f"A player is in at most {GROUPS_PER_PLAYER} groups: leave one to join another.",
        )


def _lock(group: Group) -> None:
    """Lock the group's row for the transaction, after checking that it still has the code it
    was looked up by: a request that read the group just before it was closed, or before its
    code changed, finds nothing, as it would a moment later (the old code finds nothing)."""
    code = Group.objects.select_for_update().filter(pk=group.pk).values_list("code", flat=True)
    if code.first() != group.code:
        raise NotFound("not_found", f"No group has the code {group.code}.")


def group_create(*, creator: Player, name: str, now: datetime.datetime) -> Group:
    """A new group on a fresh random code, its creator its first member."""
    # A group's name is shown beside players' names, so it obeys the same rules.
    clean = display_name_clean(name)
    for _ in range(10):
        try:
            with transaction.atomic():
                # The player's row is the lock that serialises their joins and creations, so two
                # at once cannot both pass the limit.
                Player.objects.select_for_update().filter(pk=creator.pk).first()
                _check_room_for(creator)
                group = Group.objects.create(
                    code=code_generate(), name=clean, creator=creator, created_at=now
                )
                Membership.objects.create(group=group, player=creator, joined_at=now)
                return group
        except IntegrityError:
            # A code already in use is drawn again (the unique index decides).
            continue
    raise RuntimeError("No free group code in 10 draws.")


def group_join(*, group: Group, player: Player, now: datetime.datetime) -> Membership:
    """The player's membership of the group, made now unless they already are a member."""
    with transaction.atomic():
        # Locks in a fixed order (the group, then the player) so concurrent joins cannot deadlock.
        # The group's lock also orders a join after a removal of the same player (or before it:
        # then the removal takes the membership away).
        _lock(group)
        Player.objects.select_for_update().filter(pk=player.pk).first()
        if Removal.objects.filter(group=group, player=player).exists():
            raise removed_refusal()
        existing = Membership.objects.filter(group=group, player=player).first()
        if existing is not None:
            return existing
        if Membership.objects.filter(group=group).count() >= MEMBERS_PER_GROUP:
            raise Conflict(
                "group_full", f"This group already has {MEMBERS_PER_GROUP} members, its most."
            )
        _check_room_for(player)
        return Membership.objects.create(group=group, player=player, joined_at=now)


def group_leave(*, group: Group, player: Player) -> None:
    """The player leaves the group; its creator closes it instead (someone must hold it)."""
    if group.creator_id == player.pk:
        raise Forbidden(
            "forbidden", "The creator cannot leave their group; close it to end it for everyone."
        )
    Membership.objects.filter(group=group, player=player).delete()


def member_remove(*, group: Group, by: Player, player_id: int, now: datetime.datetime) -> None:
    """The creator removes a member (not themselves) for good: the player cannot join again
    until the creator lets them back. Removing a player already removed changes nothing."""
    if group.creator_id != by.pk:
        raise Forbidden("forbidden", "Only the group's creator can remove a member.")
    if player_id == by.pk:
        raise Forbidden("forbidden", "The creator cannot remove themselves; close the group.")
    with transaction.atomic():
        # Under the group's lock, as joins are: a join is either refused or undone.
        _lock(group)
        deleted, _ = Membership.objects.filter(group=group, player_id=player_id).delete()
        if deleted:
            Removal.objects.create(group=group, player_id=player_id, removed_at=now)
        elif not Removal.objects.filter(group=group, player_id=player_id).exists():
            raise NotFound("not_found", "This player is not a member of the group.")


def member_let_back(*, group: Group, by: Player, player_id: int) -> None:
    """The creator lets a removed player back: they may join again (with the group's code)."""
    if group.creator_id != by.pk:
        raise Forbidden("forbidden", "Only the group's creator can let a removed player back.")
    with transaction.atomic():
        _lock(group)
        deleted, _ = Removal.objects.filter(group=group, player_id=player_id).delete()
    if not deleted:
        raise NotFound("not_found", "This player was not removed from the group.")


def group_rename(*, group: Group, by: Player, name: str) -> Group:
    """The creator gives the group a new name."""
    if group.creator_id != by.pk:
        raise Forbidden("forbidden", "Only the group's creator can rename it.")
    group.name = display_name_clean(name)
    group.save(update_fields=["name"])
    return group


def group_code_change(*, group: Group, by: Player) -> Group:
    """The creator gives the group a fresh random code: the old one finds nothing from now on
    (its link and its code alike); the members, the table and the season stay."""
    if group.creator_id != by.pk:
        raise Forbidden("forbidden", "Only the group's creator can change its code.")
    for _ in range(10):
        fresh = code_generate()
        if fresh == group.code:
            continue
        try:
            with transaction.atomic():
                _lock(group)
                Group.objects.filter(pk=group.pk).update(code=fresh)
        except IntegrityError:
            # A code already in use is drawn again (the unique index decides).
            continue
        group.code = fresh
        return group
    raise RuntimeError("No free group code in 10 draws.")


def group_close(*, group: Group, by: Player) -> None:
    """The creator closes the group: it and its memberships go; the games themselves stay."""
    if group.creator_id != by.pk:
        raise Forbidden("forbidden", "Only the group's creator can close it.")
    group.delete()
