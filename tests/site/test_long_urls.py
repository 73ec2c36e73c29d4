"""An over-long address (issue 39, item 6): gunicorn answered its own HTML 414, which the schema
did not list. The site refuses an address longer than ``MAX_URL_LENGTH`` itself, with a JSON 414
``uri_too_long`` under /api/ that every operation of the schema documents, and a page elsewhere;
gunicorn (the Procfile's web line, its ``--limit-request-line`` at gunicorn's maximum, 8190
bytes) lets every such address through, and refuses only request lines beyond its maximum
(docs/operations.md)."""

from __future__ import annotations

import json
import socket
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from tests.processes import web_server

# The limit the site documents (docs/operations.md, the schema), written here, not read.
LIMIT = 4096
# gunicorn's maximum request line, in bytes (its documentation: limit_request_line).
GUNICORN_MAX_LINE = 8190


def test_the_limit_is_the_documented_one():
    assert settings.MAX_URL_LENGTH == LIMIT


def _padded(prefix: str, length: int) -> str:
    """An address of ``length`` characters that starts with ``prefix`` (a query string's
    filler)."""
    filler = length - len(prefix) - len("?x=")
    return f"{prefix}?x={'a' * filler}"


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["GET", "POST", "PATCH", "DELETE"])
def test_an_api_address_one_character_too_long_is_a_json_414(method, clock):
    client = Client()
    at_limit = client.generic(method, _padded("/api/daily/today", LIMIT))
    over = client.generic(method, _padded("/api/daily/today", LIMIT + 1))
    assert at_limit.status_code != 414
    assert (over.status_code, over["Content-Type"], over.json()) == (
        414,
        "application/json",
        {"detail": "The address is longer than 4096 characters.", "code": "uri_too_long"},
    )


@pytest.mark.django_db
def test_a_long_path_is_measured_as_sent_escaped(clock):
    # Each "é" of the path is sent as %C3%A9: six characters of the address, not one.
    path = "/api/challenges/" + "é" * ((LIMIT - len("/api/challenges/")) // 6 + 1)
    response = Client().get(path)
    assert (response.status_code, response.json()["code"]) == (414, "uri_too_long")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "title", "message"),
    [
        ("en", "Address too long", "check the link you followed"),
        ("fr", "Adresse trop longue", "vérifiez le lien suivi"),
    ],
)
def test_a_page_address_too_long_is_a_page_in_the_visitors_language(
    clock, language, title, message
):
    response = Client().get(_padded("/c/ABCDEF", LIMIT + 1), HTTP_ACCEPT_LANGUAGE=language)
    page = response.content.decode()
    assert (response.status_code, response["Content-Type"]) == (414, "text/html; charset=utf-8")
    assert f"<h1>{title}</h1>" in page and message in page


def test_every_operation_documents_the_414():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    missing = [
        f"{method.upper()} {path}"
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
        if "414" not in operation["responses"]
    ]
    assert missing == []
    answer = schema["paths"]["/api/challenges"]["post"]["responses"]["414"]
    assert answer["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
    assert "4096" in answer["description"]


def _raw_request(base: str, target: str) -> tuple[int, dict[str, str], bytes]:
    """Send ``GET target`` as written (no client rewriting it) and read the whole answer."""
    address = urlsplit(base)
    with socket.create_connection((address.hostname, address.port), timeout=30) as connection:
        connection.sendall(
            f"GET {target} HTTP/1.1\r\nHost: {address.netloc}\r\nConnection: close\r\n"
            "Accept-Language: en\r\n\r\n".encode()
        )
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), headers, body


@pytest.mark.django_db(transaction=True)
def test_through_gunicorn_every_address_it_accepts_gets_the_sites_own_answer():
    with web_server(WEB_CONCURRENCY="1", WEB_THREADS="2") as base:
        # Just over the site's limit, and at the longest request line gunicorn accepts
        # ("GET " and " HTTP/1.1" around the address): the site's JSON 414.
        longest = GUNICORN_MAX_LINE - len("GET ") - len(" HTTP/1.1")
        for length in (LIMIT + 1, longest):
            status, headers, body = _raw_request(base, _padded("/api/daily/today", length))
            assert (status, headers["content-type"]) == (414, "application/json"), length
            assert json.loads(body)["code"] == "uri_too_long"
        # (Pages are checked above through Django's client: a server started here has no
        # collected static files, which every page's template names.)
        # At the limit, the address is the site's to answer as any other.
        status, headers, _ = _raw_request(base, _padded("/api/rules", LIMIT))
        assert (status, headers["content-type"]) == (200, "application/json")
        # One byte more than gunicorn's maximum: gunicorn's own answer, before the site sees
        # it (docs/operations.md says so).
        status, headers, body = _raw_request(base, _padded("/api/daily/today", longest + 1))
        assert (status, headers["content-type"]) == (414, "text/html")
        assert b"Request Line is too large" in body
