"""A fresh browser's CSRF cookie, drawn in one read of the system's random source (issue 15).

Django draws a CSRF secret one character at a time (``get_random_string``: 32 calls of
``secrets.choice``, each its own ``os.urandom`` read), and ``get_token`` then draws a mask of 32
more characters the same way for the masked token it returns: 64 reads for the first answer a
fresh browser gets, the first request of the midnight rush. Each read releases the GIL, so on a
busy gthread worker each can hand the interpreter to another thread and wait to take it back
(measured here: 0.4 µs a read alone, 130 µs beside one busy thread), and in one thread the 64
reads are about a sixth of that answer's CPU. Today's daily only needs the cookie set, not a
token to render, so it draws no mask, and the secret comes from one read.
"""

from __future__ import annotations

import os

from django.http import HttpRequest
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH

# 248 = 4 × 62 of a byte's 256 values stand for the 62 characters, each for four of them; the 8
# others are passed over, so every character is as likely as with Django's draw.
_USABLE = 256 - 256 % len(CSRF_ALLOWED_CHARS)
# A few bytes more than a secret's length: fewer than 32 usable among 40 bytes (9 or more passed
# over, each 1 in 32) happens about once in ten million draws, and then a second read follows.
_READ = CSRF_SECRET_LENGTH + 8


def csrf_secret_new() -> str:
    """A new CSRF secret: 32 characters of Django's alphabet, each drawn uniformly."""
    chars: list[str] = []
    while len(chars) < CSRF_SECRET_LENGTH:
        chars += [
            CSRF_ALLOWED_CHARS[b % len(CSRF_ALLOWED_CHARS)]
            for b in os.urandom(_READ)
            if b < _USABLE
        ]
    return "".join(chars[:CSRF_SECRET_LENGTH])


def csrf_cookie_ensure(request: HttpRequest) -> None:
    """What ``django.middleware.csrf.get_token`` does to the request, for a view that needs the
    cookie and no token: Django's CSRF middleware sets (or renews) the cookie as the answer
    leaves. The request's ``META`` carries the secret as Django's own ``get_token`` leaves it (a
    test holds the two alike)."""
    if "CSRF_COOKIE" in request.META:
        request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
    else:
        request.META.update(CSRF_COOKIE=csrf_secret_new(), CSRF_COOKIE_NEEDS_UPDATE=True)
