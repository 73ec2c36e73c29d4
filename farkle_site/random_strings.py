"""Random strings of an alphabet, drawn in one read of the system's random source (issue 15).

Django draws its session keys and CSRF secrets a character at a time (``get_random_string``: one
``secrets.choice`` a character, each at least one ``os.urandom`` read). A fresh browser gets
both, so about a hundred reads in the midnight rush's two requests, each also releasing the GIL
to the worker's other threads. Here a string is one read, with the same uniform characters.
"""

from __future__ import annotations

import os


def random_string(alphabet: str, length: int) -> str:
    """``length`` characters of ``alphabet`` (at most 256 of them), each drawn uniformly."""
    # Of a byte's 256 values the first ``usable`` stand for the characters, each for as many
    # (248 = 4 × 62 for a CSRF secret, 252 = 7 × 36 for a session key); the others are passed
    # over, so no character is likelier than another.
    size = len(alphabet)
    usable = 256 - 256 % size
    chars: list[str] = []
    while len(chars) < length:
        # Twelve bytes over: for a 62-character alphabet, fewer than 32 usable among 44 (13 or
        # more passed over, each 1 in 32) happens about once in 1.8 billion draws, and then
        # another read follows.
        chars += [alphabet[b % size] for b in os.urandom(length + 12) if b < usable]
    return "".join(chars[:length])
