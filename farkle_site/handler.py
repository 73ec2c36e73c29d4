"""The site's WSGI handler: Django's, with each path's resolution kept for its next request.

Django resolves every request's path against the URL configuration afresh: the patterns tried
in turn, a regex each, the converters, and two ``ResolverMatch`` objects built on the way out of
the ``api/`` include. That is about 24 µs of CPU (3.7 µs kept), 3 % of a game action's
instructions in process (issue 15, docs/performance.md), for an answer that depends on the path
alone: a game sends its twenty-odd actions to one path, and every fresh browser of the midnight
rush the same two.

Each process keeps the resolutions of the paths it served last. A request gets its own copy, as
Django gives each request a match of its own; a path that resolves to nothing is not kept (it is
a 404 each time, as before). The path is the whole key only when nothing else decides the
resolution: a request with a URL configuration of its own (``request.urlconf``), or one whose
patterns carry a language prefix (``i18n_patterns``: the active language decides), is resolved
by Django as before.
"""

from __future__ import annotations

import functools

from django.conf.urls.i18n import is_language_prefix_patterns_used
from django.core.handlers.wsgi import WSGIHandler
from django.urls import ResolverMatch, URLResolver, get_resolver

# About one path per game in play (its actions, its reads), and a few the whole site shares.
PATHS_KEPT = 4096


@functools.lru_cache(maxsize=PATHS_KEPT)
def _resolved(resolver: URLResolver, path: str) -> ResolverMatch:
    # A Resolver404 is raised through the cache, which keeps nothing then.
    return resolver.resolve(path)


def _own_copy(match: ResolverMatch) -> ResolverMatch:
    """A match no other request shares, its containers included."""
    # Attribute by attribute: a ResolverMatch refuses to be pickled, so ``copy`` cannot.
    mine = object.__new__(type(match))
    mine.__dict__.update(match.__dict__)
    for name in ("kwargs", "captured_kwargs", "extra_kwargs", "app_names", "namespaces", "tried"):
        value = getattr(match, name)
        if value is not None:
            setattr(mine, name, type(value)(value))  # a dict or a list of its own
    return mine


class SiteHandler(WSGIHandler):
    """Django's WSGI handler, resolving a path it has resolved lately from what it kept."""

    def resolve_request(self, request):
        if hasattr(request, "urlconf"):
            return super().resolve_request(request)
        resolver = get_resolver()
        if is_language_prefix_patterns_used(resolver.urlconf_name)[0]:
            return super().resolve_request(request)
        match = _own_copy(_resolved(resolver, request.path_info))
        request.resolver_match = match
        return match
