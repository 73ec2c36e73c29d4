"""Writes of attempts: start one, act on one, count an official finished score."""

from __future__ import annotations

import datetime
import json
import uuid
from collections.abc import Callable, Mapping
from contextlib import nullcontext
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

import orjson
from django.db import IntegrityError, connection, models, transaction
from django.db.models import F
from psycopg import sql as psycopg_sql

import farkle
from daily.services.puzzles import daily_player_counted, puzzle_row_condition
from farkle_site.db import statement_cursor, violated
from farkle_site.domain import Conflict, NotFound
from play import game_cache
from play.models import Attempt, Player, Puzzle, ScoreCount
from play.selectors.attempts import attempt_of_player
from play.services.foresight import foresight_fields

if TYPE_CHECKING:
    from farkle_site.sessions import SessionRow


def _closed_code(puzzle: Puzzle) -> str:
    return "day_closed" if puzzle.kind == Puzzle.Kind.DAILY else "challenge_closed"


def attempt_start_allowed(*, puzzle: Puzzle, now: datetime.datetime) -> None:
    """Refuse (Conflict) unless the puzzle takes new attempts now: open, or a daily's archive.

    Checked before anything is written (not even a guest player is created for a refusal).
    """
    if now < puzzle.opens_at:
        raise Conflict(
            "not_open",
            "This puzzle has not opened yet: only its commitment is public.",
            opens_at=puzzle.opens_at.isoformat().replace("+00:00", "Z"),
        )
    if puzzle.ends_at <= now < puzzle.closes_at or (
        now >= puzzle.closes_at and puzzle.kind != Puzzle.Kind.DAILY
    ):
        raise Conflict(_closed_code(puzzle), "This puzzle is closed to new attempts.")


def attempt_start(*, player: Player, puzzle: Puzzle, now: datetime.datetime) -> Attempt:
    """Start an attempt: the player's first on an open puzzle is official, any later one practice.

    Practice on an open puzzle plays dice of its own (issue 10: on the puzzle's dice a practice
    game would show the coming throws of everyone's official game); a closed daily is played
    from the archive on the puzzle's dice, as practice and without a deadline. During the grace
    after a daily ends, and after a challenge expires, nothing new starts. While the player's
    official game is unfinished no practice starts either: a double click or a second tab on
    "Play" must lead back to the one official game rather than to a practice game beside it.
    """
    attempt_start_allowed(puzzle=puzzle, now=now)
    open_now = now < puzzle.ends_at
    fields = {
        "player": player,
        "puzzle": puzzle,
        "actions": [],
        "started_at": now,
        "updated_at": now,
        "deadline": puzzle.closes_at if open_now else None,
    }
    if not open_now:
        return Attempt.objects.create(official=False, **fields)
    attempt = Attempt(official=True, **fields)
    if _official_insert(attempt):
        transaction.on_commit(partial(daily_player_counted, puzzle))
        return attempt
    official = Attempt.objects.get(player=player, puzzle=puzzle, official=True)
    if official.state != Attempt.State.FINISHED:
        raise Conflict(
            "wrong_state",
            "Finish your official game first; practice opens once it is over.",
            attempt_id=official.pk,
        )
    return Attempt.objects.create(official=False, dice_source=Attempt.DiceSource.OWN, **fields)


# The puzzle's count of players, one more when the statement's ``made`` CTE inserted an attempt.
_COUNTED = (
    'counted AS (UPDATE "daily_puzzle" SET "players" = "players" + 1 '
    'WHERE "id" = %s AND EXISTS (SELECT 1 FROM made))'
)


def new_guest_start_applies(*, puzzle: Puzzle, now: datetime.datetime) -> bool:
    """Whether a fresh browser's start on ``puzzle`` may take ``attempt_start_as_new_guest``:
    Postgres (its statement), and the puzzle still open (an archive's game is practice)."""
    return connection.vendor == "postgresql" and now < puzzle.ends_at


