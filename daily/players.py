"""Players: a browser's guest player, kept in its session, and generated display names."""

from __future__ import annotations

import datetime
import secrets

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpRequest

from daily.models import Player

_ADJECTIVES = (
    "Brave", "Lucky", "Swift", "Calm", "Bold", "Clever", "Jolly", "Quiet", "Sunny", "Witty",
    "Nimble", "Merry", "Steady", "Gentle", "Daring", "Eager", "Fancy", "Happy", "Keen", "Mighty",
    "Noble", "Plucky", "Proud", "Rapid", "Sly", "Spry", "Stout", "Tidy", "Vivid", "Zesty",
)  # fmt: skip
_ANIMALS = (
    "Badger", "Otter", "Falcon", "Heron", "Lynx", "Marten", "Panda", "Puffin", "Raven", "Stoat",
    "Tiger", "Walrus", "Beaver", "Bison", "Camel", "Dingo", "Ferret", "Gecko", "Ibis", "Jackal",
    "Koala", "Lemur", "Moose", "Newt", "Ocelot", "Pelican", "Quail", "Robin", "Seal", "Yak",
)  # fmt: skip


def display_name_generate() -> str:
    """A friendly random name such as "Brave Badger 42" (at most 24 characters)."""
    number = secrets.randbelow(99) + 1
    return f"{secrets.choice(_ADJECTIVES)} {secrets.choice(_ANIMALS)} {number}"


def player_create(*, now: datetime.datetime) -> Player:
    """A new guest player with a generated name that no one else holds."""
    for _ in range(20):
        try:
            with transaction.atomic():
                return Player.objects.create(display_name=display_name_generate(), created_at=now)
        except IntegrityError:
            continue  # The name was taken (case-insensitively): draw another.
    raise RuntimeError("Could not draw a free display name in 20 tries.")


def player_from_request(request: HttpRequest) -> Player | None:
    """The player of this browser (its account's, when logged in), or None before its first game."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        player = Player.objects.filter(user=user).first()
        if player is not None:
            return player
    player_id = request.session.get(settings.PLAYER_SESSION_KEY)
    if player_id is None:
        return None
    return Player.objects.filter(pk=player_id).first()


def player_for_request(request: HttpRequest, *, now: datetime.datetime) -> Player:
    """The player of this browser, created and tied to its session on the first game."""
    player = player_from_request(request)
    if player is None:
        player = player_create(now=now)
        request.session[settings.PLAYER_SESSION_KEY] = player.pk
    return player
