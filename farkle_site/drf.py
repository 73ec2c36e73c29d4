"""DRF plumbing every endpoint shares: CSRF for every browser session, a bounded JSON parser,
and throttles keyed by player or address. (Kept apart from ``farkle_site.errors``: DRF imports
these classes while ``rest_framework.views`` is still loading.)"""

import json
import math
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from rest_framework import exceptions
from rest_framework.authentication import SessionAuthentication
from rest_framework.parsers import JSONParser
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

from farkle_site import ratelimit


def client_address(request) -> str:
    """The client's address, the one way the site reads it (the throttles, the login back-off):
    ``REMOTE_ADDR``, or with ``NUM_PROXIES`` trusted proxies the matching entry of
    ``X-Forwarded-For`` (DRF's rule for its throttles, ``BaseThrottle.get_ident``)."""
    return BaseThrottle().get_ident(request)


class CsrfSessionAuthentication(SessionAuthentication):
    """Session authentication that checks CSRF on every unsafe request, users or guests.

    DRF's session authentication checks CSRF only for logged-in users, but a guest's session
    holds a player too: a cross-site form must not be able to act for it.
    """

    def authenticate(self, request):
        # DRF's own check for a logged-in user; the same check (``enforce_csrf``) for a guest.
        authenticated = super().authenticate(request)
        if authenticated is None:
            self.enforce_csrf(request)
        return authenticated


# No request of the API nests deeper than an action's list of dice (2 levels).
API_MAX_JSON_DEPTH = 32


def _depth_exceeds(value: Any, limit: int) -> bool:
    """Whether parsed JSON nests deeper than ``limit`` (iterative: deep input cannot recurse)."""
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            pending.extend((child, depth + 1) for child in children)
    return False


# No number of any request has more digits than a 64-bit id; Python's int() refuses literals of
# more than 4,300 digits with a message about its own settings, which a client must never read.
API_MAX_INTEGER_DIGITS = 20


class _TooLongNumber(ValueError):
    """An integer literal with more digits than any request has."""


def _bounded_int(literal: str) -> int:
    if len(literal.lstrip("-")) > API_MAX_INTEGER_DIGITS:
        raise _TooLongNumber
    return int(literal)


def _no_constant(name: str) -> None:
    # NaN, Infinity and -Infinity are not JSON, though Python's json reads them.
    raise exceptions.ParseError(f"JSON parse error - {name} is not a JSON number.")


class BoundedJSONParser(JSONParser):
    """JSON only, refusing bodies larger than any real request before reading them, bodies nested
    deeper than any real request, and numbers longer than any real request's; every refusal
    speaks of the request (DRF's own parser would pass Python's messages on)."""

    def parse(self, stream, media_type=None, parser_context=None):
        request = (parser_context or {}).get("request")
        length = request.META.get("CONTENT_LENGTH") if request is not None else None
        try:
            too_large = int(length or 0) > settings.API_MAX_BODY_BYTES
        except ValueError:
            too_large = True
        if too_large:
            raise exceptions.ParseError(
                f"The request body is larger than {settings.API_MAX_BODY_BYTES} bytes."
            )
        # The request's charset (Django keeps only one Python knows), UTF-8 by default.
        encoding = (parser_context or {}).get("encoding") or settings.DEFAULT_CHARSET
        try:
            text = stream.read().decode(encoding)
        except UnicodeDecodeError:
            raise exceptions.ParseError(f"The request body is not valid {encoding} text.") from None
        try:
            data = json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant)
        except _TooLongNumber:
            raise exceptions.ParseError(
                f"A number in the body has more than {API_MAX_INTEGER_DIGITS} digits: "
                "it is too large for any field."
            ) from None
        except json.JSONDecodeError as error:
            # Its message names the place in the body, as "Expecting value: line 1 column 9".
            raise exceptions.ParseError(f"JSON parse error - {error}") from None
        except RecursionError:
            # Python's json recurses once per level: a 2 KB body of brackets exhausts the stack.
            raise exceptions.ParseError("The JSON is nested too deeply.") from None
        if _depth_exceeds(data, API_MAX_JSON_DEPTH):
            raise exceptions.ParseError("The JSON is nested too deeply.")
        return data


