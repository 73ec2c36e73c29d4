"""Usernames are unique in any letter case, in the database itself: two signups racing with
"Alice" and "alice" cannot both pass the application's check (issue 10 item 9)."""

from django.conf import settings
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("daily", "0004_foresight"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunSQL(
            sql="CREATE UNIQUE INDEX auth_user_username_lower_uniq ON auth_user (lower(username))",
            reverse_sql="DROP INDEX auth_user_username_lower_uniq",
        ),
    ]
