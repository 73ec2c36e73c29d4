"""A database with games in it, made before play/ had an app of its own, migrates forward and keeps
every row: the tables kept their names, so the move is Django's state alone (play's 0001, daily's
0009, challenges' 0003, groups' 0002), and the content types follow the models."""

import datetime

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import Permission, User
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from challenges.models import Challenge
from groups.models import Membership
from play.models import Attempt, Player, Puzzle, ScoreCount

NOON = datetime.datetime(2026, 11, 29, 12, tzinfo=datetime.UTC)
# Every app as it stood before the move: daily holding the core, nothing of play applied.
BEFORE = [
    ("play", None),
    ("daily", "0008_score_position"),
    ("challenges", "0002_creator_protect"),
    ("groups", "0001_groups"),
]


def _rows(model, *fields):
    return sorted(model.objects.values_list("pk", *fields))


def _games(apps):
    """Players, a daily and a challenge with attempts and score counts, a group, made through
    the models as they were (daily's); returns what each table holds."""
    User_ = apps.get_model("auth", "User")
    Player_ = apps.get_model("daily", "Player")
    Puzzle_ = apps.get_model("daily", "Puzzle")
    Attempt_ = apps.get_model("daily", "Attempt")
    ScoreCount_ = apps.get_model("daily", "ScoreCount")
    Challenge_ = apps.get_model("challenges", "Challenge")
    Group_ = apps.get_model("groups", "Group")
    Membership_ = apps.get_model("groups", "Membership")

    account = User_.objects.create(username="ada")
    players = [Player_.objects.create(display_name="Ada", user=account, created_at=NOON)]
    players += [
        Player_.objects.create(display_name=f"Guest {n}", created_at=NOON) for n in range(3)
    ]
    daily = Puzzle_.objects.create(
        kind="daily",
        day=NOON.date(),
        commitment="a" * 64,
        opens_at=NOON - datetime.timedelta(hours=12),
        ends_at=NOON + datetime.timedelta(hours=12),
        closes_at=NOON + datetime.timedelta(hours=12, seconds=90),
        players=3,
    )
    challenge = Puzzle_.objects.create(
        kind="challenge",
        code="ABCDEF",
        commitment="b" * 64,
        opens_at=NOON,
        ends_at=NOON + datetime.timedelta(days=7),
        closes_at=NOON + datetime.timedelta(days=7),
        entry_minimum=500,
        turn_seconds=60,
    )
    for n, player in enumerate(players[:3]):
        Attempt_.objects.create(
            player=player,
            puzzle=daily,
            official=True,
            actions=[{"type": "roll"}],
            state="finished",
            step=1,
            turn=10,
            score=500 * n,
            started_at=NOON,
            updated_at=NOON,
            finished_at=NOON,
            score_position=1,
        )
    Attempt_.objects.create(
        player=players[3],
        puzzle=challenge,
        official=False,
        dice_source="own",
        started_at=NOON,
        updated_at=NOON,
        time_taken=datetime.timedelta(seconds=42),
    )
    for n in range(3):
        ScoreCount_.objects.create(puzzle=daily, score=500 * n, count=1)
    Challenge_.objects.create(puzzle=challenge, creator=players[0], created_at=NOON)
    group = Group_.objects.create(
        code="GRP2345", name="Friends", creator=players[0], created_at=NOON
    )
    for player in players[:2]:
        Membership_.objects.create(group=group, player=player, joined_at=NOON)
    return {
        "players": _rows(Player_, "display_name", "user_id", "browser_id", "created_at"),
        "puzzles": _rows(Puzzle_, "kind", "day", "code", "commitment", "entry_minimum", "players"),
        "attempts": _rows(
            Attempt_,
            "player_id",
            "puzzle_id",
            "official",
            "actions",
            "state",
            "score",
            "score_position",
            "dice_source",
            "time_taken",
        ),
        "score_counts": _rows(ScoreCount_, "puzzle_id", "score", "count"),
        "challenges": _rows(Challenge_, "puzzle_id", "creator_id"),
        "memberships": _rows(Membership_, "group_id", "player_id"),
    }


@pytest.mark.django_db(transaction=True)
def test_a_database_with_games_migrates_to_play_keeping_every_row():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        # The state as it was: every target that names a migration (play had none).
        apps = executor.loader.project_state([t for t in BEFORE if t[1]]).apps
        before = _games(apps)
        # The operators' history and permissions point at daily's content type of an attempt.
        ContentType.objects.clear_cache()
        old_type = ContentType.objects.get(app_label="daily", model="attempt")
        operator = User.objects.create(username="operator", is_staff=True)
        operator.user_permissions.add(
            Permission.objects.get(content_type=old_type, codename="change_attempt")
        )
        attempt_id = before["attempts"][0][0]
        LogEntry.objects.create(
            user=operator,
            content_type=old_type,
            object_id=str(attempt_id),
            object_repr="held",
            action_flag=CHANGE,
        )

        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

        after = {
            "players": _rows(Player, "display_name", "user_id", "browser_id", "created_at"),
            "puzzles": _rows(
                Puzzle, "kind", "day", "code", "commitment", "entry_minimum", "players"
            ),
            "attempts": _rows(
                Attempt,
                "player_id",
                "puzzle_id",
                "official",
                "actions",
                "state",
                "score",
                "score_position",
                "dice_source",
                "time_taken",
            ),
            "score_counts": _rows(ScoreCount, "puzzle_id", "score", "count"),
            "challenges": _rows(Challenge, "puzzle_id", "creator_id"),
            "memberships": _rows(Membership, "group_id", "player_id"),
        }
        assert after == before
        assert [len(rows) for rows in after.values()] == [4, 2, 4, 3, 1, 2]
        # The foreign keys are read and followed through the moved models.
        challenge = Challenge.objects.select_related("puzzle", "creator__user").get()
        assert (challenge.puzzle.code, challenge.creator.user.username) == ("ABCDEF", "ada")
        assert sorted(m.player.display_name for m in Membership.objects.all()) == ["Ada", "Guest 0"]
        assert Attempt.objects.get(pk=attempt_id).player.user.player.display_name == "Ada"
        # The content type was renamed, not replaced: the same row, now play's.
        ContentType.objects.clear_cache()
        new_type = ContentType.objects.get_for_model(Attempt)
        assert (new_type.pk, new_type.app_label) == (old_type.pk, "play")
        assert not ContentType.objects.filter(app_label="daily").exists()
        assert LogEntry.objects.get().get_edited_object() == Attempt.objects.get(pk=attempt_id)
        assert User.objects.get(username="operator").has_perm("play.change_attempt")
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
        ContentType.objects.clear_cache()


@pytest.mark.django_db(transaction=True)
def test_the_move_migrates_back_to_daily():
    executor = MigrationExecutor(connection)
    try:
        executor.migrate(BEFORE)
        ContentType.objects.clear_cache()
        assert set(
            ContentType.objects.filter(app_label="daily").values_list("model", flat=True)
        ) == {"player", "puzzle", "attempt", "scorecount"}
        assert not ContentType.objects.filter(app_label="play").exists()
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
        ContentType.objects.clear_cache()
