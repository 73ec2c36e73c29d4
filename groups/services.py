"""Writes of groups: create, join, leave, remove a member, rename, close (docs/play.md)."""

from __future__ import annotations

import datetime

from django.db import IntegrityError, transaction

from farkle_site.domain import Conflict, Forbidden, NotFound
from groups.codes import code_generate
from groups.models import Group, Membership
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
        Group.objects.select_for_update().filter(pk=group.pk).first()
        Player.objects.select_for_update().filter(pk=player.pk).first()
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


def member_remove(*, group: Group, by: Player, player_id: int) -> None:
    """The creator removes a member (not themselves)."""
    if group.creator_id != by.pk:
        raise Forbidden("forbidden", "Only the group's creator can remove a member.")
    if player_id == by.pk:
        raise Forbidden("forbidden", "The creator cannot remove themselves; close the group.")
    deleted, _ = Membership.objects.filter(group=group, player_id=player_id).delete()
    if not deleted:
        raise NotFound("not_found", "This player is not a member of the group.")


def group_rename(*, group: Group, by: Player, name: str) -> Group:
    """The creator gives the group a new name."""
    if group.creator_id != by.pk:
        raise Forbidden("forbidden", "Only the group's creator can rename it.")
    group.name = display_name_clean(name)
    group.save(update_fields=["name"])
    return group


def group_close(*, group: Group, by: Player) -> None:
    """The creator closes the group: it and its memberships go; the games themselves stay."""
    if group.creator_id != by.pk:
        raise Forbidden("forbidden", "Only the group's creator can close it.")
    group.delete()
