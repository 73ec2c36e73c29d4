from django.apps import AppConfig


class DailyConfig(AppConfig):
    name = "daily"
    verbose_name = "Daily Farkle"

    def warm_up(self) -> None:
        """Build the rules' figures and template before the first request (``farkle_site.wsgi``)."""
        from django.template.loader import get_template

        from play.apis.rules import rules_data

        rules_data()
        get_template("daily/rules.html")
