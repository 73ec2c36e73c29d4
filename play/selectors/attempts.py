"""Reads of attempts and of the dailies they are played on."""

from __future__ import annotations

import datetime
import functools

from django.db import connection

from farkle_site.db import ModelColumns, statement_cursor
from play.models import Attempt, Player, Puzzle

_ATTEMPT = ModelColumns(Attempt, "a")
_PUZZLE = ModelColumns(Puzzle, "p")


def dailies_between(*, first: datetime.date, last: datetime.date) -> list[Puzzle]:
    """The dailies from ``first`` to ``last`` (inclusive), newest first."""
    return list(
        Puzzle.objects.filter(kind=Puzzle.Kind.DAILY, day__gte=first, day__lte=last).order_by(
            "-day"
        )
    )


def player_attempts_on(*, player: Player | None, puzzle: Puzzle) -> list[Attempt]:
    """The player's attempts on a puzzle, official first, then oldest first."""
    if player is None:
        return []
    return list(
        Attempt.objects.filter(player=player, puzzle=puzzle)
        .defer("actions")
        .order_by("-official", "started_at", "id")
    )


def attempt_visible(*, attempt_id: int, player: Player | None, now) -> Attempt | None:
    """An attempt the caller may see: their own, or a finished one once its puzzle has closed."""
    attempt = _attempt_with_puzzle(attempt_id, None)
    if attempt is None:
        return None
    if player is not None and attempt.player_id == player.pk:
        return attempt
    # docs/play.md: other players' roll-by-roll details stay hidden until the puzzle closes.
    if now >= attempt.puzzle.closes_at and attempt.state == Attempt.State.FINISHED:
        return attempt
    return None


def attempt_of_player(*, attempt_id: int, player_id: int | None) -> Attempt | None:
    """The player's own attempt ``attempt_id``, with its puzzle; None when it is someone else's."""
    if player_id is None:
        return None
    return _attempt_with_puzzle(attempt_id, player_id)


def _attempt_with_puzzle(attempt_id: int, player_id: int | None) -> Attempt | None:
    """Attempt ``attempt_id`` (of ``player_id`` when given) with its puzzle, or None.

    Every game action and every read of a game comes here: one hand-written statement rather
    than a compiled queryset (farkle_site.db.ModelColumns, issue 15).
    """
    if not 0 < attempt_id < 2**63:
        # No row has such an id; SQLite would refuse one beyond 64 bits (OverflowError).
        return None
    with statement_cursor(connection) as cursor:
        cursor.execute(
            _attempt_sql(connection.vendor, by_player=player_id is not None),
            [attempt_id] if player_id is None else [attempt_id, player_id],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    split = len(_ATTEMPT.fields)
    attempt = _ATTEMPT.build(connection, row[:split])
    attempt.puzzle = _PUZZLE.build(connection, row[split:])
    return attempt


@functools.cache
def _attempt_sql(vendor: str, *, by_player: bool) -> str:
    quote = connection.ops.quote_name
    player = f" AND a.{quote('player_id')} = %s" if by_player else ""
    return (
        f"SELECT {_ATTEMPT.select(connection)}, {_PUZZLE.select(connection)}"
        f" FROM {quote(Attempt._meta.db_table)} a"
        f" JOIN {quote(Puzzle._meta.db_table)} p ON p.{quote('id')} = a.{quote('puzzle_id')}"
        f" WHERE a.{quote('id')} = %s{player}"
    )
