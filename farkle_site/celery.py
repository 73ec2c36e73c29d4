"""The Celery app: configured from the Django settings whose names start with CELERY_."""

import os

from celery import Celery
from celery.schedules import crontab
from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "farkle_site.settings")

app = Celery("farkle_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Schedules are read in UTC, like the daily that changes at 00:00 UTC (docs/operations.md).
app.conf.update(enable_utc=True, timezone="UTC")
app.autodiscover_tasks()

# A queued reconcile expires unrun after this long: past the broker's visibility timeout, so a
# reconcile lost with its worker is redelivered (after the timeout) before it expires.
RECONCILE_EXPIRES = max(15 * 60, 2 * settings.BROKER_VISIBILITY_TIMEOUT)

# Every schedule of the site, in one place. All three run the same idempotent reconcile: the
# first opens the new day on the stroke of midnight, the second closes yesterday once its
# 90-second grace is over, the third catches up whatever beat missed (docs/operations.md).
app.conf.beat_schedule = {
    "open-the-new-day": {
        "task": "daily.reconcile",
        "schedule": crontab(minute=0, hour=0),
        "options": {"expires": RECONCILE_EXPIRES},
    },
    "close-yesterday": {
        "task": "daily.reconcile",
        "schedule": crontab(minute=2, hour=0),
        "options": {"expires": RECONCILE_EXPIRES},
    },
    "reconcile": {
        "task": "daily.reconcile",
        "schedule": 5 * 60,
        "options": {"expires": RECONCILE_EXPIRES},
    },
}
