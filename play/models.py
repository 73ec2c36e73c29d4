"""Players, puzzles (a day's or a challenge's dice), attempts and the leaderboard's score counts."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

import farkle
from farkle.fair import practice_seed

# docs/play.md: actions on a daily's attempts are accepted until the next 00:00 UTC plus this grace.
DAILY_GRACE = datetime.timedelta(seconds=90)
# Seed 001's timed modes: the seconds a challenge may give each turn.
TURN_SECONDS = (30, 60, 90)


class Player(models.Model):
    """Someone who plays: a browser's guest, optionally adopted by an account."""

    display_name = models.CharField(max_length=24)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    # The browser's own random id (a cookie), so that a double click on a fresh browser finds one
    # guest rather than creating two; cleared once an account adopts the player.
    browser_id = models.UUIDField(null=True, blank=True, unique=True)
    created_at = models.DateTimeField()

    class Meta:
        # Each table here keeps the name it had when these models lived in daily/: a move of
        # code, not of data (play/migrations/0001_initial.py).
        db_table = "daily_player"
        constraints = [
            models.UniqueConstraint(Lower("display_name"), name="player_display_name_unique_ci"),
            models.CheckConstraint(
                condition=Q(display_name__regex=r"^.{3,24}$"), name="player_display_name_length"
            ),
        ]

    def __str__(self) -> str:
        return self.display_name


class Puzzle(models.Model):
    """The dice everyone shares: a UTC day's daily, or a friend challenge keyed by its code."""

    class Kind(models.TextChoices):
        DAILY = "daily"
        CHALLENGE = "challenge"

    class Status(models.TextChoices):
        UPCOMING = "upcoming"
        OPEN = "open"
        # docs/play.md: after a daily ends, games in progress may finish; nothing new starts.
        GRACE = "grace"
        CLOSED = "closed"

    kind = models.CharField(max_length=9, choices=Kind.choices)
    day = models.DateField(null=True, blank=True)
    code = models.CharField(max_length=6, blank=True)
    table = models.CharField(max_length=32, default=farkle.DEFAULT_TABLE)
    # SHA-256 of the seed, public from creation; the seed itself is never stored: it is derived
    # from the server secret when needed, and published by the API once the puzzle is closed.
    commitment = models.CharField(max_length=64)
    opens_at = models.DateTimeField()
    # Official play ends here: the next 00:00 UTC of a daily, the expiry of a challenge.
    ends_at = models.DateTimeField()
    # Actions are refused from this instant on (docs/play.md: ends_at plus the daily's grace).
    closes_at = models.DateTimeField()
    # Official attempts started (counted by attempt_start), finished or not: the leaderboard
    # counts its finished games apart (Leaderboard.ranked).
    players = models.PositiveIntegerField(default=0)
    # Challenge options (issue 14), chosen at creation and never changed; the daily has none
    # (seed 000). House rules of the game value (farkle.HouseRules), zero meaning off:
    entry_minimum = models.PositiveIntegerField(default=0)
    farkle_penalty = models.PositiveIntegerField(default=0)
    # Seed 001's fixed time per turn, in seconds; None: untimed.
    turn_seconds = models.PositiveSmallIntegerField(null=True, blank=True)
    # Set by the close (docs/operations.md) once late games are finalised and ranks frozen.
    closed_at = models.DateTimeField(null=True, blank=True)
    # The final statistics frozen at close: players, mean, median, best, distribution.
    final_stats = models.JSONField(null=True, blank=True)
    # A closed daily's players rated (play.services.ratings), after its close, in day order.
    rated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "daily_puzzle"
        constraints = [
            models.UniqueConstraint(
                fields=["day"], condition=Q(kind="daily"), name="puzzle_one_daily_per_day"
            ),
            models.UniqueConstraint(
                fields=["code"], condition=Q(kind="challenge"), name="puzzle_challenge_code_unique"
            ),
            models.CheckConstraint(
                condition=Q(kind="daily", day__isnull=False, code="")
                | (Q(kind="challenge", day__isnull=True) & ~Q(code="")),
                name="puzzle_keyed_by_day_or_code",
            ),
            models.CheckConstraint(
                condition=Q(opens_at__lt=models.F("ends_at"))
                & Q(ends_at__lte=models.F("closes_at")),
                name="puzzle_times_in_order",
            ),
            models.CheckConstraint(
                condition=Q(entry_minimum__in=farkle.ENTRY_MINIMUMS),
                name="puzzle_entry_minimum_allowed",
            ),
            models.CheckConstraint(
                condition=Q(farkle_penalty__in=farkle.FARKLE_PENALTIES),
                name="puzzle_farkle_penalty_allowed",
            ),
            models.CheckConstraint(
                condition=Q(turn_seconds__isnull=True) | Q(turn_seconds__in=TURN_SECONDS),
                name="puzzle_turn_seconds_allowed",
            ),
            # Seed 000: the daily applies the table exactly, with no house rule and no clock.
            models.CheckConstraint(
                condition=~Q(kind="daily")
                | Q(entry_minimum=0, farkle_penalty=0, turn_seconds__isnull=True),
                name="puzzle_daily_has_no_options",
            ),
        ]

    def __str__(self) -> str:
        return f"daily {self.day}" if self.kind == self.Kind.DAILY else f"challenge {self.code}"

    def seed(self) -> bytes:
        """The puzzle's seed, from the server secret (docs/fairness.md)."""
        secret = settings.FARKLE_SEED_SECRET.encode()
        if self.kind == self.Kind.DAILY:
            return farkle.daily_seed(secret, self.day)
        return farkle.challenge_seed(secret, self.code)

    def rules(self) -> farkle.HouseRules:
        """The house rules every game of this puzzle is played under (none for the daily)."""
        return farkle.HouseRules(self.entry_minimum, self.farkle_penalty)

    @property
    def turn_time(self) -> datetime.timedelta | None:
        """The time each turn has from its first throw (seed 001), or None when untimed."""
        return None if self.turn_seconds is None else datetime.timedelta(seconds=self.turn_seconds)

    def status(self, now: datetime.datetime) -> Puzzle.Status:
        """Where the puzzle stands at ``now``: upcoming, open, in its grace, or closed."""
        if now < self.opens_at:
            return self.Status.UPCOMING
        if now < self.ends_at:
            return self.Status.OPEN
        return self.Status.GRACE if now < self.closes_at else self.Status.CLOSED


