"""Writes and reads of friend challenges; play itself goes through play's attempt services."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import IntegrityError, transaction

import farkle
from challenges import solutions
from challenges.codes import code_generate
from challenges.models import Challenge
from farkle_site.domain import Invalid
from play.models import TURN_SECONDS, Player, Puzzle
from play.rules.names import title_clean

TITLE_MAX_LENGTH = 60
DAYS_DEFAULT = 7
DAYS_MAX = 30


def _choices(values: tuple) -> str:
    return ", ".join("off" if v in (0, None) else str(v) for v in values)


def options_check(*, entry_minimum: int, farkle_penalty: int, turn_seconds: int | None) -> None:
    """Refuse (``invalid_option``) an option outside the seeds' values."""
    if entry_minimum not in farkle.ENTRY_MINIMUMS:
        raise Invalid(
            "invalid_option",
            f"entry_minimum is one of {_choices(farkle.ENTRY_MINIMUMS)} (0: off).",
            field="entry_minimum",
        )
    if farkle_penalty not in farkle.FARKLE_PENALTIES:
        raise Invalid(
            "invalid_option",
            f"farkle_penalty is one of {_choices(farkle.FARKLE_PENALTIES)} (0: off).",
            field="farkle_penalty",
        )
    if turn_seconds is not None and turn_seconds not in TURN_SECONDS:
        raise Invalid(
            "invalid_option",
            f"turn_seconds is null (off) or one of {_choices(TURN_SECONDS)}.",
            field="turn_seconds",
        )


def challenge_create(
    *,
    creator: Player,
    title: str = "",
    table: str = farkle.DEFAULT_TABLE,
    days: int = DAYS_DEFAULT,
    entry_minimum: int = 0,
    farkle_penalty: int = 0,
    turn_seconds: int | None = None,
    now: datetime.datetime,
) -> Challenge:
    """A new challenge on a fresh random code, open from ``now`` for ``days`` days, with its
    options (house rules and a clock per turn, issue 14), all off by default."""
    options_check(
        entry_minimum=entry_minimum, farkle_penalty=farkle_penalty, turn_seconds=turn_seconds
    )
    if table not in farkle.TABLES:
        raise Invalid(
            "unknown_table", f"Unknown table “{table}”; choose one of {', '.join(farkle.TABLES)}."
        )
    if not 1 <= days <= DAYS_MAX:
        raise Invalid("invalid", f"A challenge lasts 1 to {DAYS_MAX} days.")
    title = title_clean(title, max_length=TITLE_MAX_LENGTH) if title.strip() else ""
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
                    entry_minimum=entry_minimum,
                    farkle_penalty=farkle_penalty,
                    turn_seconds=turn_seconds,
                    commitment=farkle.commitment(farkle.challenge_seed(secret, code)),
                    opens_at=now,
                    ends_at=expires_at,
                    closes_at=expires_at,
                )
                challenge = Challenge.objects.create(
                    puzzle=puzzle, creator=creator, title=title, created_at=now
                )
                # Its optimal player, solved by a worker before anyone finishes a game.
                solutions.solve_later(puzzle.rules(), table)
                return challenge
        except IntegrityError:
            continue
    raise RuntimeError("No free challenge code in 10 draws.")
