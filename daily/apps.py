from django.apps import AppConfig


class DailyConfig(AppConfig):
    name = "daily"
    verbose_name = "Daily Farkle"

    def ready(self) -> None:
        # Registers the session scheme with drf-spectacular.
        from daily import schema  # noqa: F401
