"""Writes of players: guests, display names, and the accounts that adopt players
(docs/play.md)."""

from __future__ import annotations

import datetime
import secrets
import uuid

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from farkle_site.db import one_or_none, violated
from farkle_site.domain import Conflict, Invalid, Unavailable
from play.models import Player
from play.rules.names import display_name_clean

_ADJECTIVES = (
    "Agile", "Amber", "Ample", "Apt", "Ardent", "Azure", "Balmy", "Blithe", "Bold", "Brave",
    "Breezy", "Bright", "Brisk", "Bubbly", "Buoyant", "Calm", "Candid", "Cheery", "Chipper",
    "Civil", "Clever", "Cosmic", "Cozy", "Crafty", "Crisp", "Curious", "Dapper", "Daring",
    "Dashing",
    "Deft", "Eager", "Earnest", "Easy", "Elated", "Epic", "Fair", "Fancy", "Fearless", "Feisty",
    "Fleet", "Fond", "Frank", "Free", "Fresh", "Friendly", "Frosty", "Gallant", "Gentle", "Giddy",
    "Glad", "Golden", "Grand", "Happy", "Hardy", "Hearty", "Honest", "Humble", "Jaunty", "Jolly",
    "Jovial", "Keen", "Kind", "Lively", "Loyal", "Lucky", "Lunar", "Mellow", "Merry", "Mighty",
    "Mild", "Modest", "Nimble", "Noble", "Peppy", "Perky", "Placid", "Plucky", "Polite", "Proud",
    "Quick", "Quiet", "Radiant", "Rapid", "Rosy", "Rustic", "Sage", "Serene", "Sharp", "Shiny",
    "Silver", "Sincere", "Sleek", "Snappy", "Snug", "Solar", "Spry", "Stellar", "Steady", "Stout",
    "Sturdy", "Sunny", "Swift", "Tidy", "Trusty", "Upbeat", "Valiant", "Vivid", "Warm", "Wily",
    "Wise", "Witty", "Zany", "Zesty",
)  # fmt: skip
_ANIMALS = (
    "Albatross", "Alpaca", "Antelope", "Badger", "Beaver", "Bison", "Bobcat", "Buffalo", "Camel",
    "Caribou", "Cheetah", "Chipmunk", "Condor", "Corgi", "Cougar", "Coyote", "Crane", "Cricket",
    "Dingo", "Dolphin", "Donkey", "Dormouse", "Eagle", "Egret", "Elk", "Emu", "Falcon", "Ferret",
    "Finch", "Flamingo", "Fox", "Gazelle", "Gecko", "Gibbon", "Giraffe", "Goose", "Gopher",
    "Gorilla", "Grouse", "Hamster", "Hare", "Hedgehog", "Heron", "Hippo", "Ibex", "Ibis", "Iguana",
    "Impala", "Jackal", "Jaguar", "Kestrel", "Kiwi", "Koala", "Lemur", "Leopard", "Lion", "Llama",
    "Lobster", "Lynx", "Magpie", "Mallard", "Manatee", "Marmot", "Marten", "Meerkat", "Moth",
    "Mole", "Moose", "Narwhal", "Newt", "Ocelot", "Octopus", "Okapi", "Orca", "Osprey", "Ostrich",
    "Otter", "Owl", "Panda", "Panther", "Parrot", "Pelican", "Penguin", "Pika", "Plover", "Puffin",
    "Quail", "Quokka", "Rabbit", "Raccoon", "Raven", "Reindeer", "Robin", "Salmon", "Seal",
    "Sparrow", "Squirrel", "Stoat", "Stork", "Swan", "Tapir", "Tiger", "Toucan", "Turtle",
    "Walrus", "Weasel", "Wombat", "Wren", "Yak", "Zebra",
)  # fmt: skip
# Names are drawn at random: once the space is crowded, draws collide more often, so the space
# (adjectives × animals × 1–99, over a million names) is far larger than any player count we
# plan for, and a crowded draw falls back to a double adjective rather than failing.
_DRAWS = 20
_NAME_CONSTRAINT = "player_display_name_unique_ci"


def display_name_generate(*, crowded: bool = False) -> str:
    """A friendly random name such as "Brave Badger 42" (at most 24 characters)."""
    number = secrets.randbelow(99) + 1
    animal = secrets.choice(_ANIMALS)
    adjectives = [secrets.choice(_ADJECTIVES)]
    if crowded:
        adjectives.append(secrets.choice(_ADJECTIVES))
    name = f"{' '.join(adjectives)} {animal} {number}"
    try:
        # Two innocent words can meet into a refused one ("Glad Mink" holds "admin").
        return display_name_clean(name)
    except Invalid:
        return display_name_generate(crowded=crowded)


