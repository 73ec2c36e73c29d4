"""A fresh browser's CSRF cookie, drawn in one read of the system's random source (issue 15).

Django draws a CSRF secret a character at a time (``get_random_string``: 32 calls of
``secrets.choice``, each at least one ``os.urandom`` read, about 33 on average), and
``get_token`` then draws a mask of 32 more characters the same way and ciphers the secret with
it, for a token the view does not use: 64 reads or more in the first answer a fresh browser
gets, the first request of the midnight rush. That drawing and ciphering, character by
character in Python, was about a sixth of the answer's CPU in one thread; each read also
releases the GIL, which a busy gthread worker's other threads may take (measured here: a read
0.4 µs alone, 130 µs beside one busy thread). Today's daily needs the cookie, not a token to
render: it draws no mask, and its secret comes from one read.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH

if TYPE_CHECKING:
    from django.http import HttpRequest
    from rest_framework.request import Request

# 248 = 4 × 62 of a byte's 256 values stand for the 62 characters, each for four of them; the 8
# others are passed over, so every character is as likely as with Django's draw.
_USABLE = 256 - 256 % len(CSRF_ALLOWED_CHARS)
# Twelve bytes more than a secret's length: fewer than 32 usable among 44 (13 or more passed
# over, each 1 in 32) happens about once in 1.8 billion draws, and then another read follows.
_READ = CSRF_SECRET_LENGTH + 12


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


def csrf_cookie_ensure(request: HttpRequest | Request) -> None:
    """What ``django.middleware.csrf.get_token`` does to the request, for a view that needs the
    cookie and no token. The cookie itself (and its ``Vary: Cookie``) is set by Django's
    ``CsrfViewMiddleware`` as the answer leaves, which must therefore be in ``MIDDLEWARE`` (it
    is: the site's every POST needs it); ``META`` carries the secret as ``get_token`` leaves it
    (a test holds the two alike)."""
    if "CSRF_COOKIE" in request.META:
        request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
    else:
        request.META.update(CSRF_COOKIE=csrf_secret_new(), CSRF_COOKIE_NEEDS_UPDATE=True)