def attempt_start_as_new_guest(
    *,
    player_id: int,
    name: str,
    browser_id: uuid.UUID | None,
    session_row: SessionRow | None,
    puzzle: Puzzle,
    now: datetime.datetime,
) -> Attempt | None:
    """A browser's first game on an open puzzle (every player of the midnight rush): its guest
    (named ``name``, under ``player_id`` from ``player_id_reserve``), its official attempt, and
    the browser's new session naming the guest (``session_row``, when given), stored and counted
    in one statement. None, with nothing stored, when the guest cannot be created so (the browser
    has its player already, someone holds the name or the id, the session's key is taken), the
    puzzle is not open, or ``puzzle`` (a process's copy) is not of the row that stands under its
    id: the caller then takes the usual way (``player_for_browser``, ``attempt_start``) on a
    proven puzzle. The attempt's ``player`` is the new guest.
    """
    attempt_start_allowed(puzzle=puzzle, now=now)
    if not new_guest_start_applies(puzzle=puzzle, now=now):
        return None
    player, attempt = _new_guest_game(
        player_id=player_id, name=name, browser_id=browser_id, puzzle=puzzle, now=now
    )
    # The puzzle may be a process's copy, unproven (``daily_get_or_create``): nothing is stored
    # unless its row is the one the copy was made of.
    same_row, same_row_params = puzzle_row_condition("p", puzzle)
    # The session's row, naming the guest, stored only with it.
    session = None if session_row is None else (session_row.table, session_row.columns)
    with statement_cursor(connection) as cursor:
        sql, player_values, attempt_values = _guest_statement(same_row, session)
        params = [
            *(value_of(player) for value_of in player_values),
            *same_row_params,
            *(() if session_row is None else session_row.values),
            *(value_of(attempt) for value_of in attempt_values),
            puzzle.pk,
        ]
        try:
            # A savepoint in a transaction of the caller's, which a refused session must not spoil.
            with transaction.atomic() if connection.in_atomic_block else nullcontext():
                cursor.execute(sql, params)
        except IntegrityError as error:
            # The session's key is taken (one chance in 36**32): the usual way draws another.
            if session_row is None or not _key_taken(error, f"{session_row.table}_pkey"):
                raise
            return None
        row = cursor.fetchone()
    if row is None:
        return None
    for instance, pk in zip((player, attempt), row, strict=True):
        instance.pk = pk
        instance._state.adding = False
        instance._state.db = connection.alias
    attempt.player = player
    transaction.on_commit(partial(daily_player_counted, puzzle))
    return attempt


def _new_guest_game(
    *, player_id: int, name: str, browser_id: uuid.UUID | None, puzzle: Puzzle, now
) -> tuple[Player, Attempt]:
    """The guest and its official attempt that ``attempt_start_as_new_guest`` stores, unsaved."""
    player = Player(pk=player_id, display_name=name, browser_id=browser_id, created_at=now)
    attempt = Attempt(
        player=player,
        puzzle=puzzle,
        official=True,
        actions=[],
        started_at=now,
        updated_at=now,
        deadline=puzzle.closes_at,
    )
    return player, attempt


def _key_taken(error: IntegrityError, constraint: str) -> bool:
    # Postgres only (the one database with this statement): a unique violation of exactly that
    # constraint, never another error that names none (a column's NOT NULL).
    cause = error.__cause__
    name = getattr(getattr(cause, "diag", None), "constraint_name", None)
    return getattr(cause, "sqlstate", None) == "23505" and name == constraint


# A new guest's official attempt: the fields that differ from one start to the next; every other
# field holds its default, the same in every start.
_VARYING = ("puzzle", "started_at", "updated_at", "deadline")
# The guest's fields its statement writes, in the order of its placeholders and values.
_GUEST_FIELDS = ("id", "display_name", "browser_id", "created_at")


