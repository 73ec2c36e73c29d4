"""Short codes in Crockford base-32, read forgivingly: shared by challenge and group codes."""

from __future__ import annotations

import secrets

# The two kinds differ in length, so a code of one kind is never read as the other's, and a page
# that is given the other kind's code can say so (docs/play.md).
CHALLENGE_LENGTH = 6
GROUP_LENGTH = 7

# Crockford's base-32: digits and letters without I, L, O and U.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
# Read forgivingly, as Crockford intends: O is a zero, I and L are ones.
_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})
_IGNORED = str.maketrans("", "", " -\t")


class InvalidCode(ValueError):
    """Text that cannot be a code of the expected length."""


def crockford_generate(length: int) -> str:
    """A random code (never sequential, so codes cannot be walked)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def crockford_display(code: str) -> str:
    """A code grouped for reading aloud: ``K7M-2QX``, ``G7K-4M2Q``."""
    return f"{code[:3]}-{code[3:]}"


def crockford_pattern(length: int) -> str:
    """The canonical code as a regular expression (for the OpenAPI schema): what
    ``crockford_read`` returns, not all it reads."""
    return f"^[{ALPHABET}]{{{length}}}$"


def crockford_read_as(text: str, *, length: int) -> str | None:
    """The canonical code of ``length`` characters ``text`` reads as, or None: how a form given
    the other kind's code recognises it."""
    try:
        return crockford_read(text, length=length, example="")
    except InvalidCode:
        return None


def crockford_read(text: str, *, length: int, example: str) -> str:
    """The canonical code of what a player typed: any case, spaces and dashes, O for 0, I or L
    for 1; ``InvalidCode`` (its message citing ``example``) unless ``length`` characters remain."""
    code = text.upper().translate(_IGNORED).translate(_READ_AS)
    if len(code) != length or any(c not in ALPHABET for c in code):
        raise InvalidCode(f"A code is {length} characters of 0-9 and A-Z (no U), like {example}.")
    return code
