"""Throttles that need to know the session's player."""

from __future__ import annotations

from farkle_site.drf import ScopedAddressThrottle
from play.web.session import session_player


class NewGuestThrottle(ScopedAddressThrottle):
    """Rate limit per address the games started by browsers without a player yet: each new guest
    gets an official attempt, so minting guests to see the dice first costs time (scope
    ``guest_start``)."""

    def scope_for(self, view):
        return "guest_start"

    def get_cache_key(self, request, view):
        # A browser with its player is not minting one: not counted.
        if session_player(request) is not None:
            return None
        return super().get_cache_key(request, view)
