import fnmatch
import re
from pathlib import Path

import pytest
from django.conf import settings

from farkle_site.celery import app as celery_app
from farkle_site.settings import DEVELOPMENT_SECRET_KEY, DEVELOPMENT_SEED_SECRET
from tests.site.conftest import SETTINGS_VARIABLES

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SETUP = "import django; django.setup(); from django.conf import settings; "


@pytest.mark.parametrize("name", ["SECRET_KEY", "FARKLE_SEED_SECRET"])
def test_settings_production_without_secret_refuse_to_start(run_python, production_env, name):
    del production_env[name]

    result = run_python("-c", SETUP, env=production_env)

    assert result.returncode == 1
    assert (
        f"ImproperlyConfigured: {name} is not set; set it to a long random secret, "
        "or set DEBUG=1 for development." in result.stderr
    )


@pytest.mark.parametrize(
    ("name", "default"),
    [("SECRET_KEY", DEVELOPMENT_SECRET_KEY), ("FARKLE_SEED_SECRET", DEVELOPMENT_SEED_SECRET)],
)
def test_settings_production_with_development_secret_refuse_to_start(
    run_python, production_env, name, default
):
    result = run_python("-c", SETUP, env={**production_env, name: default})

    assert result.returncode == 1
    assert (
        f"ImproperlyConfigured: {name} is the public development default; set it to a long "
        "random secret, or set DEBUG=1 for development." in result.stderr
    )


def test_settings_without_debug_default_to_production(run_python):
    result = run_python("-c", SETUP, env={})

    assert result.returncode == 1
    assert "ImproperlyConfigured: SECRET_KEY is not set" in result.stderr


def test_settings_debug_without_secrets_use_development_defaults_with_warning(run_python):
    code = (
        f"{SETUP}print(settings.SECRET_KEY == {DEVELOPMENT_SECRET_KEY!r}, "
        f"settings.FARKLE_SEED_SECRET == {DEVELOPMENT_SEED_SECRET!r})"
    )

    result = run_python("-c", code, env={"DEBUG": "1"})

    assert (result.returncode, result.stdout) == (0, "True True\n")
    assert result.stderr.splitlines() == [
        "SECRET_KEY is not set; using the public development default (DEBUG is on).",
        "FARKLE_SEED_SECRET is not set; using the public development default (DEBUG is on).",
    ]


def test_settings_production_expose_seed_secret_as_text(run_python, production_env):
    result = run_python(
        "-c", SETUP + "print(repr(settings.FARKLE_SEED_SECRET))", env=production_env
    )

    assert (result.returncode, result.stdout, result.stderr) == (
        0,
        repr(production_env["FARKLE_SEED_SECRET"]) + "\n",
        "",
    )


def test_settings_bad_boolean_refuse_to_start(run_python, production_env):
    result = run_python("-c", SETUP, env={**production_env, "DEBUG": "maybe"})

    assert result.returncode == 1
    assert "ImproperlyConfigured: DEBUG='maybe' is not a boolean" in result.stderr


def test_check_deploy_production_passes_without_warnings(run_python, production_env):
    result = run_python(
        "manage.py", "check", "--deploy", "--fail-level", "WARNING", env=production_env
    )

    assert (result.returncode, result.stdout, result.stderr) == (
        0,
        "System check identified no issues (0 silenced).\n",
        "",
    )


@pytest.mark.parametrize("database_url", [None, ""])
def test_settings_without_database_url_use_sqlite_in_project_root(
    run_python, production_env, database_url
):
    if database_url is not None:
        production_env["DATABASE_URL"] = database_url

    result = run_python(
        "-c",
        SETUP + "db = settings.DATABASES['default']; print(db['ENGINE'], db['NAME'])",
        env=production_env,
    )

    assert result.stdout == f"django.db.backends.sqlite3 {settings.BASE_DIR / 'db.sqlite3'}\n"


def test_database_of_tests_is_postgres_with_persistent_connections():
    database = settings.DATABASES["default"]

    assert (database["ENGINE"], database["CONN_MAX_AGE"], database["CONN_HEALTH_CHECKS"]) == (
        "django.db.backends.postgresql",
        600,
        True,
    )


