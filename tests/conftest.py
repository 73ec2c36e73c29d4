"""Settings for the whole test run."""

from django.conf import settings


def pytest_configure(config):
    # The tests run with DEBUG off but without `collectstatic`: static files are found in the apps'
    # folders, as in development, instead of in the hashed copies production serves.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    settings.WHITENOISE_USE_FINDERS = True
    settings.WHITENOISE_AUTOREFRESH = True
