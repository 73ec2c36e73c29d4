"""How the OpenAPI schema describes the site's session authentication."""

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension


class CsrfSessionScheme(OpenApiAuthenticationExtension):
    target_class = "farkle_site.drf.CsrfSessionAuthentication"
    name = "session"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "cookie",
            "name": settings.SESSION_COOKIE_NAME,
            "description": (
                "The browser's session (a guest player or a logged-in account). Unsafe methods "
                "also need the `X-CSRFToken` header, with the `csrftoken` cookie that "
                "`GET /api/daily/today` sets."
            ),
        }