class Attempt(models.Model):
    """One player's ten-turn game on a puzzle; the stored actions replay it exactly."""

    class State(models.TextChoices):
        AWAITING_ROLL = farkle.AWAITING_ROLL
        AWAITING_KEEP = farkle.AWAITING_KEEP
        FINISHED = farkle.FINISHED

    class DiceSource(models.TextChoices):
        PUZZLE = "puzzle"
        OWN = "own"

    # PROTECT: a ranked attempt is counted in ScoreCount; it never silently disappears.
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="attempts")
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts")
    official = models.BooleanField()
    actions = models.JSONField(default=list)
    # Derived from the actions, kept so that lists and leaderboards never replay games.
    state = models.CharField(max_length=16, choices=State.choices, default=State.AWAITING_ROLL)
    step = models.PositiveIntegerField(default=0)
    turn = models.PositiveSmallIntegerField(default=1)
    score = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField()
    updated_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    # Actions are refused from this instant on; None for archive play on a closed puzzle.
    deadline = models.DateTimeField(null=True, blank=True)
    # A timed challenge's clock (seed 001): when the current turn's first throw was served (None
    # between turns), and the time its finished turns took, each from its first throw to its end
    # (bank, Farkle, or the clock running out, which counts the full time of the turn).
    turn_started_at = models.DateTimeField(null=True, blank=True)
    time_taken = models.DurationField(default=datetime.timedelta)
    # Finished by the day's close rather than by the player (its unbanked points were lost).
    finalised_at_close = models.BooleanField(default=False)
    # No rank or percentile is stored: both follow from the score and the puzzle's ScoreCount
    # rows (play.selectors.leaderboards.attempt_ranks), so a close writes no ranked row.
    # A ranked attempt's place among the puzzle's attempts of the same score, 1 to that score's
    # ScoreCount, given as it is counted (its finish, the close, an operator's release): the
    # leaderboard's order among equal scores, so that a deep page is a range of the index below
    # rather than a walk past the attempts ahead of it. None while not ranked (unfinished,
    # practice, held).
    score_position = models.PositiveIntegerField(null=True, blank=True)
    # Practice while its puzzle is open plays dice of its own (issue 10: a practice game on the
    # puzzle's dice would show an open puzzle's coming throws); archive play keeps the puzzle's.
    dice_source = models.CharField(
        max_length=6, choices=DiceSource.choices, default=DiceSource.PUZZLE
    )
    # A retry (issue 40, docs/play.md): a practice game started from a decision of a finished
    # game, with that game's actions before the decision, on that game's dice. It goes with the
    # game it retries.
    retry_of = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="retries",
        # Indexed where set only (Meta.indexes): the official start of the midnight rush
        # writes no entry for it.
        db_index=False,
    )
    # A retry of a practice game on dice of its own plays that game's own dice: the practice
    # seed of this attempt's id (the first game on those dice), not of its own id.
    own_dice_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    # The foresight check of a finished official game (farkle.foresight, docs/foresight.md): its
    # p-value under honest play, the numbers behind it, and whether it is held off the public
    # leaderboard (uncounted in ScoreCount) until an operator releases it.
    foresight_p = models.FloatField(null=True, blank=True)
    foresight = models.JSONField(null=True, blank=True)
    held = models.BooleanField(default=False)
    released_at = models.DateTimeField(null=True, blank=True)
    released_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        db_table = "daily_attempt"
        constraints = [
            # docs/play.md: one official attempt per player and puzzle, whatever races the starts.
            models.UniqueConstraint(
                fields=["player", "puzzle"],
                condition=Q(official=True),
                name="attempt_one_official_per_player_and_puzzle",
            ),
            models.CheckConstraint(
                condition=Q(turn__gte=1, turn__lte=farkle.TURNS), name="attempt_turn_in_range"
            ),
            models.CheckConstraint(
                condition=Q(score__gte=0) & Q(score__lte=farkle.TURNS * 100_000),
                name="attempt_score_in_range",
            ),
            models.CheckConstraint(
                condition=Q(state="finished", finished_at__isnull=False)
                | (~Q(state="finished") & Q(finished_at__isnull=True)),
                name="attempt_finished_at_iff_finished",
            ),
            # The leaderboard compares official games on the same dice, always the puzzle's.
            models.CheckConstraint(
                condition=Q(official=False) | Q(dice_source="puzzle"),
                name="attempt_official_plays_the_puzzle",
            ),
            # A retry is practice: never ranked, never in a streak (issue 40).
            models.CheckConstraint(
                condition=Q(retry_of__isnull=True) | Q(official=False),
                name="attempt_retry_is_practice",
            ),
            models.CheckConstraint(
                condition=Q(own_dice_of__isnull=True) | Q(dice_source="own"),
                name="attempt_own_dice_of_plays_own_dice",
            ),
        ]
        indexes = [
            # The retries' links, for a cascade: partial, so that no other attempt is indexed.
            models.Index(
                fields=["retry_of"],
                condition=Q(retry_of__isnull=False),
                name="attempt_retry_of",
            ),
            models.Index(
                fields=["own_dice_of"],
                condition=Q(own_dice_of__isnull=False),
                name="attempt_own_dice_of",
            ),
            # The leaderboard's pages: official finished attempts not held, best score, then
            # the place within the score; with the columns a page shows, so that its rows come
            # from the index alone (none changes after the finish, which rewrites the index
            # entries anyway: no update that could be HOT pays for them). "Finished" is read from
            # finished_at (set once, at the finish; attempt_finished_at_iff_finished) rather than
            # from the state, which every action changes: Postgres rewrites a row in place,
            # without touching its indexes (a HOT update), only when no column an index reads,
            # its condition included, has changed (docs/performance.md).
            models.Index(
                "puzzle",
                models.F("score").desc(),
                "score_position",
                condition=Q(official=True, finished_at__isnull=False, held=False),
                include=["player", "id", "finished_at"],
                name="attempt_leaderboard",
            ),
        ]

    def __str__(self) -> str:
        kind = "official" if self.official else "practice"
        return f"{self.player} on {self.puzzle} ({kind}, {self.state})"

    def seed(self) -> bytes:
        """The seed of this game's dice: the puzzle's, or a practice game's own."""
        if self.dice_source == self.DiceSource.OWN:
            owner = self.pk if self.own_dice_of_id is None else self.own_dice_of_id
            return practice_seed(settings.FARKLE_SEED_SECRET.encode(), owner)
        return self.puzzle.seed()

    def turn_deadline(self) -> datetime.datetime | None:
        """When the current turn's time runs out: None if untimed or before its first throw."""
        turn_time = self.puzzle.turn_time
        if turn_time is None or self.turn_started_at is None:
            return None
        return self.turn_started_at + turn_time

    def replay(self) -> farkle.Game:
        """The game its stored actions replay (before any close finalised it)."""
        puzzle = self.puzzle
        return farkle.Game.replay(self.seed(), self.actions, puzzle.table, puzzle.rules())

    def game(self) -> farkle.Game:
        """The game replayed from the stored actions (ended, when the puzzle's close finalised
        it)."""
        game = self.replay()
        return game.ended_by_close() if self.finalised_at_close else game