@lru_cache(maxsize=8)
def _guest_statement(same_row: str, session: tuple[str, tuple[str, ...]] | None) -> tuple:
    """``attempt_start_as_new_guest``'s statement for the puzzle's condition ``same_row`` (a
    day's or a challenge's) and the session's table and columns, or none, and the functions that
    give the guest's and the attempt's values as Django would save them, in order: written once
    per process and shape (a handful) rather than in every start of the midnight rush (issue
    15). Postgres only, inside a cursor's block (``_constants_sql``)."""
    qn = connection.ops.quote_name
    guest_fields = [Player._meta.get_field(name) for name in _GUEST_FIELDS]
    varying = [Attempt._meta.get_field(name) for name in _VARYING]
    session_sql = ""
    if session is not None:
        table, columns = session
        session_sql = (
            f"browser AS (INSERT INTO {qn(table)} ({', '.join(qn(c) for c in columns)}) "
            f"SELECT {', '.join(['%s'] * len(columns))} FROM guest), "
        )
    constants = _constants_sql()
    pk = qn(Player._meta.pk.column)
    sql = (
        f"WITH guest AS (INSERT INTO {qn(Player._meta.db_table)} "
        f"({', '.join(qn(f.column) for f in guest_fields)}) "
        f"SELECT {', '.join(['%s'] * len(guest_fields))} "
        f"WHERE EXISTS (SELECT 1 FROM {qn(Puzzle._meta.db_table)} AS p WHERE {same_row}) "
        # Any unique index: the browser's (it has a player), the name's (someone has it), the
        # id's (a database whose sequence started again since the id was reserved).
        f"ON CONFLICT DO NOTHING RETURNING {pk}), "
        f"{session_sql}"
        # A new player has no official attempt: nothing to conflict with.
        f"made AS (INSERT INTO {qn(Attempt._meta.db_table)} "
        f"({qn('player_id')}, {', '.join(qn(f.column) for f in varying)}, {constants[0]}) "
        f"SELECT guest.{pk}, {', '.join(['%s'] * len(varying))}, "
        f"{constants[1]} FROM guest RETURNING {qn(Attempt._meta.pk.column)}), "
        f"{_COUNTED} SELECT guest.{pk}, made.{qn(Attempt._meta.pk.column)} "
        "FROM guest CROSS JOIN made"
    )

    def stored(field):
        # The guest's value as given, without pre_save: the caller sets its creation, and no
        # field of a player is set on saving (an auto_now one would need pre_save, as below).
        prepare = _prepare_plainly(field, connection.vendor)
        return lambda player: prepare(getattr(player, field.attname))

    def pre_saved(field):
        # The attempt's value as Django would save it (``pre_save``: an auto_now field's now).
        prepare = _prepare_plainly(field, connection.vendor)
        return lambda attempt: prepare(field.pre_save(attempt, add=True))

    return sql, tuple(map(stored, guest_fields)), tuple(map(pre_saved, varying))


_constants: tuple[str, str] | None = None


def _constants_sql() -> tuple[str, str]:
    """The columns of a new guest's official attempt that hold the same value in every start, and
    those values as SQL literals (psycopg's quoting), written once per process: sent as
    parameters, they were adapted again in every start, a fifth of its statement's parameters'
    cost (issue 15). The statement itself is prepared by Postgres after a few runs (settings,
    ``prepare_threshold``; not with ``DATABASE_PREPARED_STATEMENTS=0``). Postgres only, inside a
    cursor's block (the connection is open)."""
    global _constants
    if _constants is None:
        template = Attempt(official=True, actions=[])
        fields = [
            f
            for f in Attempt._meta.concrete_fields
            if not f.primary_key and f.attname != "player_id" and f.name not in _VARYING
        ]
        values = [f.get_db_prep_save(f.pre_save(template, add=True), connection) for f in fields]
        _constants = (
            ", ".join(connection.ops.quote_name(f.column) for f in fields),
            # Escaped for the placeholders' parsing, which the statement still goes through.
            ", ".join(
                psycopg_sql.Literal(v).as_string(connection.connection).replace("%", "%%")
                for v in values
            ),
        )
    return _constants


