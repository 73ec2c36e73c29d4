"""A URL configuration with language-prefixed patterns, which the site has none of: a path's
resolution then depends on the active language (tests/site/test_handler.py)."""

from django.conf.urls.i18n import i18n_patterns
from django.http import HttpResponse
from django.urls import path


def hello(request):
    return HttpResponse("hello")


urlpatterns = i18n_patterns(path("hello", hello, name="hello"))
