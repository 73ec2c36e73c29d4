"""Writes of attempts: start one, act on one, count an official finished score."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from contextlib import nullcontext
from functools import partial
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F

import farkle
from daily.services.puzzles import daily_player_counted
from farkle_site.db import violated
from farkle_site.domain import Conflict, Invalid, NotFound
from play import game_cache
from play.models import Attempt, Player, Puzzle, ScoreCount
from play.selectors.attempts import attempt_of_player
from play.services.foresight import foresight_fields


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


class StalePuzzle(Exception):
    """The copy of the puzzle a start was given is not the row as it stands (a copy kept in the
    cache whose row has changed: closed, or another row under its id): start again from the row
    read afresh."""


def attempt_start(
    *, player: Player, puzzle: Puzzle, now: datetime.datetime, read: bool = True
) -> Attempt:
    """Start an attempt: the player's first on an open puzzle is official, any later one practice.

    Practice on an open puzzle plays dice of its own (issue 10: on the puzzle's dice a practice
    game would show the coming throws of everyone's official game); a closed daily is played
    from the archive on the puzzle's dice, as practice and without a deadline. During the grace
    after a daily ends, and after a challenge expires, nothing new starts. While the player's
    official game is unfinished no practice starts either: a double click or a second tab on
    "Play" must lead back to the one official game rather than to a practice game beside it.

    ``read``: ``puzzle`` was read from its row by this request. Otherwise it is a copy (the
    shared cache's daily, whose counters are not read for a start: nothing here needs them), and
    the start proves it: by the official start's count of the puzzle, conditional on the row
    being that copy's and still open, or (a start that counts no one) by a read of its id and
    commitment; StalePuzzle when it is not the row, for the caller to read the puzzle and start
    again.
    """
    attempt_start_allowed(puzzle=puzzle, now=now)
    # A closed puzzle is played from the archive, even should the close have come early.
    open_now = now < puzzle.ends_at and puzzle.closed_at is None
    fields = {
        "player": player,
        "puzzle": puzzle,
        "actions": [],
        "started_at": now,
        "updated_at": now,
        "deadline": puzzle.closes_at if open_now else None,
    }
    if not open_now:
        _proven(puzzle, read)
        return Attempt.objects.create(official=False, **fields)
    attempt = Attempt(official=True, **fields)
    counted = _official_insert(attempt)
    if counted is None:
        # The row is not the copy's, or closed since: a copy is read again; a row read by this
        # request closed between its read and this count.
        if not read:
            raise StalePuzzle
        raise Conflict(_closed_code(puzzle), "This puzzle is closed to new attempts.")
    if counted:
        transaction.on_commit(partial(daily_player_counted, puzzle))
        return attempt
    _proven(puzzle, read)
    official = Attempt.objects.get(player=player, puzzle=puzzle, official=True)
    if official.state != Attempt.State.FINISHED:
        raise Conflict(
            "wrong_state",
            "Finish your official game first; practice opens once it is over.",
            attempt_id=official.pk,
        )
    return Attempt.objects.create(official=False, dice_source=Attempt.DiceSource.OWN, **fields)


def retry_refusal(*, original: Attempt, now: datetime.datetime) -> Conflict | None:
    """Why no retry may start from the finished game ``original`` now, or None when one may.

    A retry on a puzzle's dice waits for its close (docs/fairness.md): after a choice other than
    the original's, the throws that follow are ones the puzzle's players have yet to roll, or
    may still roll in the grace after its end. A practice game's own dice are nobody else's.
    """
    if original.state != Attempt.State.FINISHED:
        return Conflict(
            "wrong_state", "This game is not finished: a retry starts from a finished game."
        )
    if original.dice_source == Attempt.DiceSource.OWN:
        return None
    puzzle = original.puzzle
    if puzzle.status(now) != Puzzle.Status.CLOSED:
        return Conflict(
            "not_closed",
            "This puzzle is still open: a retry on its dice would show throws its players have "
            "yet to roll. Retry once it has closed.",
            closes_at=puzzle.closes_at.isoformat().replace("+00:00", "Z"),
        )
    return None


def retry_actions(actions: list[dict[str, Any]], decision: int) -> list[dict[str, Any]]:
    """The stored actions before decision ``decision`` (0, 1, …): every decision of a game is one
    keep (``farkle.analysis``: one graded decision per kept throw, in order), so the game they
    replay waits for that keep. Invalid when the game has no such decision."""
    keeps = [i for i, action in enumerate(actions) if action.get("action") == "keep"]
    if not 0 <= decision < len(keeps):
        raise Invalid(
            "invalid_decision",
            f"This game has {len(keeps)} decisions, numbered from 0: there is no decision "
            f"{decision}.",
            decisions=len(keeps),
        )
    return actions[: keeps[decision]]


def attempt_retry(
    *, player: Player, original: Attempt, decision: int, now: datetime.datetime
) -> Attempt:
    """A practice game for ``player`` from decision ``decision`` of the finished game
    ``original``: its actions up to that decision, on the same dice (the puzzle's, or the
    practice game's own), the choice left to make again.

    A retry is practice: never official, so never ranked, counted or in a streak; it has no
    deadline (no puzzle's close ends it: it plays closed dice, or a practice game's own). On a
    timed challenge its turn's clock starts now.
    """
    refusal = retry_refusal(original=original, now=now)
    if refusal is not None:
        raise refusal
    actions = retry_actions(original.actions, decision)
    puzzle = original.puzzle
    own = original.dice_source == Attempt.DiceSource.OWN
    game = farkle.Game.replay(original.seed(), actions, puzzle.table, puzzle.rules())
    return Attempt.objects.create(
        player=player,
        puzzle=puzzle,
        official=False,
        dice_source=original.dice_source,
        retry_of=original,
        own_dice_of_id=(original.own_dice_of_id or original.pk) if own else None,
        actions=actions,
        state=game.state,
        step=game.step,
        turn=game.turn,
        score=game.score,
        started_at=now,
        updated_at=now,
        deadline=None,
        turn_started_at=now if puzzle.turn_seconds is not None else None,
    )


def _proven(puzzle: Puzzle, read: bool) -> None:
    """StalePuzzle unless ``puzzle`` was read by this request or its row is the copy's (a start
    that counts no one: one lean read, as the counters' read was)."""
    if not read and not Puzzle.objects.filter(pk=puzzle.pk, commitment=puzzle.commitment).exists():
        raise StalePuzzle


class _NotCounted(Exception):
    pass


def _official_insert(attempt: Attempt) -> bool | None:
    """Store ``attempt`` and count its player on the puzzle (True), unless the player has an
    official attempt there already (False: the partial unique index decides between two
    simultaneous first starts), or the puzzle's row is not the one ``attempt.puzzle`` copies or
    has closed (None: nothing stored).

    The insert comes first and the count last: the puzzle's row is the hottest of the midnight
    rush (every first start counts on it), and its lock is then held from the count to the
    commit only. The count is conditional on the row being the copy's (its id and commitment)
    and open, which proves a copy of the puzzle that was not read (and waits for a close
    holding the row, then sees it closed).
    """
    puzzle = attempt.puzzle
    try:
        with transaction.atomic():
            attempt.save(force_insert=True)
            counted = Puzzle.objects.filter(
                pk=puzzle.pk, commitment=puzzle.commitment, closed_at__isnull=True
            ).update(players=F("players") + 1)
            if counted != 1:
                raise _NotCounted  # rolls the insert back
    except _NotCounted:
        return None
    except IntegrityError as error:
        if not violated(error, "attempt_one_official_per_player_and_puzzle"):
            raise
        return False
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
    acted = _act_remembered(attempt_id, player_id, step, parsed, now)
    if acted is not None:
        return acted
    attempt = _attempt_of(attempt_id=attempt_id, player_id=player_id)
    game = _game(attempt)
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
        current_game = _game(current)
        _check_actionable(current, current_game, step=step, now=now)
        raise Conflict(
            "stale_step",
            "This game moved on meanwhile: reload it.",
            attempt_id=current.pk,
        )
    return attempt, game


def _act_remembered(
    attempt_id: int,
    player_id: int | None,
    step: int,
    action: farkle.Action,
    now: datetime.datetime,
) -> tuple[Attempt, farkle.Game] | None:
    """The action applied to the row and game this process last read or wrote for the attempt,
    and stored, without reading the row; None when that cannot be done so (not remembered here,
    another step, a refusal to explain, or the row moved on meanwhile), for the caller to read
    the row and act from it.

    The remembered row is the stored one as long as the stored one is still at that step and
    unfinished (play/game_cache.py); the write is conditional on exactly that, so a write that
    lands proves the row it was computed from. A refusal (a finished game, the close, the
    turn's clock, an action the engine refuses) is left to the long way, which reads the row:
    the answer then says why from the row as it stands, never from a remembered one.
    """
    if player_id is None:
        return None
    remembered = game_cache.attempt_of(attempt_id=attempt_id, player_id=player_id)
    if remembered is None:
        return None
    attempt, game = remembered
    if step != attempt.step or not _actionable(attempt, game, now=now) or _timed_out(attempt, now):
        return None
    try:
        game = game.apply(action)
    except farkle.FarkleError:
        return None
    changes = _changes(attempt, game, action, now=now)
    if not _write(attempt, game, changes, step=step):
        # Another process (or the close) wrote the row meanwhile: what is remembered is stale.
        game_cache.forget(attempt_id)
        return None
    return attempt, game


def attempt_game(attempt: Attempt) -> farkle.Game:
    """The game of an attempt just started or read (``Attempt.game``), remembered by this
    process so that its next action need not read the row (play/game_cache.py)."""
    return _game(attempt)


def _game(attempt: Attempt) -> farkle.Game:
    """The attempt's game (``Attempt.game``), its replay found in this process's cache of games
    when it holds the one of this row's step (play/game_cache.py)."""
    game = game_cache.game_of(attempt)
    return game.ended_by_close() if attempt.finalised_at_close else game


def attempt_clock(
    *, attempt: Attempt, game: farkle.Game | None = None, now: datetime.datetime
) -> tuple[Attempt, farkle.Game]:
    """The attempt with its turn timed out if the turn's clock ran out before ``now``.

    Seed 001: a game left alone loses its running turn when the time is up; applied when the
    game is next read or acted on (the challenge's close finalises what is never read again).
    The timeout is stored as an action, so every replay reproduces it.
    """
    game = _game(attempt) if game is None else game
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
    return attempt, _game(attempt)


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


def _store(attempt: Attempt, step: int, changes: dict[str, Any]) -> bool:
    """Write ``changes`` if the attempt is still at ``step`` and not finished (the close may have
    finalised it since it was read), and is still the game that started then; whether it was.

    The step condition makes the write exact (an optimistic lock): the stored list holds one
    action per step, the ones the game was replayed from, so of two writes computed from one
    step only the first lands. ``started_at`` tells the row from another that took its id (an
    id SQLite reuses after a delete); an attempt never changes player, so the row read or
    remembered as the player's is theirs. ``finished_at`` is null exactly while unfinished
    (the constraint ``attempt_finished_at_iff_finished``): each condition the ORM builds costs
    the action about 5 % of its CPU (docs/performance.md), so no redundant one.
    """
    stored = Attempt.objects.filter(
        pk=attempt.pk, started_at=attempt.started_at, step=step, finished_at=None
    ).update(**changes)
    return stored == 1


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


def score_count_add(*, puzzle: Puzzle, score: int, count: int = 1) -> int:
    """Count ``count`` more official finished attempts with ``score`` (inside the caller's
    transaction); the score's count after them, which is the last new attempt's
    ``score_position``.

    The row lock the increment takes, held to the caller's commit, serialises the attempts
    counted with one score: two finishes of a score never get one place, and the count read
    after the increment, under that lock, is this increment's."""
    counts = ScoreCount.objects.filter(puzzle=puzzle, score=score)
    if counts.update(count=F("count") + count) == 0:
        try:
            with transaction.atomic():
                ScoreCount.objects.create(puzzle=puzzle, score=score, count=count)
            return count
        except IntegrityError:
            # Another finish created the row first: count on it.
            counts.update(count=F("count") + count)
    return counts.values_list("count", flat=True).get()


def _position_store(attempt_id: int, position: int) -> None:
    """Store a counted attempt's place within its score (in the counting transaction)."""
    Attempt.objects.filter(pk=attempt_id).update(score_position=position)
