"""The language each request is answered in: Django's LocaleMiddleware, from the language
cookie (the EN/FR switch), then Accept-Language, else English."""

import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("accept", "cookie", "language"),
    [
        ("fr-FR,fr;q=0.9,en;q=0.8", None, "fr"),
        ("fr", "en", "en"),
        ("", "fr", "fr"),
        ("de-DE,de;q=0.9", None, "en"),
        ("", None, "en"),
    ],
)
def test_the_language_comes_from_the_cookie_then_the_header(accept, cookie, language):
    client = Client(HTTP_ACCEPT_LANGUAGE=accept)
    if cookie is not None:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = cookie
    response = client.get("/rules")
    assert (response.status_code, response["Content-Language"]) == (200, language)
    assert "Accept-Language" in response["Vary"]
