"""The one description of each JSON payload of the API (the OpenAPI schema is generated from it).

Where the payload is a hand-built dict (``play.apis.payloads``), the payload tests
(``tests/*/test_payload_schemas.py``) validate every documented response against these,
recursively."""

from rest_framework import serializers

from farkle_site.openapi import ErrorSerializer
from farkle_site.query import QueryBooleanField, QueryIntegerField, QuerySerializer


class PuzzleRefSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["daily", "challenge"])
    date = serializers.DateField(required=False)
    code = serializers.CharField(required=False)


class ThrowSerializer(serializers.Serializer):
    dice = serializers.ListField(child=serializers.IntegerField())
    kept = serializers.ListField(child=serializers.IntegerField(), help_text="Positions kept.")
    points = serializers.IntegerField()
    farkle = serializers.BooleanField()
    hot_dice = serializers.BooleanField()
    rethrow = serializers.BooleanField(help_text="A non-scoring pair thrown again (Le 10.000).")


class TurnSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    throws = ThrowSerializer(many=True)
    points = serializers.IntegerField(help_text="Banked by the turn; 0 after a Farkle.")
    farkle = serializers.BooleanField()
    timed_out = serializers.BooleanField(
        help_text="The turn's clock ran out (a timed challenge): its points were lost."
    )
    done = serializers.BooleanField()


class KeepOptionSerializer(serializers.Serializer):
    dice = serializers.ListField(
        child=serializers.IntegerField(), help_text="Positions in the current throw."
    )
    score = serializers.IntegerField()
    dice_left = serializers.IntegerField(help_text="Dice to throw after this keep (6 on hot dice).")
    farkle_risk = serializers.FloatField(help_text="Farkle risk of throwing the dice left.")
    can_bank = serializers.BooleanField(
        help_text="Whether `then: bank` is allowed (Le 10.000: not on a full hand)."
    )
    bank_needs = serializers.IntegerField(
        allow_null=True,
        help_text="Before a first bank under an entry minimum: the points a turn needs to bank, "
        "when this keep leaves the turn below them; null otherwise.",
    )
    hot_dice = serializers.BooleanField(help_text="Every die in hand scores: all come back.")


class EventSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=[
            "rolled",
            "kept",
            "farkle",
            "rethrow",
            "hot_dice",
            "banked",
            "penalty",
            "timed_out",
            "turn_started",
            "game_finished",
        ],
        help_text="What the action caused, in order; only the fields of its kind are present.",
    )
    turn = serializers.IntegerField()
    roll = serializers.IntegerField(required=False, help_text="rolled: the throw's index.")
    dice = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="rolled: the faces thrown; rethrow: the pair thrown again (Le 10.000).",
    )
    positions = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="kept: positions kept."
    )
    points = serializers.IntegerField(
        required=False,
        help_text="kept: scored; farkle: lost from the turn; banked: added to the score.",
    )
    score = serializers.IntegerField(required=False, help_text="banked, game_finished: the score.")
    in_hand = serializers.IntegerField(
        required=False, help_text="hot_dice: every die comes back for the next throw."
    )


class OptionsSerializer(serializers.Serializer):
    entry_minimum = serializers.IntegerField(
        help_text="House rule (seeds 000, 004): no bank below this in one turn until a first "
        "bank; 0: off."
    )
    farkle_penalty = serializers.IntegerField(
        help_text="House rule: taken from the score at the third Farkle in a row; 0: off."
    )
    turn_seconds = serializers.IntegerField(
        allow_null=True, help_text="Seed 001: each turn's time from its first throw; null: none."
    )


class AttemptSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    official = serializers.BooleanField()
    state = serializers.ChoiceField(choices=["awaiting_roll", "awaiting_keep", "finished"])
    step = serializers.IntegerField(help_text="Send it back with the next action.")
    turn = serializers.IntegerField()
    roll = serializers.IntegerField(help_text="Index of the current throw within the turn.")
    dice = serializers.ListField(child=serializers.IntegerField(), help_text="The current throw.")
    in_hand = serializers.IntegerField()
    turn_points = serializers.IntegerField()
    score = serializers.IntegerField(help_text="Banked points.")
    turns = TurnSerializer(many=True)
    keep_options = KeepOptionSerializer(many=True)
    events = EventSerializer(
        many=True, help_text="What the action just applied caused; empty when only read."
    )
    farkle_risk = serializers.FloatField(allow_null=True, help_text="Of throwing in_hand dice.")
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    finalised_at_close = serializers.BooleanField()
    held = serializers.BooleanField(
        help_text="Held off the public leaderboard by the foresight check until released."
    )
    held_note = serializers.CharField(allow_null=True, help_text="Why, for the player.")
    deadline = serializers.DateTimeField(allow_null=True)
    turn_deadline = serializers.DateTimeField(
        allow_null=True,
        help_text="When the running turn's time runs out (timed challenges, from the turn's "
        "first throw); an action from then on ends the turn with nothing banked.",
    )
    time_taken = serializers.FloatField(
        help_text="Seconds the finished turns of a timed challenge took, each from its first "
        "throw to its end; 0 when untimed."
    )
    options = OptionsSerializer()
    puzzle = PuzzleRefSerializer()
    dice_source = serializers.ChoiceField(
        choices=["puzzle", "own"],
        help_text="`own`: practice while the puzzle is open, on fresh dice of its own.",
    )
    commitment = serializers.CharField(help_text="SHA-256 of the seed of this game's dice, hex.")
    revealed_seed = serializers.CharField(
        allow_null=True, help_text="A practice game's own seed (hex), once the game is finished."
    )
    retry_of = serializers.IntegerField(
        allow_null=True,
        help_text="A retry: the id of the finished game it started from, at one of its "
        "decisions (`POST /api/attempts/{id}/retries`); null otherwise.",
    )


class AttemptSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    official = serializers.BooleanField()
    state = serializers.CharField()
    step = serializers.IntegerField()
    turn = serializers.IntegerField()
    score = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class PuzzleSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["daily", "challenge"])
    table = serializers.CharField()
    commitment = serializers.CharField(help_text="SHA-256 of the seed, hex.")
    opens_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(help_text="Official play ends.")
    closes_at = serializers.DateTimeField(
        help_text="Actions are refused from here: ends_at plus a daily's grace."
    )
    status = serializers.ChoiceField(choices=["upcoming", "open", "grace", "closed"])
    players = serializers.IntegerField(help_text="Official attempts started.")
    par = serializers.IntegerField(help_text="Expected score of ten turns played optimally.")
    turns_total = serializers.IntegerField(help_text="Turns in a game.")
    revealed_seed = serializers.CharField(allow_null=True, help_text="Hex, once closed.")
    final_stats = serializers.JSONField(
        allow_null=True,
        help_text="Frozen at close: players, mean, median, best and the score distribution; "
        "null until the status is closed.",
    )


class DailySerializer(PuzzleSerializer):
    date = serializers.DateField()
    my_attempts = AttemptSummarySerializer(many=True)


class ConflictSerializer(ErrorSerializer):
    attempt = AttemptSerializer(required=False)


class LeaderboardEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Equal scores share a rank (1, 2, 2, 4).")
    name = serializers.CharField()
    score = serializers.IntegerField()
    finished_at = serializers.DateTimeField()
    attempt = serializers.IntegerField(
        allow_null=True, help_text="The attempt's id, once the puzzle has closed; null before."
    )
    mine = serializers.BooleanField(help_text="The caller's own entry.")


class LeaderboardStandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    name = serializers.CharField()
    score = serializers.IntegerField()
    finished_at = serializers.DateTimeField()
    percentile = serializers.FloatField(
        allow_null=True,
        help_text="Share of the other players with a strictly lower score, 0-100, rounded down "
        "to one decimal; null when nobody else has finished.",
    )
    attempt = serializers.IntegerField(help_text="The caller's own official attempt.")