def player_create(
    *,
    now: datetime.datetime,
    display_name: str | None = None,
    user: AbstractBaseUser | None = None,
    browser_id: uuid.UUID | None = None,
) -> Player:
    """A new player named ``display_name`` (already clean; a refusal ``name_taken`` when held), or
    with a generated name that no one else holds: the one way a player, a guest included, is
    created. An IntegrityError when another player has ``browser_id`` already."""
    fields = {"user": user, "browser_id": browser_id, "created_at": now}
    named = display_name is not None
    for draw in range(1 if named else _DRAWS * 2):
        name = display_name if named else display_name_generate(crowded=draw >= _DRAWS)
        try:
            with transaction.atomic():
                return Player.objects.create(display_name=name, **fields)
        except IntegrityError as error:
            # SQLite names no constraint: the browser's player is then looked for.
            if not violated(error, _NAME_CONSTRAINT) or (
                browser_id is not None and Player.objects.filter(browser_id=browser_id).exists()
            ):
                raise
            if named:
                raise _name_taken(display_name) from None
    raise Unavailable("busy", "No free player name could be drawn; please try again.")


def _name_taken(name: str) -> Conflict:
    return Conflict("name_taken", f"The name “{name}” is taken; please choose another.")


def player_rename(*, player: Player, name: str) -> Player:
    """Give the player a new display name under docs/play.md's rules (a refusal ``invalid_name`` or
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


def player_for_browser(
    *,
    user: AbstractBaseUser | None,
    browser_id: uuid.UUID | None,
    now: datetime.datetime,
    display_name: str | None = None,
) -> Player:
    """The player of an account (``user``) or of a guest browser (``browser_id``), created
    (named ``display_name``, already clean, or with a generated name) when it has none.

    Two first requests of one browser (a double click) carry the same browser id and find the
    same guest: the unique ``browser_id`` decides which of them creates it.

    A guest is inserted first and read only when its browser has one already: this is called
    for a browser whose session names no player, nearly always a fresh browser (the midnight
    rush), whose guest a read beforehand would never find.
    """
    if user is not None and user.is_authenticated:
        player = one_or_none(Player.objects.filter(user=user))
        if player is not None:
            return player
        # An account whose player was removed gets a new one, still its own.
        return player_create(now=now, user=user, display_name=display_name)
    try:
        return player_create(now=now, browser_id=browser_id, display_name=display_name)
    except IntegrityError:
        # This browser has its guest already (made by its other first request, a double click,
        # or before its session was lost): the unique browser id refused a second one.
        if browser_id is None:
            raise
        return Player.objects.get(browser_id=browser_id)


def account_username_clean(username: str) -> str:
    """The username as Django auth stores it (NFKC), or a refusal ``invalid_username``."""
    User = get_user_model()
    username = User.normalize_username(username)
    field = User._meta.get_field(User.USERNAME_FIELD)
    try:
        field.run_validators(username)
        field.validate(username, None)
    except ValidationError as error:
        raise Invalid("invalid_username", " ".join(error.messages)) from None
    return username


def account_signup(
    *, username: str, password: str, player: Player | None, now: datetime.datetime
) -> tuple[AbstractBaseUser, Player]:
    """Create an account that adopts the browser's player, so its history and streak carry over
    (docs/play.md); a browser without a player, or whose player has an account, gets a fresh one.

    a refusal ``invalid_username``, ``invalid_password`` (Django's password validators), or
    ``username_taken`` for a username held in any letter case.
    """
    User = get_user_model()
    username = account_username_clean(username)
    try:
        validate_password(password, user=User(**{User.USERNAME_FIELD: username}))
    except ValidationError as error:
        raise Invalid("invalid_password", " ".join(error.messages)) from None
    taken = Conflict(
        "username_taken", f"The username “{username}” is taken; please choose another."
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
    own = one_or_none(Player.objects.filter(user=user))
    if own is not None:
        own.user = user
        return own
    # Conditional update: of two tabs signing up at once, only one adopts the guest. The browser
    # id goes: from now on the account, not the browser, finds this player.
    if (
        player is not None
        and Player.objects.filter(pk=player.pk, user__isnull=True).update(
            user=user, browser_id=None
        )
        == 1
    ):
        player.user = user
        player.browser_id = None
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
