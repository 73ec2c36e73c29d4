"""Django settings for Farkle Daily, read from environment variables (see .env.example)."""

import logging
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from farkle_site.env import env_bool, env_date, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

logger = logging.getLogger(__name__)

DEBUG = env_bool("DEBUG", default=False)

# Known to everyone, so only usable in development: production refuses to start on them.
DEVELOPMENT_SECRET_KEY = "django-insecure-farkle-daily-development-key-do-not-use-in-production"
DEVELOPMENT_SEED_SECRET = "farkle-daily-development-seed-secret"


def _secret(name: str, development_default: str) -> str:
    value = env_str(name)
    if value is not None and value != development_default:
        return value
    problem = "is not set" if value is None else "is the public development default"
    if not DEBUG:
        raise ImproperlyConfigured(
            f"{name} {problem}; set it to a long random secret, or set DEBUG=1 for development."
        )
    # A log record, not warnings.warn: the test suite turns warnings into errors.
    logger.warning("%s %s; using the public development default (DEBUG is on).", name, problem)
    return development_default


SECRET_KEY = _secret("SECRET_KEY", DEVELOPMENT_SECRET_KEY)
# The HMAC key of the provably fair dice (docs/fairness.md): its UTF-8 bytes seed every puzzle.
FARKLE_SEED_SECRET = _secret("FARKLE_SEED_SECRET", DEVELOPMENT_SEED_SECRET)

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    # The operators' pages: held games (docs/foresight.md).
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles, so runserver serves static files through WhiteNoise as production does.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "play",
    "daily",
    "challenges",
    "groups",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "farkle_site.middleware.SecurityHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After the CSRF and locale middleware: its page speaks the visitor's language, with a token.
    "farkle_site.middleware.UrlLengthMiddleware",
    "farkle_site.middleware.BrowserIdMiddleware",
    "farkle_site.middleware.PageMessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "farkle_site.urls"
WSGI_APPLICATION = "farkle_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# SQLite in the project root when DATABASE_URL is unset; production and the tests use Postgres.
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
    ),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Persistent connections rather than psycopg's pool: Django keeps one per thread, so each
    # gthread worker holds at most WEB_THREADS connections (24 on a host with the defaults); a
    # pool would add a background thread per process for no fewer connections. Health checks
    # spare the first request after a Postgres restart an error.
    DATABASES["default"]["CONN_MAX_AGE"] = 600
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # Parameters sent apart from the statement (Django's ``server_side_binding``), and a statement
    # run five times on a connection prepared there (psycopg's ``prepare_threshold``): Postgres
    # then neither parses literals nor plans again, which halves its CPU per game action
    # (docs/performance.md). Behind PgBouncer in transaction mode (older than 1.21, or without
    # max_prepared_statements), set DATABASE_PREPARED_STATEMENTS=0. After a migration that
    # changes a table, restart the web processes: a prepared statement keeps the old row shape.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True,
        prepare_threshold=5 if env_bool("DATABASE_PREPARED_STATEMENTS", default=True) else None,
    )

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The daily changes at 00:00 UTC (docs/operations.md): every stored and computed time is UTC.
TIME_ZONE = "UTC"
USE_TZ = True

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("fr", _("French")),
]
USE_I18N = True
LOCALE_PATHS = [BASE_DIR / "locale"]
# Numbers in pages grouped the language's way: 10,000 in English, 10 000 in French.
USE_THOUSAND_SEPARATOR = True
# French grouped as the scripts' Intl.NumberFormat groups it (a narrow no-break space, where
# Django's own French formats use a no-break space): one way to write a number per language.
FORMAT_MODULE_PATH = ["farkle_site.formats"]

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed names let WhiteNoise serve static files with far-future cache headers;
    # production runs `manage.py collectstatic` first.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Production sits behind a TLS-terminating proxy that sets X-Forwarded-Proto.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG)
