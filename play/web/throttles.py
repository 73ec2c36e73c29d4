"""Throttles that need to know the session's player."""

from __future__ import annotations

from farkle_site.drf import ScopedAddressThrottle
from play.web.session import session_player


class NewGuestThrottle(ScopedAddressThrottle):
    """Rate limit per address the games started by browsers without a player yet: each new guest
    gets an official attempt, so minting guests to see the dice first costs time (scope
    ``guest_start``)."""

    def counter(self, request, view):
        if session_player(request) is not None:
            return None
        self.scope = "guest_start"
        return self._counter(request, view)
