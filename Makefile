# The few verbs of the project. Each creates the virtual environment first when needed.

VENV := .venv
BIN := $(VENV)/bin
# Re-install only when a requirements file changes: the site's own requirements for running it,
# the test tools (Playwright, Schemathesis, ...) on top for testing and benchmarking.
SITE_STAMP := $(VENV)/.installed-site
STAMP := $(VENV)/.installed
# `make run PORT=8001` when 8000 is taken.
PORT := 8000

.PHONY: venv site-venv run serve test sweep bench fmt messages screenshots solutions

venv: $(STAMP)
site-venv: $(SITE_STAMP)

$(SITE_STAMP): requirements.txt
	python3 -m venv $(VENV)
	$(BIN)/pip install -r requirements.txt
	touch $@

$(STAMP): $(SITE_STAMP) requirements-dev.txt
	$(BIN)/pip install -r requirements-dev.txt
	touch $@

# The site on 127.0.0.1:$(PORT): SQLite in db.sqlite3, no broker (tasks run in-process).
run: export DEBUG := 1
run: export DATABASE_URL :=
run: export CELERY_BROKER_URL :=
run: site-venv
	$(BIN)/python manage.py migrate
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# The production shape on this machine: Postgres, Redis, gunicorn, a Celery worker and one beat.
# SECRET_KEY and FARKLE_SEED_SECRET must be set (production refuses the public defaults).
serve: export DEBUG := 0
serve: export DATABASE_URL := $(or $(DATABASE_URL),postgres://postgres@127.0.0.1:5432/farkle)
serve: export PATH := $(abspath $(BIN)):$(PATH)
serve: export CELERY_BROKER_URL := $(or $(CELERY_BROKER_URL),redis://127.0.0.1:6379/0)
# Throttle counters shared by the web processes: counted per process, every limit would multiply.
serve: export CACHE_URL := $(or $(CACHE_URL),redis://127.0.0.1:6379/1)
serve: site-venv
	$(BIN)/python deploy/ensure_database.py
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(BIN)/honcho start

# Lint, then every test against Postgres, with production settings (DEBUG off) and known secrets.
test sweep: export DATABASE_URL := $(or $(DATABASE_URL),postgres://postgres@127.0.0.1:5432/farkle)
test sweep: export DEBUG := 0
test sweep: export SECRET_KEY := test-secret-key-for-the-test-suite-only-0123456789abcdefghijklmnop
test sweep: export FARKLE_SEED_SECRET := test-secret
test sweep: export SECURE_SSL_REDIRECT := 0
test sweep: export CELERY_BROKER_URL :=
# The Redis cache production uses (sessions, throttles), on a database of its own: each test
# empties it (tests/conftest.py).
test sweep: export CACHE_URL := $(or $(CACHE_URL),redis://127.0.0.1:6379/9)
test: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/pytest $(PYTEST_ARGS)

# The tests whose outcome can change with the date (marked `today`), run once at each of 65
# instants over a year (tests/sweep.py; SWEEP_ARGS: --every N, --part K/N for the K-th of N slices
# of the instants, or other pytest arguments); the same environment as the tests.
sweep: venv
	$(BIN)/python tests/sweep.py $(SWEEP_ARGS)

# The leaderboard and scale benches load millions of attempts into databases of their own on the
# DATABASE_URL server (named after its database, dropped at the end); docs/performance.md.
bench: export DATABASE_URL := $(or $(DATABASE_URL),postgres://postgres@127.0.0.1:5432/farkle)
bench: venv
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/leaderboard.py
	$(BIN)/python bench/api.py
	$(BIN)/python bench/scale.py
	$(BIN)/python bench/instructions.py

# Solve every scoring table again and store the values in farkle/data/ (commit them): needed
# after any change of the rules or of the solver, which the tests then check.
solutions: venv
	$(BIN)/python -m farkle solutions --write

fmt: venv
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Refresh the French catalogues from the templates and scripts, then compile them (the .mo files
# are committed, so running the site needs no gettext tools; this verb does: apt-get install gettext).
messages: export DEBUG := 1
messages: venv
	$(BIN)/python manage.py makemessages -l fr -d django $(MESSAGES_IGNORE)
	$(BIN)/python manage.py makemessages -l fr -d djangojs $(MESSAGES_IGNORE)
	$(BIN)/python manage.py compilemessages -l fr --ignore=.venv

MESSAGES_IGNORE := --no-obsolete --ignore=.venv --ignore=staticfiles --ignore=tests --ignore=bench

# Screenshots of the main pages, in English and French, into docs/screenshots/ (for the README).
screenshots: export DATABASE_URL := $(or $(DATABASE_URL),postgres://postgres@127.0.0.1:5432/farkle)
screenshots: export DEBUG := 0
screenshots: export SECRET_KEY := test-secret-key-for-the-test-suite-only-0123456789abcdefghijklmnop
screenshots: export FARKLE_SEED_SECRET := test-secret
screenshots: export SECURE_SSL_REDIRECT := 0
screenshots: export CELERY_BROKER_URL :=
screenshots: export FARKLE_SCREENSHOTS := 1
screenshots: venv
	$(BIN)/pytest tests/browser/test_screenshots.py tests/browser/test_retry.py tests/browser/test_rating.py
