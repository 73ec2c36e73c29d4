"""The site's WSGI handler keeps each path's resolution for its next request
(farkle_site/handler.py): it must resolve every path as Django does, give each request a match
of its own, and leave to Django what the path alone does not decide."""

import re

import pytest
from django.test import RequestFactory, override_settings
from django.urls import Resolver404, URLPattern, URLResolver, get_resolver, resolve, set_urlconf
from django.urls.resolvers import RoutePattern
from django.utils import translation

from farkle_site import handler
from farkle_site.handler import SiteHandler

# A value each path converter of the site's URLs accepts.
SAMPLES = {"int": "7", "str": "abc-1", "slug": "abc-1", "path": "a/b"}
FIELDS = (
    "func",
    "args",
    "kwargs",
    "url_name",
    "route",
    "app_names",
    "namespaces",
    "view_name",
    "captured_kwargs",
    "extra_kwargs",
    "tried",
)


def _paths(patterns, prefix=""):
    """A path for each pattern written as a route (every URL of the site's own apps; the admin's
    and others written as regexes are left out), its converters filled with samples."""
    for entry in patterns:
        if not isinstance(entry.pattern, RoutePattern):
            continue
        route = re.sub(
            r"<(?:(\w+):)?\w+>", lambda m: SAMPLES[m.group(1) or "str"], str(entry.pattern)
        )
        if isinstance(entry, URLResolver):
            yield from _paths(entry.url_patterns, prefix + route)
        elif isinstance(entry, URLPattern):
            yield "/" + prefix + route


PATHS = sorted(set(_paths(get_resolver().url_patterns)))


@pytest.fixture(autouse=True)
def _nothing_kept():
    handler._resolved.cache_clear()
    yield
    handler._resolved.cache_clear()
    set_urlconf(None)


@pytest.fixture
def resolutions(monkeypatch):
    """Every path a URL resolver is asked to resolve, in order (the root's and the includes')."""
    asked = []
    original = URLResolver.resolve

    def counted(self, path):
        asked.append((self, path))
        return original(self, path)

    monkeypatch.setattr(URLResolver, "resolve", counted)
    return asked


def _match(path):
    return SiteHandler().resolve_request(RequestFactory().get(path))


def test_the_site_is_served_by_its_handler():
    from farkle_site.wsgi import application

    assert type(application) is SiteHandler


def test_the_site_has_paths_of_every_app_to_check():
    assert len(PATHS) > 40
    assert {"/healthz", "/api/attempts/7/actions", "/api/daily/today", "/g/abc-1"} <= set(PATHS)


@pytest.mark.parametrize("path", PATHS)
def test_every_path_resolves_as_django_resolves_it(path):
    expected = resolve(path)
    for _ in range(2):  # worked out, then kept
        match = _match(path)
        for field in FIELDS:
            assert getattr(match, field) == getattr(expected, field), field


def test_a_path_is_resolved_once_for_all_its_requests(resolutions):
    root = get_resolver()
    for _ in range(3):
        assert _match("/api/attempts/7/actions").kwargs == {"attempt_id": 7}
    assert _match("/api/attempts/8/actions").kwargs == {"attempt_id": 8}

    at_root = [path for resolver, path in resolutions if resolver is root]
    assert at_root == ["/api/attempts/7/actions", "/api/attempts/8/actions"]


def test_the_request_is_given_its_match():
    request = RequestFactory().get("/api/daily/today")
    match = SiteHandler().resolve_request(request)
    assert request.resolver_match is match
    assert match.url_name == "daily-today"


@pytest.mark.django_db
def test_requests_through_the_served_application_resolve_their_path_once(resolutions):
    # Through the WSGI application gunicorn serves, not the method alone: the handler's own
    # path to ``resolve_request`` is what must reach the kept resolutions.
    from farkle_site.wsgi import application

    answers = []
    for _ in range(2):
        environ = RequestFactory().get("/api/rules", HTTP_ACCEPT="application/json").environ
        response = application(environ, lambda status, headers: answers.append(status))
        response.close()

    assert answers == ["200 OK", "200 OK"]
    # (Its first import warms the site, resolving /rules on the way.)
    at_root = [path for resolver, path in resolutions if resolver is get_resolver()]
    assert at_root.count("/api/rules") == 1


def test_each_request_has_a_match_of_its_own():
    first = _match("/api/attempts/7/actions")
    first.kwargs["attempt_id"] = 999
    first.captured_kwargs["attempt_id"] = 999
    first.namespaces.append("elsewhere")
    first.tried.append("something")

    second = _match("/api/attempts/7/actions")
    assert second is not first
    assert second.kwargs == second.captured_kwargs == {"attempt_id": 7}
    expected = resolve("/api/attempts/7/actions")
    assert second.namespaces == expected.namespaces
    assert second.tried == expected.tried


def test_a_path_that_resolves_to_nothing_is_not_kept():
    for _ in range(2):
        with pytest.raises(Resolver404):
            _match("/no/such/page")
    assert handler._resolved.cache_info().currsize == 0


def test_a_request_with_a_url_configuration_of_its_own_is_resolved_by_django(resolutions):
    request = RequestFactory().get("/setlang/")
    request.urlconf = "django.conf.urls.i18n"

    match = SiteHandler().resolve_request(request)

    assert match.url_name == "set_language"
    assert handler._resolved.cache_info().currsize == 0
    assert [resolver.urlconf_name for resolver, _ in resolutions] == ["django.conf.urls.i18n"]


@override_settings(ROOT_URLCONF="tests.site.i18n_urls")
def test_language_prefixed_patterns_are_resolved_each_time(resolutions):
    with translation.override("en"):
        for _ in range(2):
            assert _match("/en/hello").url_name == "hello"
    with translation.override("fr"), pytest.raises(Resolver404):
        _match("/en/hello")

    assert handler._resolved.cache_info().currsize == 0
    assert len([path for _, path in resolutions if path == "/en/hello"]) == 3
