"""Reads of players."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser

from farkle_site.db import one_or_none
from play.models import Player


def player_find(*, user: AbstractBaseUser | None, player_id: int | None) -> Player | None:
    """The account's player when ``user`` is logged in and has one, else the player ``player_id``
    (a guest's, kept in its session), else None."""
    if user is not None and user.is_authenticated:
        player = one_or_none(Player.objects.filter(user=user))
        if player is not None:
            player.user = user  # Spares a query to whoever shows the account's name.
            return player
    if player_id is None or not 0 < player_id < 2**63:
        return None
    # With its account (or none), so that showing the account's name asks nothing more.
    return one_or_none(Player.objects.select_related("user").filter(pk=player_id))
