"""The API's content negotiation decides as DRF's would (farkle_site.drf.JsonNegotiation)."""

import pytest
from django.http import Http404
from django.test import RequestFactory
from rest_framework import exceptions
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request

from farkle_site.drf import JsonNegotiation

ACCEPTS = [
    None,
    "*/*",
    "application/json",
    "application/json; indent=4",
    "text/html",
    "application/*",
    "application/json, text/html;q=0.9",
    "",
    "image/png",
]
QUERIES = ["", "page=2", "format=json", "format=api", "format=xml"]


def _decide(negotiation, accept, query, renderers):
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    request = Request(RequestFactory().get(f"/api/daily/today?{query}", **headers))
    try:
        renderer, media_type = negotiation.select_renderer(request, renderers)
    except (exceptions.APIException, Http404) as error:
        return type(error).__name__
    return type(renderer).__name__, media_type


@pytest.mark.parametrize("accept", ACCEPTS)
@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("renderers", [[JSONRenderer()], [JSONRenderer(), BrowsableAPIRenderer()]])
def test_the_same_renderer_and_media_type_as_drf(accept, query, renderers):
    mine = _decide(JsonNegotiation(), accept, query, renderers)
    assert mine == _decide(DefaultContentNegotiation(), accept, query, renderers)


def test_an_api_endpoint_still_refuses_html_only(client, db):
    response = client.get("/api/daily/today", HTTP_ACCEPT="text/html")
    assert response.status_code == 406
    assert client.get("/api/daily/today", HTTP_ACCEPT="*/*").status_code == 200
