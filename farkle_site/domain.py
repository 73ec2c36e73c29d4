"""The refusals the domain raises (services, selectors, rules): a machine ``code``, a human
``message`` and plain values to show with it, such as ids and instants.

Nothing here knows HTTP: ``farkle_site.errors`` maps each kind to a status, in one place.
"""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """A refused request, told by its ``code`` (the README lists them) and a ``message``."""

    def __init__(self, code: str, message: str, **shown: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.shown = shown


class Invalid(DomainError):
    """The input breaks a rule: a name, a date, a page number, a table."""


class NotFound(DomainError):
    """No such puzzle, attempt or challenge (or not one the caller may see)."""


class Forbidden(DomainError):
    """The caller may not do this here: not a member, not the creator."""


class Conflict(DomainError):
    """The input is fine but the stored state refuses it now: closed, finished, stale, taken."""


class Unavailable(DomainError):
    """A transient refusal: the same request may succeed in a moment."""
