"""A fresh browser's CSRF cookie, without Django's mask (issue 15).

Django's ``get_token`` draws a secret a character at a time, then a mask of 32 more characters
the same way and ciphers the secret with it, for a token to render: 64 reads of the random
source or more, and about a sixth of the CPU of a fresh browser's first answer (today's daily,
the first request of the midnight rush) in one thread. Today's daily and a challenge looked up
by its code (where an API client gets its token) need the cookie and no token: they draw no
mask, and the secret in one read (``random_string``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH

from farkle_site.random_strings import random_string

if TYPE_CHECKING:
    from django.http import HttpRequest
    from rest_framework.request import Request


def csrf_cookie_ensure(request: HttpRequest | Request) -> None:
    """What ``django.middleware.csrf.get_token`` does to the request, for a view that needs the
    cookie and no token. The cookie itself (and its ``Vary: Cookie``) is set by Django's
    ``CsrfViewMiddleware`` as the answer leaves, which must therefore be in ``MIDDLEWARE`` (it
    is: the site's every POST needs it); ``META`` carries the secret as ``get_token`` leaves it
    (a test holds the two alike)."""
    if "CSRF_COOKIE" in request.META:
        request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
    else:
        secret = random_string(CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH)
        request.META.update(CSRF_COOKIE=secret, CSRF_COOKIE_NEEDS_UPDATE=True)
