import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]

# Every variable the settings read: a subprocess sees only the ones a test gives it.
SETTINGS_VARIABLES = {
    "ALLOWED_HOSTS",
    "CACHE_URL",
    "FARKLE_FIRST_DAY",
    "FARKLE_RECENT_COUNTERS_MS",
    "NUM_PROXIES",
    "THROTTLE_ACCOUNT",
    "THROTTLE_ATTEMPT_ACT",
    "THROTTLE_ATTEMPT_START",
    "THROTTLE_CHALLENGE_CREATE",
    "THROTTLE_CHALLENGE_CREATE_ADDRESS",
    "THROTTLE_CHALLENGE_LOOKUP",
    "THROTTLE_GUEST_START",
    "LOGIN_FAILURES_FREE",
    "LOGIN_BACKOFF_MAX",
    "CELERY_BROKER_URL",
    "CELERY_RESULT_BACKEND",
    "CELERY_VISIBILITY_TIMEOUT",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_PREPARED_STATEMENTS",
    "DATABASE_URL",
    "DEBUG",
    "DJANGO_SETTINGS_MODULE",
    "FARKLE_SEED_SECRET",
    "LOG_LEVEL",
    "SECRET_KEY",
    "SECURE_HSTS_SECONDS",
    "SECURE_SSL_REDIRECT",
}

# Secrets that pass every production check.
_PRODUCTION_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "e1Zq9rX4vN7kP2mW8tB5yH3cJ6dF0gL1sA9uQ7oI4eR2wT8zY5xC3vB6nM0kJ7hG",
    "FARKLE_SEED_SECRET": "a-production-seed-secret-nobody-knows",
}

RunPython = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def run_python() -> RunPython:
    """Run Python code in a fresh process of the project, with only the given settings variables."""

    def run(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
        clean = {key: value for key, value in os.environ.items() if key not in SETTINGS_VARIABLES}
        return subprocess.run(
            [sys.executable, *args],
            cwd=PROJECT_ROOT,
            env={**clean, "DJANGO_SETTINGS_MODULE": "farkle_site.settings", **env},
            capture_output=True,
            text=True,
            timeout=60,
        )

    return run


@pytest.fixture
def production_env() -> dict[str, str]:
    """Settings variables of a production deployment."""
    return dict(_PRODUCTION_ENV)


@pytest.fixture
def urandom_reads(monkeypatch) -> list[int]:
    """The sizes of the ``os.urandom`` reads made during the test, in order."""
    sizes: list[int] = []
    real = os.urandom

    def counted(size: int) -> bytes:
        sizes.append(size)
        return real(size)

    monkeypatch.setattr(os, "urandom", counted)
    return sizes
