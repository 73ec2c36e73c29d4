"""The site's locale middleware (farkle_site.middleware.SiteLocaleMiddleware, issue 15) chooses
the language as Django's LocaleMiddleware does, without reading the path for a prefix the
site's URLs never have; with language-prefixed URLs, Django's own runs."""

import sys
import types

import pytest
from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.http import HttpResponse
from django.middleware.locale import LocaleMiddleware
from django.test import RequestFactory
from django.urls import path
from django.utils import translation

from farkle_site.middleware import SiteLocaleMiddleware

REQUESTS = [
    ("/", {}),
    ("/", {"HTTP_ACCEPT_LANGUAGE": "fr-FR,fr;q=0.9,en;q=0.8"}),
    ("/", {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}),
    ("/", {"HTTP_ACCEPT_LANGUAGE": "en-GB,fr;q=0.5"}),
    ("/", {"HTTP_ACCEPT_LANGUAGE": "*"}),
    ("/", {"HTTP_ACCEPT_LANGUAGE": "fr;q=x, garbage"}),
    ("/api/daily/today", {"HTTP_ACCEPT_LANGUAGE": "fr"}),
    ("/fr/", {}),
    ("/fr/rules", {"HTTP_ACCEPT_LANGUAGE": "en"}),
    ("/en/", {"HTTP_ACCEPT_LANGUAGE": "fr"}),
    ("/healthz", {}),
]
COOKIES = [None, "fr", "en", "xx"]


def _through(middleware_class, url: str, extra: dict, cookie: str | None, status: int = 200):
    request = RequestFactory().get(url, **extra)
    if cookie is not None:
        request.COOKIES[settings.LANGUAGE_COOKIE_NAME] = cookie
    middleware = middleware_class(lambda request: HttpResponse(status=status))
    with translation.override(None):
        response = middleware(request)
        active = translation.get_language()
    return (
        request.LANGUAGE_CODE,
        active,
        response.status_code,
        response.get("Vary"),
        response.get("Content-Language"),
        response.get("Location"),
    )


@pytest.mark.parametrize("cookie", COOKIES)
@pytest.mark.parametrize(("url", "extra"), REQUESTS)
def test_the_language_chosen_and_the_headers_are_djangos(url, extra, cookie):
    mine = _through(SiteLocaleMiddleware, url, extra, cookie)
    assert mine == _through(LocaleMiddleware, url, extra, cookie)


def test_french_is_chosen_from_the_header_and_from_the_cookie():
    # Not only equal to Django's: the languages the site offers are chosen.
    assert _through(SiteLocaleMiddleware, "/", {"HTTP_ACCEPT_LANGUAGE": "fr-FR"}, None)[:2] == (
        "fr",
        "fr",
    )
    assert _through(SiteLocaleMiddleware, "/", {"HTTP_ACCEPT_LANGUAGE": "fr"}, "en")[0] == "en"
    assert _through(SiteLocaleMiddleware, "/", {}, None)[4] == "en"


@pytest.fixture
def prefixed_urls(settings):
    """A URL configuration whose pages carry a language prefix (Django's ``i18n_patterns``)."""
    module = types.ModuleType("tests_site_prefixed_urls")
    module.urlpatterns = i18n_patterns(path("rules", lambda request: HttpResponse()))
    sys.modules[module.__name__] = module
    settings.ROOT_URLCONF = module.__name__
    yield
    del sys.modules[module.__name__]


@pytest.mark.parametrize("status", [200, 404])
@pytest.mark.parametrize("cookie", COOKIES)
@pytest.mark.parametrize(("url", "extra"), REQUESTS)
def test_with_prefixed_urls_djangos_own_runs(prefixed_urls, url, extra, cookie, status):
    mine = _through(SiteLocaleMiddleware, url, extra, cookie, status)
    assert mine == _through(LocaleMiddleware, url, extra, cookie, status)


def test_with_prefixed_urls_the_path_decides(prefixed_urls):
    # Django's redirect to the prefixed page, which only the path can give.
    language, _, status, _, _, location = _through(
        SiteLocaleMiddleware, "/rules", {"HTTP_ACCEPT_LANGUAGE": "fr"}, None, 404
    )
    assert (status, location) == (302, "/fr/rules")
    assert (
        _through(SiteLocaleMiddleware, "/en/rules", {"HTTP_ACCEPT_LANGUAGE": "fr"}, None)[0] == "en"
    )


def test_without_prefixed_urls_the_path_is_never_read(monkeypatch):
    def read(path):
        raise AssertionError(f"the path {path} was read for a language")

    monkeypatch.setattr(translation, "get_language_from_path", read)
    for url, extra in REQUESTS:
        assert _through(SiteLocaleMiddleware, url, extra, "fr")[:2] == ("fr", "fr")
    with pytest.raises(AssertionError, match="was read"):
        _through(LocaleMiddleware, "/", {}, None)
