from django.db import migrations

# Player, Puzzle, Attempt and ScoreCount now live in play/ (play's 0001_initial), their tables
# unchanged: they leave daily's state only, once every foreign key to them points at play/.


class Migration(migrations.Migration):
    dependencies = [
        ("daily", "0008_score_position"),
        ("play", "0001_initial"),
        ("challenges", "0003_core_moved_to_play"),
        ("groups", "0002_core_moved_to_play"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                # Those that refer to others first, so that no state is left pointing at a
                # model already gone.
                migrations.DeleteModel(name="Attempt"),
                migrations.DeleteModel(name="ScoreCount"),
                migrations.DeleteModel(name="Player"),
                migrations.DeleteModel(name="Puzzle"),
            ],
        ),
    ]
