"""Request ↔ player: the only module that reads a browser's session and cookies for a player.

Pages and APIs call these; services and selectors take plain values (``user``, ``browser_id``,
``player_id``, ``now``) and never see a request.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone

from farkle_site.drf import count_for_new_player
from farkle_site.middleware import browser_id_of
from play.models import Player
from play.rules.names import display_name_clean
from play.selectors.players import player_find
from play.services.players import player_for_browser, player_rename


def session_player(request: HttpRequest) -> Player | None:
    """The browser's player (its account's, when logged in), read with a query; None before its
    first game."""
    player = player_find(
        user=getattr(request, "user", None),
        player_id=request.session.get(settings.PLAYER_SESSION_KEY),
    )
    if player is not None:
        _session_keep_alive(request)
    return player


def session_player_id(request: HttpRequest) -> int | None:
    """The id of the browser's player from its session alone, without a query: the session holds
    the account's player once logged in (``session_bind``)."""
    player_id = request.session.get(settings.PLAYER_SESSION_KEY)
    if player_id is not None:
        _session_keep_alive(request)
    return player_id


def session_player_or_create(
    request: HttpRequest, *, now: datetime.datetime, display_name: str | None = None
) -> Player:
    """The browser's player, created and tied to its session on its first game or first chosen
    name (``display_name``, already clean)."""
    player = session_player(request)
    if player is None:
        player = player_for_browser(
            user=getattr(request, "user", None),
            browser_id=browser_id_of(request),
            now=now,
            display_name=display_name,
        )
        session_bind(request, player)
        # What the request was counted for by its address before the browser had its player
        # counts for the player too: its limits start with this request (farkle_site/drf.py).
        count_for_new_player(request, player.pk)
    return player


def session_choose_name(request: HttpRequest, *, name: str, now: datetime.datetime) -> Player:
    """Give the browser's player the name ``name``, creating the player with it if the browser has
    none yet (a refused name stores nothing)."""
    clean = display_name_clean(name)
    player = session_player_or_create(request, now=now, display_name=clean)
    return player if player.display_name == clean else player_rename(player=player, name=clean)


def session_bind(request: HttpRequest, player: Player) -> None:
    """Tie the player to this browser's session."""
    _session_tie(request, player.pk)


def _session_tie(request: HttpRequest, player_id: int) -> None:
    request.session[settings.PLAYER_SESSION_KEY] = player_id
    _session_keep_alive(request)


def _session_keep_alive(request: HttpRequest) -> None:
    # The session (and its cookie) lasts a year from its last save; saving once a day keeps a
    # regular player's guest alive for good, without a write on every action.
    today = timezone.now().date().isoformat()
    if request.session.get("seen") != today:
        request.session["seen"] = today
