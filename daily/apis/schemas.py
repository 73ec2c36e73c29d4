"""Serializers that document the API's JSON in the OpenAPI schema (``daily.representations``
builds the same shapes; the tests hold the two together)."""

from rest_framework import serializers


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


class TurnSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    throws = ThrowSerializer(many=True)
    points = serializers.IntegerField(help_text="Banked by the turn; 0 after a Farkle.")
    farkle = serializers.BooleanField()
    done = serializers.BooleanField()


class KeepOptionSerializer(serializers.Serializer):
    dice = serializers.ListField(
        child=serializers.IntegerField(), help_text="Positions in the current throw."
    )
    score = serializers.IntegerField()
    dice_left = serializers.IntegerField(help_text="Dice to throw after this keep (6 on hot dice).")
    farkle_risk = serializers.FloatField(help_text="Farkle risk of throwing the dice left.")


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
    farkle_risk = serializers.FloatField(allow_null=True, help_text="Of throwing in_hand dice.")
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    finalised_at_close = serializers.BooleanField()
    deadline = serializers.DateTimeField(allow_null=True)
    puzzle = PuzzleRefSerializer()


class AttemptSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    official = serializers.BooleanField()
    state = serializers.CharField()
    step = serializers.IntegerField()
    turn = serializers.IntegerField()
    score = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class DailySerializer(serializers.Serializer):
    kind = serializers.CharField()
    date = serializers.DateField()
    table = serializers.CharField()
    commitment = serializers.CharField(help_text="SHA-256 of the seed, hex.")
    opens_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()
    closes_at = serializers.DateTimeField(help_text="ends_at plus the grace for late actions.")
    status = serializers.ChoiceField(choices=["open", "grace", "closed"])
    players = serializers.IntegerField()
    par = serializers.IntegerField()
    revealed_seed = serializers.CharField(allow_null=True)
    my_attempts = AttemptSummarySerializer(many=True)


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()
    code = serializers.CharField()


class ConflictSerializer(ErrorSerializer):
    attempt = AttemptSerializer(required=False)