class HistogramBucketSerializer(serializers.Serializer):
    start = serializers.IntegerField(help_text="Lowest score of the bucket (inclusive).")
    end = serializers.IntegerField(help_text="End of the bucket (exclusive).")
    count = serializers.IntegerField()


class ScoreTallySerializer(serializers.Serializer):
    score = serializers.IntegerField()
    count = serializers.IntegerField()


class DistributionSerializer(serializers.Serializer):
    bucket_width = serializers.IntegerField()
    histogram = HistogramBucketSerializer(
        many=True, help_text="From 0 to the bucket of the best score, empty buckets included."
    )
    scores = ScoreTallySerializer(many=True, help_text="Every score reached, lowest first.")
    mean = serializers.FloatField(allow_null=True)
    median = serializers.FloatField(allow_null=True)
    best = serializers.IntegerField(allow_null=True)


class LeaderboardReferenceSerializer(serializers.Serializer):
    label = serializers.ChoiceField(choices=["optimal"])
    score = serializers.IntegerField(help_text="The optimal player's score on the puzzle's dice.")


class LeaderboardSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["daily", "challenge"])
    date = serializers.DateField(required=False)
    code = serializers.CharField(required=False)
    status = serializers.ChoiceField(choices=["upcoming", "open", "grace", "closed"])
    final = serializers.BooleanField(
        help_text="The puzzle has closed and its late games are finalised: no rank moves again."
    )
    revealed = serializers.BooleanField(
        help_text="Whether the caller sees the scores. Nobody learns how a puzzle scores before "
        "playing it: until it has closed (a daily's grace included), only a caller whose own "
        "official game on it is finished sees them. Otherwise false, and the answer holds only "
        "`players`, how many have finished: `entries` is empty, `pages` 0, and `me`, "
        "`distribution` and `reference` are null. Play first (finish the official game), or "
        "wait for the close."
    )
    accounts = serializers.BooleanField(help_text="Account holders only.")
    page = serializers.IntegerField()
    page_size = serializers.IntegerField()
    pages = serializers.IntegerField(
        help_text="0 while nobody has finished, and while the scores are hidden (`revealed`)."
    )
    players = serializers.IntegerField(
        help_text="Official attempts finished so far; shown to everyone, `revealed` or not."
    )
    entries = LeaderboardEntrySerializer(
        many=True, help_text="Empty past the last page, and while the scores are hidden."
    )
    me = LeaderboardStandingSerializer(
        allow_null=True, help_text="The caller's place, once their official attempt has finished."
    )
    distribution = DistributionSerializer(
        allow_null=True, help_text="The scores reached; null while they are hidden (`revealed`)."
    )
    reference = LeaderboardReferenceSerializer(
        allow_null=True,
        help_text="A row that takes no rank: the optimal player on the same dice. Before the "
        "close only for a caller whose official game is finished; null otherwise.",
    )


class MeStatsSerializer(serializers.Serializer):
    games = serializers.IntegerField(help_text="Official dailies started.")
    finished = serializers.IntegerField(help_text="Official dailies finished.")
    best = serializers.IntegerField(allow_null=True, help_text="Best finished official score.")
    average = serializers.IntegerField(
        allow_null=True, help_text="Mean finished official score, rounded."
    )
    current_streak = serializers.IntegerField(
        help_text="Consecutive UTC days with a finished official daily, up to today or yesterday."
    )
    best_streak = serializers.IntegerField()
    last_played = serializers.DateField(allow_null=True, help_text="Latest official daily.")


class MeResultSerializer(serializers.Serializer):
    date = serializers.DateField()
    attempt = serializers.IntegerField()
    state = serializers.ChoiceField(choices=["awaiting_roll", "awaiting_keep", "finished"])
    score = serializers.IntegerField(help_text="Banked so far while unfinished.")
    finished_at = serializers.DateTimeField(allow_null=True)
    rank = serializers.IntegerField(allow_null=True, help_text="Known once the day has closed.")
    percentile = serializers.FloatField(allow_null=True)


