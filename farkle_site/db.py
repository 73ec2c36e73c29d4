"""Database helpers shared by the apps."""

from typing import TypeVar

from django.db import IntegrityError
from django.db.models import Model, QuerySet

M = TypeVar("M", bound=Model)


def one_or_none(rows: QuerySet[M]) -> M | None:
    """The one row ``rows`` selects, or None: ``get()``, which asks for the row as it is, where
    ``first()`` would add an ``ORDER BY`` the database sorts by (and the ORM compiles) for a row
    that is unique anyway. For lookups by a unique key only: two rows raise
    ``MultipleObjectsReturned``."""
    try:
        return rows.get()
    except rows.model.DoesNotExist:
        return None


def violated(error: IntegrityError, constraint: str) -> bool:
    """Whether an IntegrityError comes from this constraint (always assumed on SQLite, which does
    not name it), so that a handler for one constraint never swallows another."""
    diag = getattr(error.__cause__, "diag", None)
    name = getattr(diag, "constraint_name", None)
    return name is None or name == constraint
