"""Views of the project itself, outside any app."""

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)


@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Answer whether the site can reach its database, with one query."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        logger.exception("Health check: the database is unreachable.")
        return JsonResponse({"status": "error", "detail": "database unreachable"}, status=503)
    return JsonResponse({"status": "ok"})
