"""A friend challenge: a puzzle keyed by a code, with a creator, a title and an expiry."""

from django.db import models

from play.models import Player, Puzzle


class Challenge(models.Model):
    """The social side of a challenge puzzle; its code, table and expiry live on the puzzle."""

    puzzle = models.OneToOneField(Puzzle, on_delete=models.CASCADE, related_name="challenge")
    # PROTECT: other players' ranked games belong to the challenge.
    creator = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="challenges")
    title = models.CharField(max_length=60, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["creator", "-created_at"], name="challenge_by_creator")]

    def __str__(self) -> str:
        return self.title or f"challenge {self.puzzle.code}"

    def get_absolute_url(self) -> str:
        return f"/c/{self.puzzle.code}"
