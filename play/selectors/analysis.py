"""Reads after the game: a finished attempt's graded decisions, the bots on the same dice, and the
coach of a practice game, with who may see what when (docs/analysis.md, issue 12).

The fairness rules: a player's own analysis uses only the throws they rolled, so it is theirs as
soon as the game is finished. The bots play throws the player never rolled: before the puzzle
closes only their scores are shown, and only to a player whose official game on the puzzle is
finished; their games throw by throw, and anyone else's game, only once the puzzle has closed.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from functools import lru_cache

from django.db.models import Count, Q

import farkle
from farkle.analysis import Advice, Analysis, analyse, coach
from farkle.bots import HARD, BotGame, play_all
from farkle_site.domain import Conflict, NotFound
from play.models import Attempt, Player, Puzzle
from play.rules.accuracy import AccuracyStanding, accuracy_tenths
from play.selectors.attempts import attempt_of_player, attempt_visible, official_finished


@dataclass(frozen=True)
class AttemptAnalysis:
    """A finished attempt's analysis and, as far as the caller may see them, the bots' games."""

    attempt: Attempt
    game: farkle.Game
    analysis: Analysis
    # None: the bots' scores are hidden from this caller for now.
    bots: dict[str, BotGame] | None
    # Whether the bots' games may be shown throw by throw (else only their scores).
    bot_games: bool
    # Where its accuracy stands among the puzzle's games their players finished (issue 40);
    # None unless it is one of them.
    standing: AccuracyStanding | None = None


@lru_cache(maxsize=512)
def bots_on(
    seed: bytes, table: str, rules: farkle.HouseRules = farkle.NO_HOUSE_RULES
) -> dict[str, BotGame]:
    """The three bots' games on a seed's dice under a challenge's house rules (deterministic,
    so kept per process: the rules are part of the key)."""
    return play_all(seed, table, rules)


def _closed(puzzle: Puzzle, now: datetime.datetime) -> bool:
    return now >= puzzle.closes_at


def bots_visible(*, attempt: Attempt, player: Player | None, now: datetime.datetime) -> bool:
    """Whether the caller may see the bots' scores on this finished attempt's dice."""
    if _closed(attempt.puzzle, now) or attempt.dice_source == Attempt.DiceSource.OWN:
        return True
    if player is not None and attempt.official and attempt.player_id == player.pk:
        return True
    return official_finished(player=player, puzzle=attempt.puzzle)


def attempt_analysis(
    *, attempt_id: int, player: Player | None, now: datetime.datetime
) -> AttemptAnalysis:
    """The analysis of a finished attempt the caller may see (their own, or anyone's once the
    puzzle has closed); a refusal otherwise."""
    attempt = attempt_visible(attempt_id=attempt_id, player=player, now=now)
    if attempt is None:
        raise NotFound("not_found", "No such attempt.")
    game = attempt.game()
    if not game.finished:
        raise Conflict("wrong_state", "The analysis comes once the game is finished.")
    shown = bots_visible(attempt=attempt, player=player, now=now)
    analysis = analyse(game)
    # A practice game's own dice are revealed with it (its seed), so its bots may show them too.
    games = _closed(attempt.puzzle, now) or attempt.dice_source == Attempt.DiceSource.OWN
    return AttemptAnalysis(
        attempt=attempt,
        game=game,
        analysis=analysis,
        standing=accuracy_standing(attempt=attempt, analysis=analysis),
        bots=bots_on(attempt.seed(), attempt.puzzle.table, attempt.puzzle.rules())
        if shown
        else None,
        bot_games=games,
    )


def _finished_by_player(attempt: Attempt) -> bool:
    """An official game its player finished, ranked (not held): one the standing counts."""
    return (
        attempt.official
        and attempt.finished_at is not None
        and not attempt.held
        and not attempt.finalised_at_close
    )


def accuracy_standing(*, attempt: Attempt, analysis: Analysis) -> AccuracyStanding | None:
    """Where a finished official game's accuracy stands among the games of its puzzle that their
    players finished and that are ranked (the close's cut games and held games are not); None for
    any other game.

    Only ever asked of a game its caller may see analysed: their own finished one (so they have
    played), or anyone's once the puzzle has closed. One count over the index
    ``attempt_accuracy``, in proportion to the puzzle's finished games (docs/performance.md)."""
    if not _finished_by_player(attempt):
        return None
    mine = accuracy_tenths(analysis)
    if attempt.accuracy_tenths is None:
        # Finished before accuracy was kept: graded now, once.
        Attempt.objects.filter(pk=attempt.pk, accuracy_tenths__isnull=True).update(
            accuracy_tenths=mine
        )
        attempt.accuracy_tenths = mine
    counts = Attempt.objects.filter(
        puzzle_id=attempt.puzzle_id,
        official=True,
        finished_at__isnull=False,
        held=False,
        finalised_at_close=False,
        accuracy_tenths__isnull=False,
    ).aggregate(
        higher=Count("accuracy_tenths", filter=Q(accuracy_tenths__gt=mine)),
        same=Count("accuracy_tenths", filter=Q(accuracy_tenths=mine)),
        players=Count("accuracy_tenths"),
    )
    return AccuracyStanding(
        rank=1 + counts["higher"], tied=counts["same"] > 1, players=counts["players"]
    )


def reference_score(
    *, puzzle: Puzzle, player: Player | None, now: datetime.datetime, ranked: bool = False
) -> int | None:
    """The optimal player's score on the puzzle's dice, for its leaderboard's reference row:
    after the close, or to a caller whose official game on it is finished (``ranked``: known
    finished already, which spares the query); None otherwise."""
    shown = ranked or _closed(puzzle, now) or official_finished(player=player, puzzle=puzzle)
    if not shown:
        return None
    return bots_on(puzzle.seed(), puzzle.table, puzzle.rules())[HARD].score


def attempt_coach(*, attempt_id: int, player: Player | None) -> tuple[Attempt, Advice | None]:
    """Advice for the decision the caller's own practice game waits for; refused on an official
    game (it counts) and on anyone else's."""
    attempt = attempt_of_player(attempt_id=attempt_id, player_id=player and player.pk)
    if attempt is None:
        raise NotFound("not_found", "No such attempt.")
    if attempt.official:
        raise Conflict(
            "wrong_state", "The coach helps in practice only, never in a game that counts."
        )
    return attempt, coach(attempt.game())
