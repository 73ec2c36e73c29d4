"""``manage.py rate_days``: rate every closed daily not rated yet, oldest first (the backfill).

The rollover rates each daily right after its close; this command does the same for the days
closed before the skill rating existed, or missed while the rollover was down, without closing
anything. Safe to run again: a day is rated once."""

from django.core.management.base import BaseCommand
from django.utils import timezone

from play.services.ratings import ratings_catch_up


class Command(BaseCommand):
    help = "Rate the players of every closed daily not rated yet, oldest day first."

    def handle(self, *args, **options):
        rated = ratings_catch_up(now=timezone.now())
        for line in rated:
            self.stdout.write(f"rated {line}")
        if not rated:
            self.stdout.write("Nothing to do: every closed daily is rated already.")
