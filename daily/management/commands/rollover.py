"""``manage.py rollover [--at ISO-8601]``: the rollover's reconcile, for operators and cron.

``--at`` may name now or an earlier instant, never a later one: the service refuses it, and the
command then prints why on stderr and exits with status 1, having changed nothing."""

import datetime

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from daily.services.rollover import reconcile
from farkle_site.domain import Invalid


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
            help=(
                "Run as if it were this instant, now or earlier, e.g. 2026-11-30T00:01:31Z "
                "(default: now). A later instant is refused."
            ),
        )

    def handle(self, *args, at=None, **options):
        try:
            report = reconcile(now=at or timezone.now())
        except Invalid as refusal:
            raise CommandError(refusal.message) from None
        self.stdout.write(str(report))