class MeRatedDaySerializer(serializers.Serializer):
    date = serializers.DateField(help_text="The rated daily's day.")
    accuracy = serializers.FloatField(
        help_text="The official game's accuracy (0 to 100) the day was rated on, to 0.1."
    )
    rating = serializers.FloatField(help_text="Glicko-2 rating after the day, to 0.1.")
    deviation = serializers.FloatField(
        help_text="Its rating deviation (RD), to 0.1: the smaller, the better known."
    )


class MeCurrentRatingSerializer(MeRatedDaySerializer):
    low = serializers.FloatField(help_text="rating - 2 × deviation: the likely range's bottom.")
    high = serializers.FloatField(help_text="rating + 2 × deviation: the likely range's top.")


class MeRatingSerializer(serializers.Serializer):
    current = MeCurrentRatingSerializer(
        allow_null=True,
        help_text="The rating after the latest rated day; null before the first. A day is "
        "rated at its close (00:02 UTC the next day), never before.",
    )
    days = serializers.IntegerField(help_text="Rated days in all.")
    history = MeRatedDaySerializer(many=True, help_text="Latest 90 rated days, newest first.")


class MeSerializer(serializers.Serializer):
    name = serializers.CharField()
    account = serializers.CharField(allow_null=True, help_text="Username; null for a guest.")
    stats = MeStatsSerializer(help_text="Official dailies only: no practice, no challenges.")
    history = MeResultSerializer(many=True, help_text="Latest 30 official dailies, newest first.")
    rating = MeRatingSerializer(
        help_text="The skill rating: Glicko-2 over each closed daily's decision quality "
        "(accuracy), whatever the dice did (docs/analysis.md)."
    )


class RulesScoringGroupSerializer(serializers.Serializer):
    label = serializers.CharField(help_text="In English; kind, count and face say it in parts.")
    kind = serializers.ChoiceField(
        choices=["single", "set", "of_a_kind", "straight", "three_pairs", "two_triplets"],
        help_text="of_a_kind: that many of any face, all paying the same.",
    )
    count = serializers.IntegerField(help_text="How many dice.")
    face = serializers.IntegerField(allow_null=True, help_text="The face of a single or a set.")
    points = serializers.IntegerField()
    dice = serializers.ListField(child=serializers.IntegerField(), help_text="An example.")


class RulesRiskSerializer(serializers.Serializer):
    dice = serializers.IntegerField()
    risk = serializers.FloatField(help_text="Probability that a throw of this many dice scores 0.")
    fraction = serializers.CharField(help_text="The same probability, exact: '5/216'.")


class RulesThresholdSerializer(serializers.Serializer):
    dice = serializers.IntegerField(help_text="Dice in hand.")
    points = serializers.IntegerField(help_text="Turn points from which banking is always best.")


class RulesTurnRuleSerializer(serializers.Serializer):
    id = serializers.ChoiceField(
        choices=[
            "extend_sets",
            "whole_straights",
            "whole_sets",
            "pair_rethrow",
            "full_hand_must_roll",
        ]
    )
    text = serializers.CharField()


class RulesTableSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    source = serializers.CharField()
    turn_rules = RulesTurnRuleSerializer(many=True, help_text="Rules beyond the scoring.")
    dice = serializers.IntegerField()
    scoring = RulesScoringGroupSerializer(many=True)
    farkle_risk = RulesRiskSerializer(many=True, help_text="Most dice first.")
    par = serializers.IntegerField(help_text="Expected score of ten turns under optimal play.")
    expected_turn = serializers.FloatField(help_text="Expected points of one turn, played best.")
    bank_thresholds = RulesThresholdSerializer(many=True)


class RulesSerializer(serializers.Serializer):
    daily_table = serializers.CharField()
    turns = serializers.IntegerField()
    tables = RulesTableSerializer(many=True)


class LeaderboardQuerySerializer(QuerySerializer):
    page = QueryIntegerField(min_value=1, default=1)
    accounts = QueryBooleanField(
        default=False, help_text="Rank account holders only (fresh browsers left out)."
    )


