"""WSGI entry point, for gunicorn: `gunicorn farkle_site.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "farkle_site.settings")

application = get_wsgi_application()

# Warm before the first request rather than on it: the rules' figures (the stored solutions,
# the exact Farkle risks, each table's scorer) take a few hundred milliseconds to build, the URL
# configuration and the rules template a few dozen. Here and not in an AppConfig, so that
# manage.py commands and Celery do not pay for it.
from django.template.loader import get_template  # noqa: E402
from django.urls import resolve  # noqa: E402

from daily.apis.rules import rules_data  # noqa: E402

rules_data()
resolve("/rules")
get_template("daily/rules.html")