@pytest.mark.parametrize(
    ("cache_url", "backend", "engine"),
    [
        ("redis://127.0.0.1:6379/1", "django_redis.cache.RedisCache", "cached_db"),
        (None, "django.core.cache.backends.locmem.LocMemCache", "db"),
    ],
)
def test_a_redis_cache_url_shares_the_cache_and_the_sessions(
    run_python, production_env, cache_url, backend, engine
):
    env = dict(production_env) if cache_url is None else {**production_env, "CACHE_URL": cache_url}
    code = SETUP + "print(settings.CACHES['default']['BACKEND'], settings.SESSION_ENGINE)"

    result = run_python("-c", code, env=env)

    assert result.stdout == f"{backend} django.contrib.sessions.backends.{engine}\n", result.stderr


def test_the_tests_use_the_redis_cache_production_uses():
    # `make test` sets CACHE_URL: sessions, throttles and cached puzzles behave as in production.
    assert settings.CACHES["default"]["BACKEND"] == "django_redis.cache.RedisCache"
    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.cached_db"


def test_time_zone_is_utc():
    assert (settings.TIME_ZONE, settings.USE_TZ) == ("UTC", True)


def test_celery_app_schedules_in_utc():
    assert (celery_app.main, celery_app.conf.enable_utc, celery_app.conf.timezone) == (
        "farkle_site",
        True,
        "UTC",
    )


@pytest.mark.parametrize(("broker", "eager"), [("", True), ("redis://127.0.0.1:6379/0", False)])
def test_celery_without_broker_runs_tasks_in_process(run_python, production_env, broker, eager):
    result = run_python(
        "-c",
        SETUP + "from farkle_site import celery_app; print(celery_app.conf.task_always_eager)",
        env={**production_env, "CELERY_BROKER_URL": broker},
    )

    assert result.stdout == f"{eager}\n"


def test_env_example_lists_every_variable_the_settings_and_the_procfile_read():
    source = (PROJECT_ROOT / "farkle_site" / "settings.py").read_text()
    read = set(re.findall(r'env_\w+\(\s*"([A-Z_]+)"', source))
    read |= set(re.findall(r'_secret\(\s*"([A-Z_]+)"', source))
    procfile = (PROJECT_ROOT / "Procfile").read_text()
    # The Procfile's own knobs, read by the shell as ${NAME} or ${NAME:-default}.
    processes = set(re.findall(r"\$\{([A-Z_]+)[:}]", procfile))
    example = (PROJECT_ROOT / ".env.example").read_text()
    listed = set(re.findall(r"^([A-Z_]+)=", example, flags=re.MULTILINE))
    assert read | processes == listed
    assert read <= SETTINGS_VARIABLES
    assert {"BIND", "WEB_CONCURRENCY", "WORKER_CONCURRENCY", "BEAT_SCHEDULE_FILE"} <= processes


def test_beat_schedule_defaults_to_this_checkout_not_the_shared_temporary_folder():
    procfile = (PROJECT_ROOT / "Procfile").read_text()
    default = re.search(r"\$\{BEAT_SCHEDULE_FILE:-([^}]+)\}", procfile).group(1)
    # Relative to the Procfile's folder (honcho runs there): one schedule per checkout, not one
    # /tmp file that every instance on the host would share and overwrite.
    assert not default.startswith("/")
    patterns = (PROJECT_ROOT / ".gitignore").read_text().split("\n")
    assert any(fnmatch.fnmatch(default, p.lstrip("/")) for p in patterns if p.startswith("/"))


@pytest.mark.parametrize(("value", "threshold"), [(None, "5"), ("1", "5"), ("0", "None")])
def test_postgres_prepares_statements_unless_told_not_to(
    run_python, production_env, value, threshold
):
    env = {**production_env, "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/farkle"}
    if value is not None:
        env["DATABASE_PREPARED_STATEMENTS"] = value
    code = SETUP + (
        "o = settings.DATABASES['default']['OPTIONS']; "
        "print(o['server_side_binding'], o['prepare_threshold'])"
    )

    result = run_python("-c", code, env=env)

    assert (result.returncode, result.stdout) == (0, f"True {threshold}\n"), result.stderr