class VerifyQuerySerializer(QuerySerializer):
    attempt = QueryIntegerField(
        required=False, min_value=1, max_value=2**63 - 1, help_text="A game of this puzzle."
    )


class VerifiedThrowSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    roll = serializers.IntegerField(help_text="1 for the turn's first throw, then 2, 3, …")
    dice = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The faces served: the first n faces of the roll vector of (turn, roll).",
    )


class VerifiedAttemptSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player = serializers.CharField()
    official = serializers.BooleanField()
    score = serializers.IntegerField()
    finished = serializers.BooleanField()
    dice_source = serializers.ChoiceField(
        choices=["puzzle", "own"],
        help_text="`own`: a practice game played while the puzzle was open, on its own seed.",
    )
    commitment = serializers.CharField(help_text="SHA-256 of the seed of this game's dice, hex.")
    seed = serializers.CharField(allow_null=True, help_text="That seed, hex, once revealed.")
    throws = VerifiedThrowSerializer(many=True)
    timed_out_turns = serializers.ListField(
        child=serializers.IntegerField(), help_text="Turns whose clock ran out (seed 001)."
    )
    time_taken = serializers.FloatField(help_text="Seconds its turns took (timed challenges).")


class VerificationSerializer(serializers.Serializer):
    puzzle = PuzzleRefSerializer()
    table = serializers.CharField()
    status = serializers.ChoiceField(choices=["upcoming", "open", "grace", "closed"])
    opens_at = serializers.DateTimeField()
    closes_at = serializers.DateTimeField()
    commitment = serializers.CharField(help_text="SHA-256 of the seed, published in advance.")
    options = OptionsSerializer(help_text="Chosen at creation, public with the commitment.")
    par = serializers.IntegerField(help_text="Expected score of optimal play under the options.")
    seed = serializers.CharField(allow_null=True, help_text="The revealed seed, hex, once closed.")
    attempt = VerifiedAttemptSerializer(allow_null=True)


class ChoiceSerializer(serializers.Serializer):
    dice = serializers.ListField(
        child=serializers.IntegerField(), help_text="Positions kept in the throw."
    )
    then = serializers.ChoiceField(choices=["roll", "bank"])
    points = serializers.IntegerField(help_text="Points of the keep.")
    expected = serializers.FloatField(
        help_text="Expected banked points of the turn after this choice, under optimal play."
    )


class GradedDecisionSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    roll = serializers.IntegerField(help_text="Index of the throw within the turn, from 1.")
    dice = serializers.ListField(child=serializers.IntegerField(), help_text="The throw.")
    turn_points = serializers.IntegerField(help_text="Points at risk before the keep.")
    chosen = ChoiceSerializer(help_text="The player's keep and roll-or-bank.")
    best = ChoiceSerializer(help_text="The optimal choice on the same throw.")
    lost = serializers.FloatField(help_text="Expected points lost: best minus chosen, >= 0.")
    grade = serializers.ChoiceField(
        choices=["best", "good", "inaccuracy", "mistake", "blunder"],
        help_text="From `lost`: best (0), good (< 60), inaccuracy (< 90), mistake (< 140), "
        "blunder (docs/analysis.md says how the thresholds were calibrated).",
    )


class ThrowLuckSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    roll = serializers.IntegerField()
    dice = serializers.ListField(child=serializers.IntegerField())
    kind = serializers.ChoiceField(choices=["scoring", "farkle", "rethrow"])
    before = serializers.FloatField(help_text="Expected points of throwing, before the throw.")
    after = serializers.FloatField(
        help_text="Expected points after it (its best choice; 0 on a Farkle)."
    )
    luck = serializers.FloatField(
        help_text="after - before: what the dice gave beyond expectation."
    )


class GradeCountsSerializer(serializers.Serializer):
    best = serializers.IntegerField()
    good = serializers.IntegerField()
    inaccuracy = serializers.IntegerField()
    mistake = serializers.IntegerField()
    blunder = serializers.IntegerField()