class ScoreCount(models.Model):
    """How many official finished attempts of a puzzle, not held, have a score: ranks cost
    distinct scores."""

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="score_counts")
    score = models.PositiveIntegerField()
    count = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "daily_scorecount"
        constraints = [
            models.UniqueConstraint(fields=["puzzle", "score"], name="score_count_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.puzzle}: {self.count} × {self.score}"


class Rating(models.Model):
    """A player's skill rating after one rated day (docs/analysis.md, "The skill rating"): one row
    per player and closed daily they played, written by the day's close."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="ratings")
    # The daily's day, beside its puzzle: a player's history is read by day.
    day = models.DateField()
    # The performance the day was rated on, the official game's accuracy (0 to 100).
    accuracy = models.FloatField()
    # Glicko-2 on the Glicko scale after the day (farkle.glicko2.Rating).
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField()
    rated_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "puzzle"], name="rating_one_per_player_day"),
            models.CheckConstraint(
                condition=Q(accuracy__gte=0, accuracy__lte=100), name="rating_accuracy_in_range"
            ),
            models.CheckConstraint(condition=Q(deviation__gt=0), name="rating_deviation_positive"),
        ]
        indexes = [models.Index("player", models.F("day").desc(), name="rating_player_days")]

    def __str__(self) -> str:
        return f"{self.player} on {self.day}: {self.rating:.0f} ± {self.deviation:.0f}"
