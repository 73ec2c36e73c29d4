"""Middleware of the site."""

import uuid

from django.conf import settings
from django.contrib.messages.middleware import MessageMiddleware
from django.http import HttpRequest, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext


def browser_id_of(request: HttpRequest) -> uuid.UUID | None:
    """The browser's id from its cookie (set below), when it has a valid one."""
    try:
        return uuid.UUID(request.COOKIES.get(settings.BROWSER_COOKIE_NAME, ""))
    except ValueError:
        return None


class BrowserIdMiddleware:
    """Give every browser a random id cookie on its first visit to any view but a
    ``browser_id_exempt`` one.

    A guest player is created by the browser's first game; two first requests at once (a double
    click, two tabs) would otherwise create two players, each with an official attempt. With the
    id, they find one player.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        match = request.resolver_match
        exempt = match is not None and getattr(match.func, "browser_id_exempt", False)
        if not exempt and browser_id_of(request) is None:
            response.set_cookie(
                settings.BROWSER_COOKIE_NAME,
                str(uuid.uuid4()),
                max_age=settings.SESSION_COOKIE_AGE,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response


def browser_id_exempt(view):
    """Mark a view whose answers give no browser an id: the health check, which load balancers
    and monitors call every few seconds without keeping cookies, each call a new browser to the
    middleware above. The view is marked rather than its answers, so that an answer made outside
    it (the 500 page of an error it raised) gives none either."""
    view.browser_id_exempt = True
    return view


class SecurityHeadersMiddleware:
    """Add the Content-Security-Policy and Permissions-Policy headers to every response.

    Django 5.2 has no CSP of its own; the policies are constants of the settings.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response


class PageMessageMiddleware(MessageMiddleware):
    """Django's one-time messages (the admin's notices), for pages only.

    No JSON endpoint shows or keeps a message, and building the storage (a cookie and a session
    store, a signer) on every API request cost a few percent of a game action's CPU (issue 15).
    """

    def process_request(self, request):
        if not request.path_info.startswith("/api/"):
            super().process_request(request)


class UrlLengthMiddleware:
    """Refuse an address longer than ``MAX_URL_LENGTH`` characters (its path and query string)
    with 414: ``{"detail", "code": "uri_too_long"}`` under /api/ (every operation of the schema
    documents it), a page elsewhere.

    gunicorn refuses a request line longer than its ``limit_request_line`` itself, with a page
    of its own; the Procfile sets that limit to gunicorn's maximum, well above this one, so that
    any address gunicorn lets through and the site finds too long gets the site's own answer
    (docs/operations.md).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if len(request.get_full_path()) <= settings.MAX_URL_LENGTH:
            return self.get_response(request)
        if request.path_info.startswith("/api/"):
            return JsonResponse(
                {
                    "detail": f"The address is longer than {settings.MAX_URL_LENGTH} characters.",
                    "code": "uri_too_long",
                },
                status=414,
            )
        return render(
            request,
            "error.html",
            {
                "title": gettext("Address too long"),
                "message": gettext(
                    "This address is longer than any of the site's: check the link you followed."
                ),
            },
            status=414,
        )