# Load balancers probe the health check over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = not DEBUG
# Scripts only from the site's own files: no inline script, no handler attribute, no eval, so an
# injected tag could not run. Styles too come only from the site's style sheets: no <style>
# element and no style attribute (the rules page draws its risk bars as SVG rects), so injected
# markup cannot restyle a page either.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
# Swagger UI (/api/docs/) injects a <style> element: its page alone allows inline styles.
API_DOCS_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace(
    "style-src 'self'", "style-src 'self' 'unsafe-inline'"
)
# The site uses none of these browser features: no page, nor anything injected in one, may.
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "camera",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
    )
)
CSRF_COOKIE_SECURE = not DEBUG

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "farkle_site.openapi.ErrorsAutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": ["farkle_site.drf.CsrfSessionAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_PARSER_CLASSES": ["farkle_site.drf.BoundedJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # ASCII escapes: a lone surrogate echoed back in an error message cannot break the encoding.
    "UNICODE_JSON": False,
    "EXCEPTION_HANDLER": "farkle_site.errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # Client addresses come from X-Forwarded-For only through this many trusted proxies; with 0,
    # REMOTE_ADDR is used, so a client cannot pick its own throttle key.
    "NUM_PROXIES": env_int("NUM_PROXIES", default=0),
    # Generous: a real ten-turn game needs one start and well under a hundred actions.
    "DEFAULT_THROTTLE_RATES": {
        "attempt_start": env_str("THROTTLE_ATTEMPT_START") or "30/minute",
        "attempt_act": env_str("THROTTLE_ATTEMPT_ACT") or "240/minute",
        "account": env_str("THROTTLE_ACCOUNT") or "20/minute",
        # Games started by browsers without a player (each new guest gets an official attempt),
        # per address: a school behind one address still gets a class's worth an hour.
        "guest_start": env_str("THROTTLE_GUEST_START") or "30/hour",
        # Creating challenges: per player, and per address against a player-minting script.
        "challenge_create": env_str("THROTTLE_CHALLENGE_CREATE") or "20/hour",
        "challenge_create_address": env_str("THROTTLE_CHALLENGE_CREATE_ADDRESS") or "60/hour",
        # Looking codes up, per address: a client guessing codes meets 429 long before a hit.
        "challenge_lookup": env_str("THROTTLE_CHALLENGE_LOOKUP") or "60/minute",
    },
}
# No request to the API carries more than a few hundred bytes.
API_MAX_BODY_BYTES = 16 * 1024
# No address of the site is longer than a few dozen characters; a longer one (path and query
# string) is refused with 414 (farkle_site.middleware.UrlLengthMiddleware), well below the
# request line gunicorn accepts (the Procfile's --limit-request-line, its maximum of 8190 bytes).
MAX_URL_LENGTH = 4096
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024

# A guest player lives in the browser's session for a year (docs/play.md).
PLAYER_SESSION_KEY = "farkle_player_id"
SESSION_COOKIE_AGE = 365 * 24 * 60 * 60
BROWSER_COOKIE_NAME = "farkle_browser"

# Failed logins of one account from one place (the client's address, or a browser that has
# logged in to the account before) before each further one from there waits, twice as long each
# time from 1 second, and never longer than LOGIN_BACKOFF_MAX seconds: a back-off on the guesser,
# never a lock that someone else's guesses could keep shut on the account's owner.
LOGIN_FAILURES_FREE = env_int("LOGIN_FAILURES_FREE", default=5)
LOGIN_BACKOFF_MAX = env_int("LOGIN_BACKOFF_MAX", default=15 * 60)
# The signed cookie that marks a browser as one that has logged in to an account (docs/play.md),
# sent to /api/auth/ alone.
LOGIN_DEVICE_COOKIE_NAME = "farkle_login_device"
LOGIN_DEVICE_COOKIE_AGE = 365 * 24 * 60 * 60

# The shared cache: throttle counters, sessions, each day's puzzle. Redis when several processes
# serve the site (`make serve`, production, and the tests, which run as production does), through
# django-redis, which keeps one client per process; without CACHE_URL (`make run`: one process),
# each process's memory.
CACHE_URL = env_str("CACHE_URL")
CACHES = {
    "default": (
        {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": CACHE_URL}
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# With a shared cache, sessions are read from it and written through to the database (Django's
# cached_db store); each process's own memory would not see another's logout, so without a
# shared cache they are read from the database alone.
SESSION_ENGINE = (
    "django.contrib.sessions.backends.cached_db"
    if CACHE_URL
    else "django.contrib.sessions.backends.db"
)

# Replay every game play/game_cache.py finds and fail the request if they differ (the tests).
FARKLE_CHECK_GAME_CACHE = False

# The first day with a daily: earlier dates are not puzzles (404), like future ones.
FARKLE_FIRST_DAY = env_date("FARKLE_FIRST_DAY", default="2026-11-01")

# How old the count of players a day in play shows may be, per process, in milliseconds: the
# midnight rush reads it with every fresh browser (daily/services/puzzles.py). 0: read each time.
FARKLE_RECENT_COUNTERS_MS = env_int("FARKLE_RECENT_COUNTERS_MS", default=1000)

SPECTACULAR_SETTINGS = {
    "TITLE": "Farkle Daily API",
    "DESCRIPTION": "Daily Farkle and friend challenges: ten turns on dice everyone shares.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI is served from the site's own static files, never from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # validatorUrl null: no badge fetched from the public Swagger validator.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "ENUM_NAME_OVERRIDES": {
        "PuzzleStatusEnum": ["open", "grace", "closed"],
        "PuzzleKindEnum": ["daily", "challenge"],
        "ScoringGroupKindEnum": [
            "single",
            "set",
            "of_a_kind",
            "straight",
            "three_pairs",
            "two_triplets",
        ],
    },
}

# Without a broker, tasks run in-process when queued, so the site needs no worker in development.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL")
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
# Results are optional (the rollover's report is logged); set a backend to read them.
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND")
CELERY_TASK_IGNORE_RESULT = CELERY_RESULT_BACKEND is None
# A cron entry missed while beat was down runs once on restart if it is at most this old; older
# ones are left to the periodic reconcile, which catches up any number of days anyway.
CELERY_BEAT_CRON_STARTING_DEADLINE = 6 * 60 * 60
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A task taken by a worker that dies (kill -9, a lost machine) is unacknowledged: Redis gives it
# to another worker once this many seconds have passed since delivery (kombu's default is an
# hour, longer than the tasks' expiry, so a lost reconcile expired unrun). Longer than the
# reconcile's longest retry delay (300 s): an ETA task is not redelivered while it waits.
BROKER_VISIBILITY_TIMEOUT = env_int("CELERY_VISIBILITY_TIMEOUT", default=420)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": BROKER_VISIBILITY_TIMEOUT,
    # Look for abandoned tasks every tenth of the timeout (at most every 10 s): one cheap sorted
    # set query, so a lost task is back within about the timeout itself.
    "unacked_restore_interval": max(1, min(10, BROKER_VISIBILITY_TIMEOUT // 10)),
    "unacked_restore_throttle": 1,
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

LOG_LEVEL = (env_str("LOG_LEVEL") or "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "console": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "console"},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # Replaces the handlers Django puts on its loggers (console in DEBUG, e-mail to admins): every
    # record, runserver's request lines included, reaches the console once, through the root.
    "loggers": {"django": {"level": LOG_LEVEL}},
}
