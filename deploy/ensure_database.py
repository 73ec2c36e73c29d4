"""Create the Postgres database named by DATABASE_URL when it does not exist yet.

`make serve` runs this before the migrations, so that one command starts the production shape on
a fresh machine; on a managed database that already exists it does nothing.
"""

import os
import sys

import dj_database_url
import psycopg
from psycopg import sql


def main() -> int:
    config = dj_database_url.parse(os.environ["DATABASE_URL"])
    if config["ENGINE"] != "django.db.backends.postgresql":
        return 0
    params = {
        "host": config["HOST"] or None,
        "port": config["PORT"] or None,
        "user": config["USER"] or None,
        "password": config["PASSWORD"] or None,
    }
    # The maintenance database every cluster has.
    with psycopg.connect(dbname="postgres", autocommit=True, **params) as connection:
        exists = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [config["NAME"]]
        ).fetchone()
        if not exists:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(config["NAME"])))
            print(f"Created the database {config['NAME']}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