def _official_insert(attempt: Attempt) -> bool:
    """Store ``attempt`` and count its player on the puzzle, unless the player has an official
    attempt there already (False): the partial unique index decides between two simultaneous
    first starts.

    One statement, committed on its own: the puzzle's row is the hottest of the midnight rush
    (every first start counts on it), and a transaction of several statements would hold its
    lock across round trips to a busy web process (a thread waiting for the GIL between the
    UPDATE and the COMMIT stalls every start behind it). Here the lock lasts the commit only.
    """
    if connection.vendor != "postgresql":
        # SQLite (development only) has no INSERT inside WITH.
        try:
            with transaction.atomic():
                attempt.save(force_insert=True)
                Puzzle.objects.filter(pk=attempt.puzzle_id).update(players=F("players") + 1)
        except IntegrityError as error:
            if not violated(error, "attempt_one_official_per_player_and_puzzle"):
                raise
            return False
        return True
    qn = connection.ops.quote_name
    fields = [f for f in Attempt._meta.concrete_fields if not f.primary_key]
    values = [f.get_db_prep_save(f.pre_save(attempt, add=True), connection) for f in fields]
    sql = (
        f"WITH made AS (INSERT INTO {qn(Attempt._meta.db_table)} "
        f"({', '.join(qn(f.column) for f in fields)}) VALUES ({', '.join(['%s'] * len(fields))}) "
        # The target is attempt_one_official_per_player_and_puzzle, partial index and all.
        f"ON CONFLICT ({qn('player_id')}, {qn('puzzle_id')}) WHERE {qn('official')} DO NOTHING "
        f"RETURNING {qn(Attempt._meta.pk.column)}), "
        f"{_COUNTED} SELECT {qn(Attempt._meta.pk.column)} FROM made"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values, attempt.puzzle_id])
        row = cursor.fetchone()
    if row is None:
        return False
    attempt.pk = row[0]
    attempt._state.adding = False
    attempt._state.db = connection.alias
    return True


def attempt_act(
    *,
    attempt_id: int,
    player_id: int | None,
    step: int,
    action: Mapping[str, Any],
    now: datetime.datetime,
) -> tuple[Attempt, farkle.Game]:
    """Apply one action to the player's attempt, if ``step`` is the one the client last saw.

    Of a double click or a retried request, one moves the step on and the other finds it moved
    (``stale_step``), so nothing ever rolls twice. On a timed challenge an action after the
    turn's time is refused (``turn_timed_out``) and the turn ends with nothing banked.
    """
    parsed = farkle.action_from_dict(action)
    remembered = game_cache.latest(attempt_id)
    if remembered is not None:
        done = _act_remembered(*remembered, player_id=player_id, step=step, action=parsed, now=now)
        if done is not None:
            return done
    attempt = _attempt_of(attempt_id=attempt_id, player_id=player_id)
    game = attempt.game()
    if _actionable(attempt, game, now=now) and _timed_out(attempt, now):
        # Seed 001: an action the server receives at or after the turn's end is refused, and
        # the turn ends with nothing banked.
        attempt_clock(attempt=attempt, game=game, now=now)
        raise Conflict(
            "turn_timed_out",
            "The turn's time ran out before this action: the turn ended with nothing banked.",
            attempt_id=attempt.pk,
        )
    _check_actionable(attempt, game, step=step, now=now)
    game = game.apply(parsed)
    changes = _changes(attempt, game, parsed, now=now)
    counted = _write(attempt, game, changes, step=step)
    if not counted:
        # Another action, or the close, came first: answer with the game as it now is.
        current = _attempt_of(attempt_id=attempt_id, player_id=player_id)
        current_game = current.game()
        _check_actionable(current, current_game, step=step, now=now)
        raise Conflict(
            "stale_step",
            "This game moved on meanwhile: reload it.",
            attempt_id=current.pk,
        )
    return attempt, game


