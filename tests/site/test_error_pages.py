import json

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
