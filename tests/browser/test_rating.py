"""The skill rating on /me in Chromium (issue 40 item 5), English and French, desktop and phone:
before the first close it says when it will appear; after two closed days it shows the rating,
its likely range, its history as a chart and a table, and the page never scrolls sideways."""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from daily.services.rollover import reconcile

from .driver import api_play

pytestmark = pytest.mark.django_db(transaction=True)

# In the sweep (tests/sweep.py), marked `today`: the newcomer's /me (it reads the day). Left out:
# the rating before and after the close, which moves the `clock` to instants of its own.

UTC = datetime.UTC
FIRST = datetime.date(2026, 11, 29)
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]


def test_the_rating_on_me_before_and_after_the_close(contexts, clock, settings, folder):
    settings.FARKLE_FIRST_DAY = FIRST
    clock.move_to(datetime.datetime(2026, 11, 29, 12, tzinfo=UTC))
    english = contexts.page(viewport=DESKTOP, reduced_motion="reduce")
    english.goto("/")
    api_play(english.context, "/api/daily/2026-11-29/attempts")

    # Played, the day still open: the card says when the rating will come, nothing more.
    english.goto("/me")
    card = english.locator("section[aria-labelledby=rating-title]")
    expect(card.get_by_role("heading")).to_have_text("Skill rating")
    expect(card.locator("[data-role=rating-soon]")).to_have_text(
        "Your first rating comes with the close of the day you played, at 00:02 UTC the next "
        "day: each day is rated once it is over for everyone."
    )
    expect(card.locator("[data-role=rating-none]")).to_be_hidden()
    expect(card.locator("[data-role=rating-current]")).to_be_hidden()
    expect(card.locator("[data-role=rating-chart]")).to_be_hidden()
    english.screenshot(path=folder / "me-rating-none.png", full_page=True)

    # A second day, then both closed by the rollover.
    clock.move_to(datetime.datetime(2026, 11, 30, 12, tzinfo=UTC))
    english.context.clock.set_fixed_time(datetime.datetime(2026, 11, 30, 12, tzinfo=UTC))
    api_play(english.context, "/api/daily/2026-11-30/attempts", bank_at=500)
    closed = datetime.datetime(2026, 12, 1, 0, 2, tzinfo=UTC)
    clock.move_to(closed)
    english.context.clock.set_fixed_time(closed)
    assert reconcile(now=closed).rated == [
        "daily 2026-11-29: 1 rated",
        "daily 2026-11-30: 1 rated",
    ]

    english.reload()
    me = english.context.request.get("/api/me").json()["rating"]
    current = me["current"]
    expect(card.locator("[data-role=rating-none]")).to_be_hidden()
    expect(card.locator("[data-role=rating-soon]")).to_be_hidden()
    expect(card.locator("[data-role=rating-value]")).to_have_text(f"{round(current['rating']):,}")
    expect(card.locator("[data-role=rating-range]")).to_have_text(
        f"likely between {round(current['low']):,} and {round(current['high']):,}"
    )
    expect(card.locator("[data-role=rating-days]")).to_contain_text(
        "After 2 rated days (latest: November 30, 2026"
    )
    chart = card.locator("[data-role=rating-chart] svg")
    expect(chart).to_be_visible()
    expect(chart).to_have_attribute(
        "aria-label",
        f"Skill rating over 2 rated days, from {round(me['history'][1]['rating']):,} on "
        f"November 29, 2026 to {round(current['rating']):,} on November 30, 2026.",
    )
    expect(chart.locator("circle")).to_have_count(2)
    card.get_by_text("Rating by day").click()
    expect(card.locator("[data-role=rating-history] tr")).to_have_count(2)
    card.scroll_into_view_if_needed()
    english.screenshot(path=folder / "me-rating-desktop.png", full_page=True)

    english.set_viewport_size(PHONE)
    english.reload()
    expect(chart).to_be_visible()
    no_sideways_scroll(english)
    card.screenshot(path=folder / "me-rating-phone.png")

    # The same player in French: the same browser's session.
    context = contexts.new(viewport=DESKTOP, locale="fr-FR", reduced_motion="reduce")
    context.add_cookies(english.context.cookies())
    context.clock.set_fixed_time(closed)
    french = contexts.watch(context.new_page())
    french.goto("/me")
    card = french.locator("section[aria-labelledby=rating-title]")
    expect(card.get_by_role("heading")).to_have_text("Cote de niveau")
    group = "\u202f"
    expect(card.locator("[data-role=rating-value]")).to_have_text(
        f"{round(current['rating']):,}".replace(",", group)
    )
    expect(card.locator("[data-role=rating-range]")).to_have_text(
        f"probablement entre {round(current['low']):,} et {round(current['high']):,}".replace(
            ",", group
        )
    )
    expect(card.locator("[data-role=rating-days]")).to_contain_text(
        "Après 2 jours cotés (dernier\u00a0: 30 novembre 2026"
    )
    expect(card.locator("[data-role=rating-chart] svg")).to_be_visible()
    french.screenshot(path=folder / "me-rating-fr-desktop.png", full_page=True)
    french.set_viewport_size(PHONE)
    french.reload()
    expect(card.locator("[data-role=rating-chart] svg")).to_be_visible()
    no_sideways_scroll(french)
    card.screenshot(path=folder / "me-rating-fr-phone.png")


@pytest.mark.today
def test_a_newcomer_reads_when_the_rating_will_appear_in_french(contexts):
    page = contexts.page(viewport=PHONE, locale="fr-FR")
    page.goto("/me")
    page.get_by_label("Affiché dans les classements").fill("Héron Calme")
    page.locator("[data-form=rename] button[type=submit]").click()
    expect(page.locator("h1")).to_have_text("Héron Calme")
    card = page.locator("section[aria-labelledby=rating-title]")
    expect(card.locator("[data-role=rating-none]")).to_contain_text(
        "Votre cote apparaîtra après la clôture du premier Farkle du jour que vous jouerez"
    )
    expect(card.locator("[data-role=rating-soon]")).to_be_hidden()
    no_sideways_scroll(page)
