"""DRF plumbing every endpoint shares: CSRF for every browser session, a bounded JSON parser,
and throttles keyed by player or address. (Kept apart from ``farkle_site.errors``: DRF imports
these classes while ``rest_framework.views`` is still loading.)"""

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


class BoundedJSONParser(JSONParser):
    """JSON only, refusing bodies larger than any real request before reading them, and bodies
    nested deeper than any real request."""

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
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            # Python's json recurses once per level: a 2 KB body of brackets exhausts the stack.
            raise exceptions.ParseError("The JSON is nested too deeply.") from None
        if _depth_exceeds(data, API_MAX_JSON_DEPTH):
            raise exceptions.ParseError("The JSON is nested too deeply.")
        return data


class ScopedPlayerThrottle(SimpleRateThrottle):
    """Rate limit by the view's ``throttle_scope``, per player when the browser has one.

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
        hit = ratelimit.hit(self.key, self.duration, now=self.timer())
        self.window_left = hit.window_left
        return hit.count <= self.num_requests

    def wait(self) -> float:
        return self.window_left

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


class ScopedAddressThrottle(ScopedPlayerThrottle):
    """Rate limit per client address (behind NUM_PROXIES), whoever the player, by the view's
    ``address_throttle_scope`` (or ``throttle_scope`` when the view throttles only by address)."""

    def scope_for(self, view):
        if hasattr(view, "address_throttle_scope"):
            return view.address_throttle_scope
        return getattr(view, "throttle_scope", None)

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": client_address(request)}
