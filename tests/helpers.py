"""Helpers every test package shares: real-thread races, stored rows, throttle rates, the test's
Redis."""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from collections.abc import Callable, Iterator
from typing import Any

import jsonschema
import redis
from django.conf import settings
from django.db import connection
from django.test import override_settings
from drf_spectacular.generators import SchemaGenerator

from play.models import Attempt

# The test's Redis: the throttles' and the cache's tests, and the Celery worker's broker.
REDIS = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def race(n: int, work: Callable[[], Any]) -> list:
    """Run ``work`` in n threads released together, each on its own database connection; their
    results (or the exception each raised) in thread order."""
    barrier = threading.Barrier(n)
    results: list = [None] * n

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = work()
        except Exception as error:  # The race's loser refusing is a result like any other.
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def stored(attempt_id: int) -> dict:
    """What the database holds for an attempt, to prove a refusal changed nothing."""
    return Attempt.objects.filter(pk=attempt_id).values().get()


@contextlib.contextmanager
def redis_keys_made(url: str, *patterns: str) -> Iterator[redis.Redis]:
    """A client of the test's Redis at ``url``; the keys matching ``patterns`` that appeared
    meanwhile are deleted afterwards (only those: other runs may share the database)."""
    server = redis.Redis.from_url(url)

    def keys() -> set[bytes]:
        return {key for pattern in patterns for key in server.scan_iter(pattern)}

    before = keys()
    try:
        yield server
    finally:
        made = keys() - before
        if made:
            server.delete(*made)
        server.close()


# What a connection sends to set itself up (redis-py's handshake), not a command of the code.
_HANDSHAKE = frozenset({"AUTH", "CLIENT", "HELLO", "PING", "SELECT"})


def redis_commands_sent(monkeypatch) -> list[str]:
    """The name of every command that any Redis connection of this process sends from now on,
    whatever sends it (``redis.Redis`` or the throttles' own connections), handshakes left out;
    a pipeline's commands are not seen (they are sent packed)."""
    sent: list[str] = []
    original = redis.connection.AbstractConnection.send_command

    def recording(self, *args, **kwargs):
        if args[0] not in _HANDSHAKE:
            sent.append(args[0])
        return original(self, *args, **kwargs)

    monkeypatch.setattr(redis.connection.AbstractConnection, "send_command", recording)
    return sent


def rates(**changes: str) -> override_settings:
    """The throttle rates of the settings with ``changes`` (scope: "n/period")."""
    current = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    return override_settings(
        REST_FRAMEWORK={
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {**current, **changes},
        }
    )


@functools.cache
def _openapi() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def _strict(node: Any) -> Any:
    """OpenAPI 3.0 as JSON Schema: ``nullable`` becomes a null alternative, and an object with
    documented properties allows no others (an undocumented key is a payload the schema misses)."""
    if isinstance(node, list):
        return [_strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _strict(value) for key, value in node.items()}
    if "properties" in node:
        node.setdefault("additionalProperties", False)
    if node.pop("nullable", False):
        node = {"anyOf": [node, {"type": "null"}]}
    return node


def assert_documented(response: Any, path: str, method: str) -> None:
    """Validate a response's whole JSON body, recursively, against what the OpenAPI schema
    documents for ``path`` (as in the schema: ``/api/daily/{day}``), ``method`` and its status."""
    schema = _openapi()
    operation = schema["paths"][path][method.lower()]
    content = operation["responses"][str(response.status_code)]["content"]
    body_schema = content["application/json"]["schema"]
    document = _strict({**body_schema, "components": schema["components"]})
    jsonschema.validate(response.json(), document)
