"""Short codes of friend challenges: six characters of Crockford base-32 (docs/play.md)."""

from __future__ import annotations

import secrets

# Crockford's base-32: digits and letters without I, L, O and U.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 6
# Read forgivingly, as Crockford intends: O is a zero, I and L are ones.
_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})
_IGNORED = str.maketrans("", "", " -\t")


class InvalidCode(ValueError):
    """Text that cannot be a challenge code."""


def code_generate() -> str:
    """A random code (never sequential, so codes cannot be walked)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def code_normalise(text: str) -> str:
    """The canonical code of what a player typed: ``k7m 2qx`` and ``K7M-2QX`` are ``K7M2QX``."""
    code = text.upper().translate(_IGNORED).translate(_READ_AS)
    if len(code) != LENGTH or any(c not in ALPHABET for c in code):
        raise InvalidCode(f"A code is {LENGTH} characters of 0-9 and A-Z (no U), like K7M-2QX.")
    return code


def code_display(code: str) -> str:
    """The code grouped for reading aloud: ``K7M-2QX``."""
    return f"{code[:3]}-{code[3:]}"
