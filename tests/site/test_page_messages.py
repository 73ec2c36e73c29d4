"""Django's one-time messages live on pages only: no API request builds their storage."""

import pytest
from django.contrib import messages
from django.contrib.messages.api import MessageFailure
from django.contrib.sessions.backends.db import SessionStore
from django.http import HttpResponse
from django.test import RequestFactory

from farkle_site.middleware import PageMessageMiddleware


def _through_the_middleware(path: str):
    request = RequestFactory().get(path)
    request.session = SessionStore()
    PageMessageMiddleware(lambda request: HttpResponse()).process_request(request)
    return request


@pytest.mark.parametrize("path", ["/api/me", "/api/attempts/7/actions", "/api/daily/today"])
def test_an_api_request_has_no_message_storage(path):
    with pytest.raises(MessageFailure):
        messages.info(_through_the_middleware(path), "Saved.")


@pytest.mark.parametrize("path", ["/", "/me", "/admin/", "/apiary"])
def test_a_page_keeps_its_messages(path):
    request = _through_the_middleware(path)
    messages.info(request, "Saved.")
    assert [str(message) for message in messages.get_messages(request)] == ["Saved."]
