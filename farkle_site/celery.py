"""The Celery app: configured from the Django settings whose names start with CELERY_."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "farkle_site.settings")

app = Celery("farkle_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Schedules are read in UTC, like the daily that changes at 00:00 UTC (SPEC §6).
app.conf.update(enable_utc=True, timezone="UTC")
app.autodiscover_tasks()