# The request's attribute that holds the hits it was counted for before its browser had a player.
_NEW_PLAYER_HITS = "farkle_new_player_hits"


class ScopedPlayerThrottle(SimpleRateThrottle):
    """Rate limit by the view's ``throttle_scope``, per player when the browser has one.

    A browser without a player yet is counted by its address; and when its request then creates
    its player (``count_for_new_player``), that player starts with this request counted, so that
    a player gets the scope's number of requests from its very first one, not one more.

    DRF's throttles keep a history of timestamps, read and written back by each request, so two
    processes serving one client at once overwrite each other's hits; here a fixed window is
    counted atomically in the shared cache (``farkle_site.ratelimit``).
    """

    scope_attribute = "throttle_scope"

    def __init__(self):
        # The scope, hence the rate, is only known once the view is (as ScopedRateThrottle).
        pass

    def scope_for(self, view) -> str | None:
        """The scope this throttle counts the view's requests in (None: not throttled)."""
        return getattr(view, self.scope_attribute, None)

    def allow_request(self, request, view):
        self.scope = self.scope_for(view)
        if not self.scope:
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        now = self.timer()
        hit = ratelimit.hit(self.key, self.duration, now=now)
        self.window_left = hit.window_left
        if self.counts_for_new_player(request):
            pending = getattr(request, _NEW_PLAYER_HITS, [])
            setattr(request, _NEW_PLAYER_HITS, [*pending, (self.scope, self.duration, now)])
        return hit.count <= self.num_requests

    def counts_for_new_player(self, request) -> bool:
        """Whether this hit also counts for the player the request may create (a browser without
        a player yet)."""
        return request.session.get(settings.PLAYER_SESSION_KEY) is None

    def wait(self) -> int:
        # Whole seconds until the window ends (Retry-After), at least 1, at most the window.
        return max(1, min(self.duration, math.ceil(self.window_left)))

    def get_rate(self):
        # Read at each request, not once at import as DRF does, so the settings stay the truth.
        rates = api_settings.DEFAULT_THROTTLE_RATES
        if self.scope not in rates:
            raise ImproperlyConfigured(f"No throttle rate for the scope {self.scope!r}.")
        return rates[self.scope]

    def get_cache_key(self, request, view):
        player_id = request.session.get(settings.PLAYER_SESSION_KEY)
        ident = f"player-{player_id}" if player_id else f"address-{client_address(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


def count_for_new_player(request, player_id: int) -> None:
    """Count against a player just tied to the browser the hits its request was counted for by
    address (ScopedPlayerThrottle), each in the window it was counted in."""
    for scope, duration, now in getattr(request, _NEW_PLAYER_HITS, []):
        key = ScopedPlayerThrottle.cache_format % {"scope": scope, "ident": f"player-{player_id}"}
        ratelimit.hit(key, duration, now=now)
    setattr(request, _NEW_PLAYER_HITS, [])


class ScopedAddressThrottle(ScopedPlayerThrottle):
    """Rate limit per client address (behind NUM_PROXIES), whoever the player, by the view's
    ``address_throttle_scope`` (or ``throttle_scope`` when the view throttles only by address)."""

    def scope_for(self, view):
        if hasattr(view, "address_throttle_scope"):
            return view.address_throttle_scope
        return getattr(view, "throttle_scope", None)

    def counts_for_new_player(self, request) -> bool:
        return False

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": client_address(request)}


def page_throttle_wait(request, scope: str) -> int | None:
    """A page's hit on the per-address limit ``scope`` it shares with the API: None while the
    address is within it, else the whole seconds to wait before the window ends."""
    throttle = ScopedAddressThrottle()
    if throttle.allow_request(request, SimpleNamespace(throttle_scope=scope)):
        return None
    return throttle.wait()
