"""Short codes of friend challenges: six characters of Crockford base-32 (docs/play.md)."""

from __future__ import annotations

from farkle_site.codes import (
    ALPHABET,
    CHALLENGE_LENGTH,
    InvalidCode,
    crockford_display,
    crockford_generate,
    crockford_pattern,
    crockford_read,
)

__all__ = [
    "PATTERN",
    "ALPHABET",
    "LENGTH",
    "InvalidCode",
    "code_display",
    "code_generate",
    "code_normalise",
]

LENGTH = CHALLENGE_LENGTH
# The canonical code, as the OpenAPI schema describes it.
PATTERN = crockford_pattern(LENGTH)


def code_generate() -> str:
    """A random code (never sequential, so codes cannot be walked)."""
    return crockford_generate(LENGTH)


def code_normalise(text: str) -> str:
    """The canonical code of what a player typed: ``k7m 2qx`` and ``K7M-2QX`` are ``K7M2QX``."""
    return crockford_read(text, length=LENGTH, example="K7M-2QX")


code_display = crockford_display
