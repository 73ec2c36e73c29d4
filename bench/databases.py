"""The throwaway databases the benchmarks create beside the site's, on its Postgres server."""

from __future__ import annotations

import os
from urllib.parse import urlsplit

import dj_database_url
import psycopg


def server_url() -> str:
    """The Postgres server the site uses (its own database is left alone)."""
    url = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/farkle"
    if dj_database_url.parse(url)["ENGINE"] != "django.db.backends.postgresql":
        raise SystemExit("The benchmarks need Postgres (DATABASE_URL).")
    return url


def on_database(url: str, name: str) -> str:
    """The same server's URL for another database."""
    return urlsplit(url)._replace(path=f"/{name}").geturl()


def recreate_database(server: str, name: str, *, drop_only: bool = False) -> None:
    """Drop the database ``name`` (whoever is connected to it) and, unless ``drop_only``,
    create it empty."""
    with psycopg.connect(on_database(server, "postgres"), autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        if not drop_only:
            admin.execute(f"CREATE DATABASE {name}")


def bench_database(server: str, suffix: str) -> str:
    """A benchmark's own database, named after the site's (``farkle`` gives ``farkle_bench``), so
    that benchmarks run against two site databases on one server never drop each other's."""
    site = urlsplit(server).path.lstrip("/") or "farkle"
    return f"{site}_{suffix}"
