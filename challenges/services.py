"""Writes and reads of friend challenges; play itself goes through the daily's attempt services."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import IntegrityError, transaction

import farkle
from challenges.codes import code_generate
from challenges.models import Challenge
from daily.models import Player, Puzzle
from daily.rules.names import text_clean
from farkle_site.domain import Invalid

TITLE_MAX_LENGTH = 60
DAYS_DEFAULT = 7
DAYS_MAX = 30


def challenge_create(
    *,
    creator: Player,
    title: str = "",
    table: str = farkle.DEFAULT_TABLE,
    days: int = DAYS_DEFAULT,
    now: datetime.datetime,
) -> Challenge:
    """A new challenge on a fresh random code, open from ``now`` for ``days`` days."""
    if table not in farkle.TABLES:
        raise Invalid(
            "unknown_table", f"Unknown table {table!r}; choose one of {', '.join(farkle.TABLES)}."
        )
    if not 1 <= days <= DAYS_MAX:
        raise Invalid("invalid", f"A challenge lasts 1 to {DAYS_MAX} days.")
    title = text_clean(title, what="title", max_length=TITLE_MAX_LENGTH) if title.strip() else ""
    expires_at = now + datetime.timedelta(days=days)
    secret = settings.FARKLE_SEED_SECRET.encode()
    for _ in range(10):
        code = code_generate()
        try:
            # A code already in use is simply drawn again (the partial unique index decides).
            with transaction.atomic():
                puzzle = Puzzle.objects.create(
                    kind=Puzzle.Kind.CHALLENGE,
                    code=code,
                    table=table,
                    commitment=farkle.commitment(farkle.challenge_seed(secret, code)),
                    opens_at=now,
                    ends_at=expires_at,
                    closes_at=expires_at,
                )
                return Challenge.objects.create(
                    puzzle=puzzle, creator=creator, title=title, created_at=now
                )
        except IntegrityError:
            continue
    raise RuntimeError("No free challenge code in 10 draws.")
