"""Issue 10: a daily's commitment is public a day before it opens, and nothing about it plays
before then. Instants are named around 00:00 UTC on the night of the 29th to the 30th."""

from __future__ import annotations

import datetime
import hashlib
import hmac

import pytest
from django.conf import settings

from daily.services.rollover import reconcile
from play.models import Attempt, Player, Puzzle

from .helpers import act, post

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]

UTC = datetime.UTC
TOMORROW = "2026-11-30"
MIDNIGHT = datetime.datetime(2026, 11, 30, tzinfo=UTC)
ONE_MS = datetime.timedelta(milliseconds=1)
BEFORE = MIDNIGHT - ONE_MS  # 23:59:59.999 on the 29th
AFTER = MIDNIGHT + ONE_MS  # 00:00:00.001 on the 30th
# A worker whose clock runs 5 ms behind the beat's runs the 00:00 reconcile "before midnight".
SKEWED = MIDNIGHT - datetime.timedelta(milliseconds=5)


@pytest.fixture(autouse=True)
def _first_day(settings):
    settings.FARKLE_FIRST_DAY = datetime.date(2026, 11, 29)


def seed_of(day: str) -> bytes:
    """HMAC-SHA-256(secret, "daily:<date>") (docs/fairness.md), with the standard library."""
    secret = settings.FARKLE_SEED_SECRET.encode()
    return hmac.new(secret, f"daily:{day}".encode(), hashlib.sha256).digest()


def commitment_of(day: str) -> str:
    return hashlib.sha256(seed_of(day)).hexdigest()


def test_tomorrow_is_public_with_its_commitment_a_day_ahead(client):
    # Noon on the 29th: nothing has run yet, the request itself creates tomorrow.
    response = client.get(f"/api/daily/{TOMORROW}")
    assert response.status_code == 200
    body = response.json()
    assert {k: body[k] for k in ("date", "status", "opens_at", "commitment")} == {
        "date": TOMORROW,
        "status": "upcoming",
        "opens_at": "2026-11-30T00:00:00Z",
        "commitment": commitment_of(TOMORROW),
    }
    assert (body["revealed_seed"], body["my_attempts"], body["players"]) == (None, [], 0)
    # Beyond the horizon, nothing.
    beyond = client.get("/api/daily/2026-12-01")
    assert (beyond.status_code, beyond.json()["code"]) == (404, "not_found")


@pytest.mark.parametrize("instant", [MIDNIGHT - datetime.timedelta(hours=12), BEFORE])
def test_nothing_about_tomorrow_starts_or_plays_before_it_opens(client, clock, instant):
    clock.move_to(instant)
    assert client.get(f"/api/daily/{TOMORROW}").json()["status"] == "upcoming"
    refused = post(client, f"/api/daily/{TOMORROW}/attempts")
    assert (refused.status_code, refused.json()["code"]) == (409, "not_open")
    assert refused.json()["opens_at"] == "2026-11-30T00:00:00Z"
    hidden = client.get(f"/api/verify/daily/{TOMORROW}")
    assert (hidden.status_code, hidden.json()["code"]) == (409, "not_revealed")
    board = client.get(f"/api/daily/{TOMORROW}/leaderboard").json()
    assert (board["status"], board["entries"], board["players"]) == ("upcoming", [], 0)
    # Today is still the 29th, and no guest was made for the refusal.
    assert client.get("/api/daily/today").json()["date"] == "2026-11-29"
    assert (Attempt.objects.exists(), Player.objects.exists()) == (False, False)


def test_tomorrow_opens_on_the_stroke_of_midnight_with_the_published_commitment(client, clock):
    clock.move_to(BEFORE)
    published = client.get(f"/api/daily/{TOMORROW}").json()["commitment"]
    clock.move_to(MIDNIGHT)
    day = client.get("/api/daily/today").json()
    assert (day["date"], day["status"], day["commitment"]) == (TOMORROW, "open", published)
    clock.move_to(AFTER)
    started = post(client, "/api/daily/today/attempts")
    assert (started.status_code, started.json()["official"]) == (201, True)
    rolled = act(client, started.json(), {"action": "roll"}).json()
    assert rolled["puzzle"] == {"kind": "daily", "date": TOMORROW}
    assert rolled["commitment"] == published == commitment_of(TOMORROW)
    # The day after is now the upcoming one.
    assert client.get("/api/daily/2026-12-01").json()["status"] == "upcoming"


def test_a_reconcile_running_before_midnight_leaves_the_new_day_ready(client, clock):
    # The worker's own clock reads 5 ms before midnight.
    clock.move_to(SKEWED)
    report = reconcile(now=SKEWED)
    assert report.published == ["daily 2026-11-29", "daily 2026-11-30"]
    clock.move_to(AFTER)
    # No reconcile since: the new day is open by the clock alone, on the published puzzle.
    before = Puzzle.objects.get(day=TOMORROW)
    day = client.get("/api/daily/today").json()
    assert (day["date"], day["status"], day["commitment"]) == (TOMORROW, "open", before.commitment)
    assert Puzzle.objects.filter(day=TOMORROW).count() == 1
    # The midnight run itself has only the day after to publish.
    assert reconcile(now=AFTER).published == ["daily 2026-12-01"]


def test_the_reconcile_publishes_tomorrow_and_never_further(clock):
    for instant in (BEFORE, AFTER):
        clock.move_to(instant)
        reconcile(now=instant)
    days = [d.isoformat() for d in Puzzle.objects.order_by("day").values_list("day", flat=True)]
    assert days == ["2026-11-29", "2026-11-30", "2026-12-01"]


def test_commitments_page_lists_coming_commitments_and_recent_seeds(client, clock, settings):
    settings.FARKLE_FIRST_DAY = datetime.date(2026, 11, 27)
    clock.move_to(datetime.datetime(2026, 11, 29, 12, tzinfo=UTC))
    # No reconcile and no API call: the page itself creates the days it lists.
    page = client.get("/commitments").content.decode()
    assert Puzzle.objects.filter(day=TOMORROW).exists()
    for day in ("2026-11-30", "2026-11-29"):
        assert f'id="d-{day}"' in page and commitment_of(day) in page
        # Not closed: the seed stays secret.
        assert seed_of(day).hex() not in page
    assert 'data-status="upcoming"' in page and 'data-date="2026-11-30"' in page
    assert "2026-12-01" not in page
    # The closed days' seeds are revealed beside their commitments, once a day exists.
    client.get("/api/daily/2026-11-28")
    page = client.get("/commitments").content.decode()
    assert seed_of("2026-11-28").hex() in page and commitment_of("2026-11-28") in page


def test_upcoming_day_page_points_at_its_commitment(client):
    response = client.get(f"/daily/{TOMORROW}")
    assert (response.status_code, response["Location"]) == (302, f"/commitments#d-{TOMORROW}")
    assert Puzzle.objects.filter(day=TOMORROW).exists()
    assert 'href="/commitments"' in client.get("/verify").content.decode()
