import json

from django.db import InterfaceError, OperationalError
from django.test import RequestFactory

from farkle_site.views import server_error


def test_server_error_under_api_is_json():
    response = server_error(RequestFactory().get("/api/daily/today"))
    assert (response.status_code, json.loads(response.content)) == (
        500,
        {"detail": "Something went wrong on our side.", "code": "server_error"},
    )


def test_server_error_elsewhere_is_a_page():
    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")


def _server_error_while_handling(exception: Exception, path: str):
    # Django calls the 500 handler inside its `except` block: the exception is the current one.
    try:
        raise exception
    except Exception:
        return server_error(RequestFactory().get(path))


def test_a_lost_database_is_503_with_retry_after_under_api():
    response = _server_error_while_handling(OperationalError("connection refused"), "/api/me")
    assert (response.status_code, json.loads(response.content)["code"]) == (503, "unavailable")
    assert int(response["Retry-After"]) > 0


def test_a_lost_database_is_a_503_page_elsewhere():
    response = _server_error_while_handling(InterfaceError("connection already closed"), "/me")
    assert (response.status_code, response["Content-Type"]) == (503, "text/html; charset=utf-8")
    assert int(response["Retry-After"]) > 0


def test_other_errors_stay_500():
    response = _server_error_while_handling(ValueError("a bug"), "/api/me")
    assert (response.status_code, json.loads(response.content)["code"]) == (500, "server_error")
