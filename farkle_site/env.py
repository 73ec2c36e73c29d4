"""Read settings from environment variables, refusing values that do not parse."""

import datetime
import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


def env_str(name: str, default: str | None = None) -> str | None:
    """Return the variable's value; an unset or empty variable gives `default`."""
    value = os.environ.get(name, "")
    return value if value != "" else default


def env_bool(name: str, default: bool) -> bool:
    """Return the variable as a boolean: 1/true/yes/on or 0/false/no/off, any case."""
    value = env_str(name)
    if value is None:
        return default
    normalized = value.strip().lower()
    if normalized in _TRUE:
        return True
    if normalized in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean; use one of 1, true, yes, on, 0, false, no, off."
    )


def env_int(name: str, default: int) -> int:
    """Return the variable as an integer."""
    value = env_str(name)
    if value is None:
        return default
    try:
        return int(value.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer.") from None


def env_list(name: str, default: list[str]) -> list[str]:
    """Return the variable as a comma-separated list, items trimmed, empty items refused."""
    value = env_str(name)
    if value is None:
        return list(default)
    items = [item.strip() for item in value.split(",")]
    if any(item == "" for item in items):
        raise ImproperlyConfigured(f"{name}={value!r} has an empty item; separate items by commas.")
    return items


def env_date(name: str, default: str) -> datetime.date:
    """Return the variable as an ISO date (YYYY-MM-DD)."""
    value = env_str(name, default)
    try:
        return datetime.date.fromisoformat(value.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a date (YYYY-MM-DD).") from None
