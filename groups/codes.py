"""Group codes: seven characters of Crockford base-32, one more than a challenge's six, so a
code of one kind can never be read as the other (docs/play.md)."""

from __future__ import annotations

from farkle_site.codes import (
    GROUP_LENGTH,
    InvalidCode,
    crockford_display,
    crockford_generate,
    crockford_pattern,
    crockford_read,
)

__all__ = ["PATTERN", "LENGTH", "InvalidCode", "code_display", "code_generate", "code_normalise"]

LENGTH = GROUP_LENGTH
# The canonical code, as the OpenAPI schema describes it.
PATTERN = crockford_pattern(LENGTH)
EXAMPLE = "G7K-4M2Q"


def code_generate() -> str:
    """A random group code."""
    return crockford_generate(LENGTH)


def code_normalise(text: str) -> str:
    """The canonical group code of what a player typed: ``g7k 4m2q`` is ``G7K4M2Q``."""
    return crockford_read(text, length=LENGTH, example=EXAMPLE)


code_display = crockford_display
