"""Helpers for tests that start other processes of the project (a worker, the servers)."""

from urllib.parse import quote

from django.db import connection


def shared_database_url() -> str:
    """The URL of the test database, for another process to use the same data."""
    db = connection.settings_dict
    password = f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else ""
    host = db["HOST"] or "127.0.0.1"
    return f"postgres://{quote(db['USER'])}{password}@{host}:{db['PORT'] or 5432}/{db['NAME']}"
