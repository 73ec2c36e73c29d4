"""The browser's player (its name and stats) and the optional accounts: sign up, log in, log out."""

from __future__ import annotations

import datetime
import hashlib
import secrets
import time
from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate, login, logout
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from farkle_site import ratelimit
from farkle_site.domain import Invalid, NotFound
from farkle_site.drf import ScopedAddressThrottle, ScopedPlayerThrottle, client_address
from farkle_site.fields import StrictCharField
from play.apis import schemas
from play.models import Player
from play.rules.days import day_of
from play.selectors.ratings import PlayerRating, RatedDay, player_rating
from play.selectors.stats import PlayerStats, player_stats
from play.services.players import account_player, account_signup, account_username_resolve
from play.web.session import session_bind, session_choose_name, session_player
from play.web.throttles import NewGuestThrottle

# Login without a backend to pick: the one that checks a username and password.
_PASSWORD_BACKEND = "django.contrib.auth.backends.ModelBackend"


class RenameInputSerializer(serializers.Serializer):
    # Trimming and every other rule belong to the name's own checks, with their own messages;
    # the length bound here only keeps absurd input out of them.
    name = StrictCharField(max_length=200, trim_whitespace=False, allow_blank=True)


class CredentialsInputSerializer(serializers.Serializer):
    username = StrictCharField(max_length=150)
    password = StrictCharField(max_length=1024, trim_whitespace=False)


