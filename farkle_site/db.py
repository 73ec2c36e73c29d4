"""Database helpers shared by the apps."""

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, TypeVar

from django.db import IntegrityError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model

_M = TypeVar("_M", bound=Model)


def violated(error: IntegrityError, constraint: str) -> bool:
    """Whether an IntegrityError comes from this constraint (always assumed on SQLite, which does
    not name it), so that a handler for one constraint never swallows another."""
    diag = getattr(error.__cause__, "diag", None)
    name = getattr(diag, "constraint_name", None)
    return name is None or name == constraint


def statement_cursor(connection: BaseDatabaseWrapper) -> AbstractContextManager[Any]:
    """A cursor for one statement whose results are read before any other statement runs on it:
    the connection's kept cursor where its backend keeps one (``farkle_site/postgres``), a new
    cursor closed at the end of the block elsewhere (SQLite)."""
    kept = getattr(connection, "statement_cursor", None)
    return connection.cursor() if kept is None else kept()


def model_copy(instance: _M) -> _M:
    """A shallow copy of a model instance, the one ``copy.copy`` makes (Django's
    ``Model.__getstate__``: the fields shared, the instance's state and its cache of related rows
    copied), without the pickling protocol's round trip: ``Model.__reduce__``, ``__getstate__``
    and ``__setstate__`` cost 4 % of a game action (two copies of the remembered row) and about
    as much of a leaderboard read (the process's copy of the daily, issue 15). For models
    without binary fields, whose memoryviews ``__getstate__`` turns into bytes."""
    state = instance._state
    copied_state = object.__new__(type(state))
    copied_state.__dict__.update(state.__dict__)
    if "fields_cache" in state.__dict__:
        copied_state.fields_cache = state.fields_cache.copy()
    copied = object.__new__(type(instance))
    copied.__dict__.update(instance.__dict__)
    copied._state = copied_state
    return copied


class ModelColumns:
    """A model's columns in hand-written SQL, and its instances built from such rows exactly as
    the ORM builds them (same per-backend converters, ``Model.from_db``).

    For the hottest statements only (a game action, issue 15): compiling a queryset costs several
    times what Postgres then spends answering it. The column list follows the model, so a field
    added by a migration is read here too.
    """

    def __init__(self, model: type[Model], alias: str, names: Sequence[str] = ()) -> None:
        self.model = model
        self.alias = alias
        # Every column, or only the fields named.
        meta = model._meta
        self.fields = [meta.get_field(name) for name in names] or meta.concrete_fields
        self.attnames = [field.attname for field in self.fields]
        self._converters: dict[str, list[tuple[Any, list]]] = {}

    def select(self, connection: BaseDatabaseWrapper) -> str:
        """``alias."column", …`` for a SELECT list."""
        quote = connection.ops.quote_name
        return ", ".join(f"{self.alias}.{quote(field.column)}" for field in self.fields)

    def build(self, connection: BaseDatabaseWrapper, values: Sequence[Any]) -> Model:
        """The instance a row's values (in ``select``'s order) stand for."""
        return self.model.from_db(connection.alias, self.attnames, self.convert(connection, values))

    def convert(self, connection: BaseDatabaseWrapper, values: Sequence[Any]) -> list[Any]:
        """A row's values (in ``select``'s order) as the fields' Python values."""
        converters = self._converters.get(connection.vendor)
        if converters is None:
            converters = self._converters[connection.vendor] = [
                (
                    column,
                    connection.ops.get_db_converters(column) + field.get_db_converters(connection),
                )
                for field in self.fields
                for column in [field.get_col(self.alias)]
            ]
        converted = []
        for value, (column, field_converters) in zip(values, converters, strict=True):
            for converter in field_converters:
                value = converter(value, column, connection)
            converted.append(value)
        return converted
