"""Views of the project itself, outside any app."""

import logging
import math
import sys

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.html import escape
from django.utils.translation import gettext, ngettext
from django.views import defaults
from django.views.decorators.http import require_safe
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularSwaggerSplitView
from redis.exceptions import RedisError

from farkle_site.errors import RETRY_AFTER_UNAVAILABLE, UNAVAILABLE, database_unavailable
from farkle_site.middleware import browser_id_exempt

logger = logging.getLogger(__name__)


# Read, never written: a GET of a missing key is the cache's cheapest round trip.
_HEALTH_KEY = "farkle:healthz"


def _database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        logger.exception("Health check: the database is unreachable.")
        return False
    return True


def _cache_answers() -> bool:
    try:
        cache.get(_HEALTH_KEY)
    except Exception as error:
        # A refused or lost connection, a timeout, a server that answers with an error: the
        # cache does not serve (django-redis raises them from redis-py's RedisError). Anything
        # else is a bug, and a 500.
        if not _caused_by(error, RedisError):
            raise
        logger.exception("Health check: the cache is unreachable.")
        return False
    return True


def _caused_by(error: BaseException | None, kind: type[BaseException]) -> bool:
    seen = 0
    while error is not None and seen < 10:
        if isinstance(error, kind):
            return True
        error = error.__cause__ or error.__context__
        seen += 1
    return False


@browser_id_exempt
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Whether the site can reach its database (one query) and its cache (one read), each told
    apart; 503 when either is down, so that a load balancer takes the host out: every request
    with a session needs both."""
    checks = {
        "database": "ok" if _database_answers() else "down",
        "cache": "ok" if _cache_answers() else "down",
    }
    if all(state == "ok" for state in checks.values()):
        return JsonResponse({"status": "ok", **checks})
    response = JsonResponse({"status": "error", **checks}, status=503)
    response["Retry-After"] = str(RETRY_AFTER_UNAVAILABLE)
    return response


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """400 raised outside a view (a disallowed host, a malformed body): JSON under /api/."""
    if _wants_json(request):
        return JsonResponse({"detail": "Malformed request.", "code": "bad_request"}, status=400)
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """403 raised outside the API's own checks: JSON under /api/."""
    if _wants_json(request):
        return JsonResponse({"detail": "You may not do this.", "code": "forbidden"}, status=403)
    return defaults.permission_denied(request, exception)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404 for a URL no view answers: JSON under /api/, Django's page elsewhere."""
    if _wants_json(request):
        return JsonResponse({"detail": "No such endpoint.", "code": "not_found"}, status=404)
    return defaults.page_not_found(request, exception)


def too_many_requests(request: HttpRequest, *, wait: int, message: str) -> HttpResponse:
    """A page's 429: what was too many (``message``), how long to wait, and ``Retry-After`` with
    the seconds (``wait``, from the throttle: ``farkle_site.drf.page_throttle_wait``)."""
    if wait < 90:
        wait_text = ngettext(
            "You can try again in %(count)d second.",
            "You can try again in %(count)d seconds.",
            wait,
        ) % {"count": wait}
    else:
        minutes = math.ceil(wait / 60)
        wait_text = ngettext(
            "You can try again in %(count)d minute.",
            "You can try again in %(count)d minutes.",
            minutes,
        ) % {"count": minutes}
    response = render(request, "429.html", {"message": message, "wait_text": wait_text}, status=429)
    response["Retry-After"] = str(wait)
    return response


def _unavailable(request: HttpRequest) -> HttpResponse:
    if _wants_json(request):
        response: HttpResponse = JsonResponse(UNAVAILABLE, status=503)
    else:
        title = escape(gettext("Farkle Daily is briefly unavailable"))
        text = escape(gettext("Please try again in a moment."))
        # No template: rendering one may need what is down (the session, the player's name).
        response = HttpResponse(
            f'<!doctype html><meta charset="utf-8"><title>{title}</title>'
            f"<h1>{title}</h1><p>{text}</p>",
            status=503,
        )
    response["Retry-After"] = str(RETRY_AFTER_UNAVAILABLE)
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """500, or 503 when the database is out of reach; JSON under /api/ so that clients can
    still read a `code`."""
    # Django calls this handler while handling the exception, wherever it was raised (a view, a
    # middleware saving the session): a lost database is a wait, not a bug.
    if database_unavailable(sys.exc_info()[1]):
        return _unavailable(request)
    if _wants_json(request):
        return JsonResponse(
            {"detail": "Something went wrong on our side.", "code": "server_error"}, status=500
        )
    return defaults.server_error(request)


class ApiDocsView(SpectacularSwaggerSplitView):
    """Swagger UI, its start-up script served as a file (the site's CSP allows no inline one)."""

    @extend_schema(exclude=True)
    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        response["Content-Security-Policy"] = settings.API_DOCS_CONTENT_SECURITY_POLICY
        return response
