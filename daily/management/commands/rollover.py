"""``manage.py rollover [--at ISO-8601]``: the rollover's reconcile, for operators and cron."""

import datetime

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from daily.services.rollover import reconcile


def _instant(text: str) -> datetime.datetime:
    try:
        value = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--at {text!r} is not an ISO 8601 instant.") from None
    if value.tzinfo is None:
        raise CommandError(f"--at {text!r} has no time zone; add Z for UTC.")
    return value


class Command(BaseCommand):
    help = "Publish tomorrow's daily and close every day and challenge whose time is over."

    def add_arguments(self, parser):
        parser.add_argument(
            "--at",
            type=_instant,
            help="Run as if it were this instant, e.g. 2026-11-30T00:01:31Z (default: now).",
        )

    def handle(self, *args, at=None, **options):
        self.stdout.write(str(reconcile(now=at or timezone.now())))