def _act_remembered(
    attempt: Attempt,
    game: farkle.Game,
    *,
    player_id: int | None,
    step: int,
    action: farkle.Action,
    now: datetime.datetime,
) -> tuple[Attempt, farkle.Game] | None:
    """The action applied to the attempt as this process last read or wrote it, without reading
    it again (daily/game_cache.py); None when anything is not plainly accepted, for the full path
    to read the row and answer (a refusal always comes from the row as it stands)."""
    if attempt.player_id != player_id or attempt.step != step:
        return None
    if not _actionable(attempt, game, now=now) or _timed_out(attempt, now):
        return None
    try:
        moved = game.apply(action)
    except farkle.FarkleError:
        return None
    if not _write(attempt, moved, _changes(attempt, moved, action, now=now), step=step):
        return None
    game_cache.check_row(attempt, moved)
    return attempt, moved


def attempt_clock(
    *, attempt: Attempt, game: farkle.Game | None = None, now: datetime.datetime
) -> tuple[Attempt, farkle.Game]:
    """The attempt with its turn timed out if the turn's clock ran out before ``now``.

    Seed 001: a game left alone loses its running turn when the time is up; applied when the
    game is next read or acted on (the challenge's close finalises what is never read again).
    The timeout is stored as an action, so every replay reproduces it.
    """
    game = attempt.game() if game is None else game
    if not (_actionable(attempt, game, now=now) and _timed_out(attempt, now)):
        return attempt, game
    ended = attempt.turn_deadline()
    timed_out = game.time_out(game.turn)
    changes = _changes(attempt, timed_out, farkle.TimeOut(game.turn), now=ended)
    changes["updated_at"] = now
    if _write(attempt, timed_out, changes, step=attempt.step):
        return attempt, timed_out
    # An action or another read wrote first: the game as it now is.
    attempt.refresh_from_db()
    return attempt, attempt.game()


def _timed_out(attempt: Attempt, now: datetime.datetime) -> bool:
    deadline = attempt.turn_deadline()
    # Seed 001: «A l'instant exact, elle est refusée».
    return deadline is not None and now >= deadline


def _changes(
    attempt: Attempt, game: farkle.Game, action: farkle.Action, *, now: datetime.datetime
) -> dict[str, Any]:
    """The stored fields after ``action`` made ``game``, at ``now``."""
    changes = {
        "actions": [*attempt.actions, action.to_dict()],
        "state": game.state,
        "step": game.step,
        "turn": game.turn,
        "score": game.score,
        "updated_at": now,
        "finished_at": now if game.finished else None,
    }
    if attempt.puzzle.turn_seconds is not None:
        # Seed 001: a turn's time starts when its first throw is served and runs to its end.
        started = attempt.turn_started_at
        if started is None and isinstance(action, farkle.Roll):
            started = now
        if game.finished or game.turn != attempt.turn:
            taken = datetime.timedelta() if started is None else now - started
            changes["time_taken"] = attempt.time_taken + taken
            started = None
        changes["turn_started_at"] = started
    return changes


def _write(attempt: Attempt, game: farkle.Game, changes: dict[str, Any], *, step: int) -> bool:
    """Store ``changes`` if the attempt is still at ``step`` and unfinished; False otherwise.

    The write is a conditional update on the step the action was computed from (an optimistic
    lock). Only a finishing official game needs a transaction, to count its score with it.
    """
    counted = game.finished and attempt.official
    if counted:
        # Checked once, as the game finishes: a held game is not counted (docs/foresight.md).
        changes.update(foresight_fields(puzzle=attempt.puzzle, actions=changes["actions"]))
        counted = not changes["held"]
    with transaction.atomic() if counted else nullcontext():
        if not _store(attempt, step, changes):
            return False
        if counted:
            # Its place among the score's attempts, the leaderboard's order of ties: one more
            # small write of the row just written, in the same transaction. Not folded into that
            # write: the place is known once the count is locked, and the count must be locked
            # after the row, the order the close takes them in (the other order deadlocks).
            changes["score_position"] = score_count_add(puzzle=attempt.puzzle, score=game.score)
            _position_store(attempt.pk, changes["score_position"])
    for field, value in changes.items():
        setattr(attempt, field, value)
    game_cache.remember(attempt, game)
    return True


