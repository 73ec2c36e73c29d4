"""Today's leaderboard in the browser: pages, my row highlighted, pinned when off the page."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from ..daily.helpers import play_greedy, post
from .driver import api_play, today

pytestmark = pytest.mark.django_db(transaction=True)


def test_my_row_is_pinned_below_the_first_page_then_highlighted_on_mine(contexts, settings):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **rates,
            "attempt_start": "1000/minute",
            "guest_start": "1000/minute",
        },
    }
    day = today().isoformat()
    # Same dice and same play: 55 equal scores, ranked by finish time; mine finishes last.
    for _ in range(55):
        client = Client()
        play_greedy(client, post(client, f"/api/daily/{day}/attempts").json(), bank_at=50)
    page = contexts.page()
    page.goto("/leaderboard")
    mine = api_play(page.context, f"/api/daily/{day}/attempts", bank_at=50)
    page.reload()

    rows = page.locator("[data-board] tbody tr:not([data-role=reference])")
    expect(rows).to_have_count(52)  # 50 entries, a gap, my pinned row
    pinned = page.locator("[data-board] tbody tr.me")
    expect(pinned).to_have_attribute("data-pinned", "1")
    expect(pinned).to_contain_text(f"{mine['score']:,}")
    expect(page.locator("[data-board] [data-role=page-label]")).to_have_text("Page 1 of 2")
    expect(page.locator("[data-board] [data-role=me]")).to_contain_text("You: rank 1 with")

    page.get_by_role("button", name="Next →").click()

    expect(page).to_have_url("/leaderboard?page=2")
    expect(rows).to_have_count(6)
    expect(page.locator("[data-board] tbody tr.me")).not_to_have_attribute("data-pinned", "1")
    expect(rows.last).to_have_class("me")
    expect(page.get_by_role("button", name="Next →")).to_be_disabled()
