"""Database helpers shared by the apps."""

from django.db import IntegrityError


def violated(error: IntegrityError, constraint: str) -> bool:
    """Whether an IntegrityError comes from this constraint (always assumed on SQLite, which does
    not name it), so that a handler for one constraint never swallows another."""
    diag = getattr(error.__cause__, "diag", None)
    name = getattr(diag, "constraint_name", None)
    return name is None or name == constraint
