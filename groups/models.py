"""A group of friends: a name, a code to join by, and its members; their games are the daily's."""

from django.db import models

from play.models import Player


class Group(models.Model):
    """A friend league: its members compare their official dailies every day."""

    code = models.CharField(max_length=7, unique=True)
    name = models.CharField(max_length=24)
    # CASCADE would be wrong: a player is never deleted while they own anything (Attempt PROTECTs).
    creator = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="groups_created")
    created_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    def get_absolute_url(self) -> str:
        return f"/g/{self.code}"


class Membership(models.Model):
    """A player in a group."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    joined_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["group", "player"], name="membership_unique"),
        ]
        indexes = [
            # My groups, newest joined first; the unique constraint serves a group's members.
            models.Index(fields=["player", "-joined_at"], name="membership_by_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.group}"


class Removal(models.Model):
    """A player the group's creator removed: they cannot join it again until the creator lets
    them back (which deletes this row). It is of the player, whatever their account or browser."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="removals")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="group_removals")
    removed_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["group", "player"], name="removal_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} removed from {self.group}"
