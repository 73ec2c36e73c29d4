"""Players: a browser's guest player kept in its session, display names, and the accounts that
adopt players (SPEC §3)."""

from __future__ import annotations

import datetime
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest

from daily.models import Player
from daily.names import display_name_clean
from farkle_site.errors import ApiError

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


def player_create(
    *, now: datetime.datetime, display_name: str | None = None, user: AbstractBaseUser | None = None
) -> Player:
    """A new player named ``display_name`` (already clean; ApiError ``name_taken`` when held), or
    with a generated name that no one else holds."""
    if display_name is not None:
        try:
            with transaction.atomic():
                return Player.objects.create(display_name=display_name, user=user, created_at=now)
        except IntegrityError:
            raise _name_taken(display_name) from None
    for _ in range(20):
        try:
            with transaction.atomic():
                return Player.objects.create(
                    display_name=display_name_generate(), user=user, created_at=now
                )
        except IntegrityError:
            continue  # The name was taken (case-insensitively): draw another.
    raise RuntimeError("Could not draw a free display name in 20 tries.")


def _name_taken(name: str) -> ApiError:
    return ApiError("name_taken", f"The name {name!r} is taken; please choose another.")


def player_rename(*, player: Player, name: str) -> Player:
    """Give the player a new display name under SPEC §3's rules (ApiError ``invalid_name`` or
    ``name_taken`` otherwise)."""
    name = display_name_clean(name)
    # The case-insensitive unique index is the final word: a check before saving would race.
    try:
        with transaction.atomic():
            Player.objects.filter(pk=player.pk).update(display_name=name)
    except IntegrityError:
        raise _name_taken(name) from None
    player.display_name = name
    return player


def player_from_request(request: HttpRequest) -> Player | None:
    """The player of this browser (its account's, when logged in), or None before its first game."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        player = Player.objects.filter(user=user).first()
        if player is not None:
            player.user = user  # Spares a query to whoever shows the account's name.
            return player
    player_id = request.session.get(settings.PLAYER_SESSION_KEY)
    if player_id is None:
        return None
    return Player.objects.select_related("user").filter(pk=player_id).first()


def player_for_request(request: HttpRequest, *, now: datetime.datetime) -> Player:
    """The player of this browser, created and tied to its session on the first game."""
    player = player_from_request(request)
    if player is None:
        player = player_create(now=now)
        player_bind(request, player)
    return player


def player_bind(request: HttpRequest, player: Player) -> None:
    """Tie the player to this browser's session."""
    request.session[settings.PLAYER_SESSION_KEY] = player.pk


def account_username_clean(username: str) -> str:
    """The username as Django auth stores it (NFKC), or ApiError ``invalid_username``."""
    User = get_user_model()
    username = User.normalize_username(username)
    field = User._meta.get_field(User.USERNAME_FIELD)
    try:
        field.run_validators(username)
        field.validate(username, None)
    except ValidationError as error:
        raise ApiError("invalid_username", " ".join(error.messages)) from None
    return username


def account_signup(
    *, username: str, password: str, player: Player | None, now: datetime.datetime
) -> tuple[AbstractBaseUser, Player]:
    """Create an account that adopts the browser's player, so its history and streak carry over
    (SPEC §3); a browser without a player, or whose player has an account, gets a fresh one.

    ApiError ``invalid_username``, ``invalid_password`` (Django's password validators), or
    ``username_taken`` for a username held in any letter case.
    """
    User = get_user_model()
    username = account_username_clean(username)
    try:
        validate_password(password, user=User(**{User.USERNAME_FIELD: username}))
    except ValidationError as error:
        raise ApiError("invalid_password", " ".join(error.messages)) from None
    taken = ApiError(
        "username_taken", f"The username {username!r} is taken; please choose another."
    )
    # Usernames differing only in case would be told apart by no one who types them.
    if User._default_manager.filter(**{f"{User.USERNAME_FIELD}__iexact": username}).exists():
        raise taken
    with transaction.atomic():
        try:
            with transaction.atomic():
                user = User._default_manager.create_user(
                    **{User.USERNAME_FIELD: username}, password=password
                )
        except IntegrityError:
            raise taken from None
        return user, account_player(user=user, player=player, now=now)


def account_player(
    *, user: AbstractBaseUser, player: Player | None, now: datetime.datetime
) -> Player:
    """The account's player: its own, else the browser's player if no account holds it yet, else
    a new one."""
    own = Player.objects.filter(user=user).first()
    if own is not None:
        own.user = user
        return own
    # Conditional update: of two tabs signing up at once, only one adopts the guest.
    if (
        player is not None
        and Player.objects.filter(pk=player.pk, user__isnull=True).update(user=user) == 1
    ):
        player.user = user
        return player
    return player_create(now=now, user=user)


def account_username_resolve(username: str) -> str:
    """The stored username a login means: the exact one, else the only one equal in any case."""
    User = get_user_model()
    username = User.normalize_username(username)
    field = f"{User.USERNAME_FIELD}__iexact"
    found = list(
        User._default_manager.filter(**{field: username}).values_list(
            User.USERNAME_FIELD, flat=True
        )[:2]
    )
    if username in found or len(found) != 1:
        return username
    return found[0]