_STARTED_AT = Attempt._meta.get_field("started_at")


# Django's own field classes, whose preparation ``_prepare_plainly`` gives.
_PLAIN_FIELDS = frozenset(
    {
        models.IntegerField,
        models.SmallIntegerField,
        models.BigIntegerField,
        models.PositiveIntegerField,
        models.PositiveSmallIntegerField,
        models.PositiveBigIntegerField,
        models.CharField,
        models.DateTimeField,
        models.DurationField,
    }
)


def _prepare_plainly(field, vendor: str) -> Callable[[Any], Any]:
    """Django's ``field.get_db_prep_save`` of a value, on Postgres, without its chain of calls for
    the values an action writes to Django's own fields. An ``int`` of an integer field is
    wrapped in the integer type Django gives psycopg (so that the prepared statement's parameter
    types do not vary); a ``str`` of a character field, an aware ``datetime`` of a date-time
    field (Django warns of and converts naive ones only: those without an offset), a
    ``timedelta`` of a duration (a native interval) and a ``None`` are Django's own answer
    already. Anything else goes to Django. Six fields' values cost 22 µs through Django, 2 % of
    an action in process (issue 15)."""
    prepare = field.get_db_prep_save
    if vendor != "postgresql" or type(field) not in _PLAIN_FIELDS:
        # (A field class of its own may prepare its values its own way.)
        return lambda value: prepare(value, connection)
    kind = field.get_internal_type()
    wrap = getattr(connection.ops, "integerfield_type_map", {}).get(kind)
    if wrap is not None:
        return lambda value: wrap(value) if type(value) is int else prepare(value, connection)
    plain = {
        "CharField": str,
        "DateTimeField": datetime.datetime,
        "DurationField": datetime.timedelta,
    }.get(kind)
    if plain is None:
        return lambda value: prepare(value, connection)
    if plain is datetime.datetime:
        return lambda value: (
            value
            if value is None or (type(value) is plain and value.utcoffset() is not None)
            else prepare(value, connection)
        )
    return lambda value: (
        value if value is None or type(value) is plain else prepare(value, connection)
    )


@lru_cache(maxsize=32)
def _store_sql(vendor: str, names: tuple[str, ...]) -> tuple[str, tuple, Callable[[Any], Any]]:
    """The statement ``_store`` runs for these changed fields (the actions apart), how each
    field's value is prepared, in order, and how the start is: written once per process and set
    of fields (a handful)."""
    quote = connection.ops.quote_name
    meta = Attempt._meta
    fields = tuple(meta.get_field(name) for name in names)
    assignments = [f"{quote(field.column)} = %s" for field in fields]
    actions = quote(meta.get_field("actions").column)
    if vendor == "postgresql":
        # The action comes as JSON text (``_store``), cast here.
        assignments.append(f"{actions} = {actions} || %s::jsonb")
    else:
        # SQLite (the embedded development default): its JSON functions append in place.
        assignments.append(f"{actions} = json_insert({actions}, '$[#]', json(%s))")
    sql = (
        f"UPDATE {quote(meta.db_table)} SET {', '.join(assignments)}"
        f" WHERE {quote('id')} = %s AND {quote('player_id')} = %s"
        f" AND {quote('started_at')} = %s AND {quote('step')} = %s AND {quote('state')} <> %s"
    )
    prepares = tuple((field.name, _prepare_plainly(field, vendor)) for field in fields)
    return sql, prepares, _prepare_plainly(_STARTED_AT, vendor)