class BotResultSerializer(serializers.Serializer):
    level = serializers.ChoiceField(
        choices=["easy", "medium", "hard"], help_text="`hard` is the optimal player."
    )
    score = serializers.IntegerField(help_text="The bot's score on the same dice as the attempt.")
    beaten = serializers.BooleanField(help_text="The attempt scored strictly more than the bot.")
    turns = TurnSerializer(
        many=True,
        allow_null=True,
        help_text="The bot's game throw by throw: null until the puzzle has closed (at once for a "
        "practice game on dice of its own, whose seed is revealed with it).",
    )


class LeftAtCloseSerializer(serializers.Serializer):
    turn = serializers.IntegerField(help_text="The turn the close cut, or the first not reached.")
    turns = serializers.IntegerField(help_text="Turns left unplayed, that one included.")
    lost = serializers.FloatField(help_text="Their expected points, counted in `lost`.")


class AnalysisSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The attempt.")
    puzzle = PuzzleRefSerializer()
    official = serializers.BooleanField()
    table = serializers.CharField()
    score = serializers.IntegerField()
    par = serializers.FloatField(help_text="Expected score of optimal play from the start.")
    lost = serializers.FloatField(help_text="Expected points lost by the decisions, in total.")
    luck = serializers.FloatField(
        help_text="What the dice gave beyond expectation: score = par - lost + luck."
    )
    accuracy = serializers.FloatField(help_text="100 × (1 - lost / par), at least 0.")
    left_at_close = LeftAtCloseSerializer(
        allow_null=True,
        help_text="A game the puzzle's close ended: what it left unplayed; null otherwise.",
    )
    grades = GradeCountsSerializer(help_text="How many decisions got each grade.")
    costliest = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Indexes in `decisions` of the (up to) three costliest, costliest first.",
    )
    decisions = GradedDecisionSerializer(
        many=True,
        help_text="Every keep with its roll-or-bank, graded. Visible to the player as soon as "
        "their game is finished (only their own throws); to anyone once the puzzle has closed.",
    )
    throws = ThrowLuckSerializer(many=True, help_text="Every throw of the game with its luck.")
    turns = TurnSerializer(many=True, help_text="The attempt's game, as in the attempt.")
    optimal_score = serializers.IntegerField(
        allow_null=True,
        help_text="The optimal player's score on the same dice. Before the puzzle closes, only "
        "for a caller whose official game on it is finished; null otherwise.",
    )
    bots = BotResultSerializer(
        many=True,
        allow_null=True,
        help_text="Easy, Medium and Hard on the same dice: their scores as `optimal_score`, "
        "their games only after the close.",
    )


class CoachOptionSerializer(serializers.Serializer):
    dice = serializers.ListField(child=serializers.IntegerField(), help_text="Positions kept.")
    points = serializers.IntegerField()
    dice_left = serializers.IntegerField()
    roll = serializers.FloatField(help_text="Expected banked points of rolling on after it.")
    bank = serializers.FloatField(
        allow_null=True, help_text="Points banked by banking after it; null when not allowed."
    )
    then = serializers.ChoiceField(choices=["roll", "bank"], help_text="The better of the two.")
    expected = serializers.FloatField()
    best = serializers.BooleanField(help_text="The best keep of the throw.")


class AdviceSerializer(serializers.Serializer):
    turn_points = serializers.IntegerField()
    dice = serializers.ListField(
        child=serializers.IntegerField(), help_text="The best keep; empty before a roll."
    )
    then = serializers.ChoiceField(choices=["roll", "bank"])
    expected = serializers.FloatField(help_text="Expected banked points of the turn, played best.")
    roll = serializers.FloatField(
        help_text="Expected banked points of rolling (after the best keep)."
    )
    bank = serializers.FloatField(
        allow_null=True,
        help_text="Points banked by banking after the best keep; null before a roll.",
    )
    options = CoachOptionSerializer(many=True)


class CoachSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    step = serializers.IntegerField()
    advice = AdviceSerializer(allow_null=True, help_text="Null once the game is finished.")
