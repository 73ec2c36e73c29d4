"""Django's cached_db sessions, created with three round trips fewer.

A fresh browser's first game creates its session (docs/performance.md, the midnight rush). Django's
``cached_db`` store first probes whether a random key is taken (a Redis ``EXISTS`` and a
``SELECT``), then inserts the row inside a transaction (``BEGIN``, ``INSERT``, ``COMMIT``), and
writes the cache twice. The probe cannot find anything a forced ``INSERT`` would not: a key is 32
characters of 36 (about 165 bits), and a taken one still fails the primary key, which raises
``CreateError`` and makes ``create`` draw again, as Django's own loop does. A single statement
needs no transaction of its own outside one (inside one, Django's savepoint is kept, so a failed
insert does not spoil the caller's transaction).
"""

from __future__ import annotations

import logging

from django.contrib.sessions.backends.base import VALID_KEY_CHARS, CreateError, UpdateError
from django.contrib.sessions.backends.cached_db import SessionStore as CachedDbStore
from django.db import DatabaseError, IntegrityError, connections, router
from django.utils.crypto import get_random_string

logger = logging.getLogger("django.contrib.sessions")


class SessionStore(CachedDbStore):
    """``cached_db`` sessions: read from the cache, written through to the database."""

    def _get_new_session_key(self) -> str:
        # No probe: the forced INSERT is the check (see the module's docstring).
        return get_random_string(32, VALID_KEY_CHARS)

    def save(self, must_create: bool = False) -> None:
        if self.session_key is None:
            # ``create`` saves with ``must_create`` and caches the session once.
            return self.create()
        data = self._get_session(no_load=must_create)
        obj = self.create_model_instance(data)
        using = router.db_for_write(self.model, instance=obj)
        if connections[using].in_atomic_block:
            # The caller's transaction: Django's way, with its savepoint.
            super().save(must_create)
            return None
        try:
            obj.save(force_insert=must_create, force_update=not must_create, using=using)
        except IntegrityError:
            if must_create:
                raise CreateError from None
            raise
        except DatabaseError:
            if not must_create:
                raise UpdateError from None
            raise
        try:
            self._cache.set(self.cache_key, self._session, self.get_expiry_age())
        except Exception:
            logger.exception("Error saving to cache (%s)", self._cache)
        return None
