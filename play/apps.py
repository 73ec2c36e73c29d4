from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "play"
    verbose_name = "Play"

    def ready(self) -> None:
        # Registers the session scheme with drf-spectacular.
        from play.apis import openapi_auth  # noqa: F401
