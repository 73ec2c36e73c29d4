"""WSGI entry point, for gunicorn: `gunicorn farkle_site.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "farkle_site.settings")

application = get_wsgi_application()

# Warm before the first request rather than on it: the rules' figures (the stored solutions,
# the exact Farkle risks, each table's scorer) take a few hundred milliseconds to build, the URL
# configuration and the rules template a few dozen. Here and not in an AppConfig, so that
# manage.py commands and Celery do not pay for it.
from django.apps import apps  # noqa: E402
from django.urls import resolve  # noqa: E402

resolve("/rules")
for config in apps.get_app_configs():
    # An app that has something to warm says so (``DailyConfig.warm_up``).
    warm_up = getattr(config, "warm_up", None)
    if warm_up is not None:
        warm_up()

# What is loaded by now (modules, the rules' figures, the URL configuration) lives as long as the
# process: set apart from the cyclic collector, its full collections stop walking these objects
# again and again, a few hundred thousand each time (measured: 3 % of a worker's CPU under game
# actions down to 1.3 %). Garbage from the start is collected first, or it would stay for good.
import gc  # noqa: E402

gc.collect()
gc.freeze()
