"""A schema-based fuzzer (Schemathesis) against the live test server, through a browser-like
session that passes the CSRF check: no answer is a 5xx, and every answer (status, content type,
body, headers) is one the OpenAPI schema documents (issue 10 item 11).

Bounded: a few dozen generated requests per operation, so the whole run takes a minute or two.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]
EXAMPLES_PER_OPERATION = 15


@pytest.fixture
def live_site(live_server, settings, transactional_db) -> str:
    # Plain HTTP on the test server: cookies that are not marked Secure, or the client would
    # not send them back (production marks them Secure behind TLS).
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    return live_server.url


@pytest.fixture
def session(live_site) -> Iterator[requests.Session]:
    """A browser's session: its cookies, a player with an attempt, and the CSRF header."""
    browser = requests.Session()
    assert browser.get(f"{live_site}/api/daily/today", timeout=30).status_code == 200
    browser.headers["X-CSRFToken"] = browser.cookies["csrftoken"]
    started = browser.post(f"{live_site}/api/daily/today/attempts", timeout=30)
    assert started.status_code == 201, started.text
    yield browser
    # Its kept-alive connection would keep a server thread, and its database connection, open.
    browser.close()


def _operations() -> list[tuple[str, GenerationMode]]:
    """Every operation of the schema the site serves, as "METHOD /path", with the modes to fuzz
    it in: valid input, and invalid input where it takes any (read at collection)."""
    from drf_spectacular.generators import SchemaGenerator

    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    cases = []
    for path, operations in sorted(paths.items()):
        for method, operation in sorted(operations.items()):
            label = f"{method.upper()} {path}"
            cases.append((label, GenerationMode.POSITIVE))
            # Invalid input exists only for a body or a constrained parameter (any text is a
            # valid free-form path segment).
            constrained = [
                p for p in operation.get("parameters", []) if p["schema"] != {"type": "string"}
            ]
            if constrained or operation.get("requestBody"):
                cases.append((label, GenerationMode.NEGATIVE))
    return cases


@pytest.fixture
def api_schema(live_site):
    """The schema as the live server serves it."""
    return schemathesis.openapi.from_url(f"{live_site}/api/schema/?format=json")


@pytest.mark.parametrize(("label", "mode"), _operations())
def test_api_answers_only_as_documented(label, mode, api_schema, session, live_site):
    operation = api_schema.find_operation_by_label(label)
    assert operation is not None, label

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    def fuzz(case) -> None:
        case.call_and_validate(base_url=live_site, session=session, checks=CHECKS)

    fuzz()


def test_every_operation_documents_its_errors_with_the_error_body(client):
    document = client.get("/api/schema/?format=json").json()
    error = document["components"]["schemas"]["Error"]
    assert set(error["required"]) == {"detail", "code"}
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            expected = {"503"}
            if method in ("post", "patch"):
                expected |= {"400", "403"}
            if "{" in path:
                expected.add("404")
            assert expected <= responses.keys(), (method, path, sorted(responses))
            for status in expected:
                schema = responses[status]["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/Error"}, (method, path, status)
            assert responses["503"]["headers"]["Retry-After"]["required"] is True
    throttled = document["paths"]["/api/auth/login"]["post"]["responses"]["429"]
    assert throttled["headers"]["Retry-After"]["required"] is True