def _store(attempt: Attempt, step: int, changes: dict[str, Any]) -> bool:
    """Write ``changes`` if the attempt is still at ``step`` and not finished (the close may have
    finalised it since it was read), and is still the same player's game that started then
    (an action may start from the row as this process last saw it); whether it was.

    The hottest write of the site (issue 15), hand-written: the new action is appended to the
    stored list in the database rather than the whole list sent back, and no queryset is
    compiled. The step condition makes the append exact: the stored list holds one action per
    step, the ones the game was replayed from.
    """
    names = tuple(name for name in changes if name != "actions")
    sql, prepares, prepare_started_at = _store_sql(connection.vendor, names)
    params = [prepare(changes[name]) for name, prepare in prepares]
    appended = changes["actions"][-1]
    if connection.vendor == "postgresql":
        # Text for the statement's cast, written by orjson: Django's Jsonb parameter went
        # through psycopg's JSON dumper and Python's encoder, 3 % of an action's CPU (issue 15).
        # An action's dict holds ints, strings and a list of ints: the same JSON value either way.
        params.append(orjson.dumps([appended]).decode())
    else:
        params.append(json.dumps(appended))
    started_at = prepare_started_at(attempt.started_at)
    with statement_cursor(connection) as cursor:
        cursor.execute(
            sql, [*params, attempt.pk, attempt.player_id, started_at, step, Attempt.State.FINISHED]
        )
        return cursor.rowcount == 1


def _attempt_of(*, attempt_id: int, player_id: int | None) -> Attempt:
    attempt = attempt_of_player(attempt_id=attempt_id, player_id=player_id)
    if attempt is None:
        raise NotFound("not_found", "No such attempt.")
    return attempt


def _actionable(attempt: Attempt, game: farkle.Game, *, now: datetime.datetime) -> bool:
    return not (
        attempt.finalised_at_close
        or game.finished
        or (attempt.deadline is not None and now >= attempt.deadline)
    )


def _check_actionable(
    attempt: Attempt, game: farkle.Game, *, step: int, now: datetime.datetime
) -> None:
    """Conflict, with the attempt as it stands, when no action can be taken at ``step`` now."""
    if attempt.finalised_at_close:
        raise Conflict(
            _closed_code(attempt.puzzle),
            "This puzzle closed; the game ended with its banked points.",
            attempt_id=attempt.pk,
        )
    if game.finished:
        raise Conflict("finished", "This game is over.", attempt_id=attempt.pk)
    if attempt.deadline is not None and now >= attempt.deadline:
        raise Conflict(
            _closed_code(attempt.puzzle),
            "This puzzle closed; the action came too late.",
            attempt_id=attempt.pk,
        )
    if step != attempt.step:
        raise Conflict(
            "stale_step",
            f"This game is at step {attempt.step}, not {step}: reload it.",
            attempt_id=attempt.pk,
        )


# Written out for its RETURNING (Postgres; SQLite from 3.35): the count after the increment is
# the new attempts' last place within the score, read under the row lock the increment takes.
_SCORE_COUNT_ADD = (
    "UPDATE daily_scorecount SET count = count + %s WHERE puzzle_id = %s AND score = %s "
    "RETURNING count"
)


def score_count_add(*, puzzle: Puzzle, score: int, count: int = 1) -> int:
    """Count ``count`` more official finished attempts with ``score`` (inside the caller's
    transaction); the score's count after them, which is the last new attempt's
    ``score_position``.

    The row lock the increment takes, held to the caller's commit, serialises the attempts
    counted with one score: two finishes of a score never get one place."""
    with connection.cursor() as cursor:
        cursor.execute(_SCORE_COUNT_ADD, [count, puzzle.pk, score])
        row = cursor.fetchone()
        if row is not None:
            return row[0]
        try:
            with transaction.atomic():
                ScoreCount.objects.create(puzzle=puzzle, score=score, count=count)
            return count
        except IntegrityError:
            # Another finish created the row first: count on it.
            cursor.execute(_SCORE_COUNT_ADD, [count, puzzle.pk, score])
            return cursor.fetchone()[0]


def _position_store(attempt_id: int, position: int) -> None:
    """Store a counted attempt's place within its score (in the counting transaction)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE daily_attempt SET score_position = %s WHERE id = %s", [position, attempt_id]
        )