def _parse(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _rated_day(rated: RatedDay) -> dict[str, Any]:
    return {
        "date": rated.day.isoformat(),
        "accuracy": round(rated.accuracy, 1),
        "rating": round(rated.rating, 1),
        "deviation": round(rated.deviation, 1),
    }


def rating_data(rating: PlayerRating) -> dict[str, Any]:
    """The skill rating as ``GET /api/me`` shows it: the latest with its likely range (two
    deviations either side, about 95 %), and the rated days."""
    current = rating.current
    return {
        "current": None
        if current is None
        else {
            **_rated_day(current),
            "low": round(current.rating - 2 * current.deviation, 1),
            "high": round(current.rating + 2 * current.deviation, 1),
        },
        "days": rating.days,
        "history": [_rated_day(rated) for rated in rating.history],
    }


def me_data(player: Player, stats: PlayerStats, rating: PlayerRating) -> dict[str, Any]:
    """The player as ``GET /api/me`` shows it to the browser it belongs to."""
    return {
        "name": player.display_name,
        "account": player.user.get_username() if player.user_id else None,
        "stats": {
            "games": stats.games,
            "finished": stats.finished,
            "best": stats.best,
            "average": stats.average,
            "current_streak": stats.current_streak,
            "best_streak": stats.best_streak,
            "last_played": stats.last_played.isoformat() if stats.last_played else None,
        },
        "history": [
            {
                "date": result.day.isoformat(),
                "attempt": result.attempt_id,
                "state": result.state,
                "score": result.score,
                "finished_at": (
                    result.finished_at.isoformat().replace("+00:00", "Z")
                    if result.finished_at
                    else None
                ),
                "rank": result.rank,
                "percentile": result.percentile,
            }
            for result in stats.history
        ],
        "rating": rating_data(rating),
    }


def _me_response(
    player: Player, now: datetime.datetime, *, status_code: int = status.HTTP_200_OK
) -> Response:
    stats = player_stats(player=player, today=day_of(now))
    rating = player_rating(player=player)
    return Response(me_data(player, stats, rating), status=status_code)


_ERRORS = {400: schemas.ErrorSerializer}


class MeApi(APIView):
    throttle_scope = "account"
    # A malformed name field is refused as a name (the API's codes), whatever is wrong with it.
    field_error_codes = {"name": "invalid_name"}

    def get_throttles(self):
        # Reading is free; renaming (which may create a player) is limited like the accounts.
        # Naming a browser without a player creates one: a new guest, as a first game would.
        return (
            [ScopedPlayerThrottle(), NewGuestThrottle()] if self.request.method == "PATCH" else []
        )

    @extend_schema(
        responses={200: schemas.MeSerializer, 404: schemas.ErrorSerializer},
        summary="This browser's player: name, account, stats, recent dailies and skill rating",
    )
    def get(self, request: Request) -> Response:
        player = session_player(request)
        if player is None:
            raise NotFound(
                "not_found", "This browser has no player yet: start a game or choose a name."
            )
        return _me_response(player, timezone.now())

    @extend_schema(
        request=RenameInputSerializer,
        responses={200: schemas.MeSerializer, **_ERRORS, 409: schemas.ErrorSerializer},
        summary="Change the display name (a browser without a player gets one with this name)",
    )
    def patch(self, request: Request) -> Response:
        name = _parse(RenameInputSerializer, request)["name"]
        now = timezone.now()
        player = session_choose_name(request, name=name, now=now)
        return _me_response(player, now)


class SignupApi(APIView):
    throttle_classes = [ScopedAddressThrottle]
    throttle_scope = "account"
    field_error_codes = {"username": "invalid_username", "password": "invalid_password"}

    @extend_schema(
        request=CredentialsInputSerializer,
        responses={201: schemas.MeSerializer, **_ERRORS, 409: schemas.ErrorSerializer},
        summary="Create an account that adopts this browser's player, and log in",
    )
    def post(self, request: Request) -> Response:
        data = _parse(CredentialsInputSerializer, request)
        now = timezone.now()
        user, player = account_signup(
            username=data["username"],
            password=data["password"],
            player=session_player(request),
            now=now,
        )
        login(request, user, backend=_PASSWORD_BACKEND)
        session_bind(request, player)
        response = _me_response(player, now, status_code=status.HTTP_201_CREATED)
        # The browser that made the account is trusted for it by the login back-off.
        LoginDevice(request).remember(response, user.get_username())
        return response


def _digest(*parts: str) -> str:
    # Hashed: a username may hold any character, a cache key or a cookie may not.
    text = "\n".join(parts)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _account(username: str) -> str:
    return _digest("account", username.lower())


class LoginDevice:
    """This browser as the login back-off knows it (OWASP's "device cookie"): a signed cookie,
    set by a successful sign-up or login, that names the browser (a random id) and the accounts
    it has logged in to, the last ``DEVICE_ACCOUNTS``. Such a browser is trusted for those
    accounts: its failures count on a back-off of its own, so that nobody else's guesses, even
    from the same address, delay it. Nothing else rests on the cookie: the password is checked
    as always. The cookie is sent to the account endpoints alone, and kept at logout."""

    SALT = "farkle.login-device"
    DEVICE_ACCOUNTS = 5

    def __init__(self, request: Request) -> None:
        # A missing, altered or expired cookie reads as none (get_signed_cookie's default).
        value = request.get_signed_cookie(
            settings.LOGIN_DEVICE_COOKIE_NAME,
            default="",
            salt=self.SALT,
            max_age=settings.LOGIN_DEVICE_COOKIE_AGE,
        )
        device, _, accounts = value.partition(":")
        self.device = device or None
        self.accounts = [a for a in accounts.split(",") if a] if device else []

    def trusted_for(self, username: str) -> str | None:
        """The browser's id when it has logged in to this account before, else None."""
        return self.device if _account(username) in self.accounts else None

    def remember(self, response: Response, username: str) -> None:
        """Trust this browser for the account from now on (a successful sign-up or login)."""
        device = self.device or secrets.token_urlsafe(16)
        account = _account(username)
        accounts = [account, *(a for a in self.accounts if a != account)]
        response.set_signed_cookie(
            settings.LOGIN_DEVICE_COOKIE_NAME,
            f"{device}:{','.join(accounts[: self.DEVICE_ACCOUNTS])}",
            salt=self.SALT,
            max_age=settings.LOGIN_DEVICE_COOKIE_AGE,
            path="/api/auth/",
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )


class LoginBackoff:
    """Failed logins of one account from one place: the client's address, or a browser trusted
    for the account (``LoginDevice``). Past ``LOGIN_FAILURES_FREE`` of them, each further try
    from that place waits twice as long as the one before (1 s, 2 s, 4 s...), never more than
    ``LOGIN_BACKOFF_MAX``; tries refused while waiting are not counted. Someone guessing from
    one address slows their own address alone: the owner, from another address or from a
    browser that has logged in to the account before, gets in at once (issue 39)."""

    # Failures are forgotten a day after the first of them, or at the next successful login.
    MEMORY = 24 * 60 * 60

    def __init__(self, username: str, *, address: str, device: str | None = None) -> None:
        place = f"device {device}" if device is not None else f"address {address}"
        self.name = f"login:{_digest(_account(username), place)}"

    def check(self) -> None:
        """Refuse (429 ``throttled``) while this place's back-off on the account runs."""
        until = ratelimit.get(f"{self.name}:until")
        left = float(until) - time.time() if until is not None else 0.0
        if left > 0:
            raise exceptions.Throttled(wait=left)

    def failed(self) -> None:
        """Count a wrong password; past the free failures, start the next back-off."""
        failures = ratelimit.count(f"{self.name}:failures", self.MEMORY)
        beyond = failures - settings.LOGIN_FAILURES_FREE
        if beyond >= 0:
            wait = min(2.0 ** min(beyond, 30), settings.LOGIN_BACKOFF_MAX)
            ratelimit.put(f"{self.name}:until", str(time.time() + wait), wait)

    def succeeded(self) -> None:
        """A right password: this place's failures on the account are forgotten."""
        ratelimit.forget(f"{self.name}:failures", f"{self.name}:until")


class LoginApi(APIView):
    throttle_classes = [ScopedAddressThrottle]
    throttle_scope = "account"

    @extend_schema(
        request=CredentialsInputSerializer,
        responses={200: schemas.MeSerializer, **_ERRORS},
        summary="Log in: this browser plays as the account's player from now on",
    )
    def post(self, request: Request) -> Response:
        data = _parse(CredentialsInputSerializer, request)
        username = account_username_resolve(data["username"])
        browser = LoginDevice(request)
        backoff = LoginBackoff(
            username, address=client_address(request), device=browser.trusted_for(username)
        )
        backoff.check()
        user = authenticate(request, username=username, password=data["password"])
        if user is None:
            backoff.failed()
            # One answer for an unknown user, a wrong password and a disabled account.
            raise Invalid("invalid_credentials", "Wrong username or password.")
        backoff.succeeded()
        now = timezone.now()
        guest = session_player(request)
        player = account_player(user=user, player=guest, now=now)
        login(request, user)
        session_bind(request, player)
        response = _me_response(player, now)
        browser.remember(response, user.get_username())
        return response


class LogoutApi(APIView):
    @extend_schema(
        request=None,
        responses={204: None},
        summary="Log out: this browser forgets the account and its player",
    )
    def post(self, request: Request) -> Response:
        player = session_player(request)
        # A guest without an account is kept: nothing could bring its history back.
        if request.user.is_authenticated or (player is not None and player.user_id):
            logout(request)
        return Response(status=status.HTTP_204_NO_CONTENT)
