from django.apps import AppConfig


class ChallengesConfig(AppConfig):
    name = "challenges"
    verbose_name = "Friend challenges"

    def ready(self) -> None:
        from challenges import solutions

        solutions.share()
