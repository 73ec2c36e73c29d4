"""The Django project of Farkle Daily."""

# Load the Celery app with Django, so @shared_task binds to it in the web process too.
from farkle_site.celery import app as celery_app

__all__ = ("celery_app",)
