"""Reads of players."""

from __future__ import annotations

import functools

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import connection

from farkle_site.db import ModelColumns, statement_cursor
from play.models import Player

_PLAYER = ModelColumns(Player, "p")


def player_find(*, user: AbstractBaseUser | None, player_id: int | None) -> Player | None:
    """The account's player when ``user`` is logged in and has one, else the player ``player_id``
    (a guest's, kept in its session), else None."""
    if user is not None and user.is_authenticated:
        player = Player.objects.filter(user=user).first()
        if player is not None:
            player.user = user  # Spares a query to whoever shows the account's name.
            return player
    if player_id is None or not 0 < player_id < 2**63:
        return None
    return _player_with_user(player_id)


def _player_with_user(player_id: int) -> Player | None:
    """The player ``player_id`` with its account (or none), as ``select_related("user")`` reads
    it: most requests of a browser that has played read it (its session's player), and the
    queryset's compiling cost several times the statement (issue 15, as ``ModelColumns``)."""
    users = _users()
    with statement_cursor(connection) as cursor:
        cursor.execute(_player_sql(connection.vendor), [player_id])
        row = cursor.fetchone()
    if row is None:
        return None
    split = len(_PLAYER.fields)
    player = _PLAYER.build(connection, row[:split])
    account = row[split:]
    # The account's primary key is None when the LEFT JOIN found none: a guest. Cached as the
    # ORM's select_related caches it, so that showing the account asks nothing more.
    user = None if account[_user_pk_index()] is None else users.build(connection, account)
    Player._meta.get_field("user").set_cached_value(player, user)
    return player


@functools.cache
def _users() -> ModelColumns:
    return ModelColumns(get_user_model(), "u")


@functools.cache
def _user_pk_index() -> int:
    return _users().attnames.index(get_user_model()._meta.pk.attname)


@functools.cache
def _player_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    user = get_user_model()._meta
    account = quote(Player._meta.get_field("user").column)
    return (
        f"SELECT {_PLAYER.select(connection)}, {_users().select(connection)}"
        f" FROM {quote(Player._meta.db_table)} p"
        f" LEFT JOIN {quote(user.db_table)} u ON u.{quote(user.pk.column)} = p.{account}"
        f" WHERE p.{quote(Player._meta.pk.column)} = %s"
    )
