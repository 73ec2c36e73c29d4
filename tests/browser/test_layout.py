"""Every page at a desktop width and on a 360 px phone: no sideways scroll, axe-core's WCAG A and
AA rules (text contrast among them), focus rings and text on the gradients measured here.

axe-core (the pinned axe-playwright-python ships its axe.min.js) cannot read a colour behind text
on a gradient and reports it as "incomplete": the felt and the header are gradients, so the text
and focus rings there are measured by ``CONTRAST_JS`` below, against every stop of the gradient.
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone
from playwright.sync_api import Page, expect

import farkle
from challenges.services import challenge_create
from farkle import Keep, Roll
from play.services.players import player_create

from .driver import Player, api_play, csrf, daily_game, today

# At noon on 2026-11-29 (the clock fixture): the past day each page test opens exists and
# is closed, which no date in the calendar's first two days or in a grace period could give.
# Pinned there whole (the browser's clock too, set from the server's), so out of the sweep
# (tests/sweep.py): FARKLE_TEST_NOW changes nothing here.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("clock")]

DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
WIDTHS = {"desktop": DESKTOP, "phone": PHONE}

# Pages by name: a challenge's and a past day's addresses are made in the test.
PAGES = [
    "today",
    "today-finished",
    "leaderboard",
    "day",
    "me",
    "me-played",
    "rules",
    "learn",
    "verify",
    "challenges",
    "challenge-new",
    "challenge",
    "groups",
    "group",
    "not-found",
    "replay",
]

# WCAG 1.4.3 and 1.4.11: text 4.5:1, large text (24 px, or 18.66 px bold) and focus rings 3:1.
_CONTRAST_FILE = (Path(__file__).parent / "contrast.js").read_text()
CONTRAST_JS = _CONTRAST_FILE[_CONTRAST_FILE.index("(args) =>") :]


def _challenge_code() -> str:
    now = timezone.now()
    return challenge_create(creator=player_create(now=now), now=now).puzzle.code


def _visit(page: Page, name: str) -> None:
    """Open the page called ``name`` in the state it is named after."""
    yesterday = today() - datetime.timedelta(days=1)
    paths = {
        "today": "/",
        "leaderboard": "/leaderboard",
        "day": f"/daily/{yesterday.isoformat()}",
        "me": "/me",
        "rules": "/rules",
        "learn": "/learn",
        "verify": "/verify",
        "challenges": "/c/",
        "challenge-new": "/challenges/new",
        "groups": "/g/",
        "not-found": "/no-such-page",
    }
    if name in paths:
        page.goto(paths[name])
    elif name == "challenge":
        page.goto(f"/c/{_challenge_code()}")
    elif name == "group":
        # A member's page, today's game finished: the table shows scores, the season its rows.
        page.goto("/g/")
        made = page.context.request.post(
            "/api/groups", data={"name": "Layout crew"}, headers={"X-CSRFToken": csrf(page.context)}
        )
        api_play(page.context, f"/api/daily/{today().isoformat()}/attempts")
        page.goto(f"/g/{made.json()['code']}")
    elif name == "replay":
        page.goto("/")
        attempt = api_play(page.context, f"/api/daily/{today().isoformat()}/attempts")
        page.goto(f"/attempts/{attempt['id']}/replay")
    else:
        page.goto("/")
        api_play(page.context, f"/api/daily/{today().isoformat()}/attempts")
        page.goto("/" if name == "today-finished" else "/me")
    page.wait_for_load_state("networkidle")


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
@pytest.mark.parametrize("name", PAGES)
def test_no_page_scrolls_sideways_on_a_phone(contexts, name, locale):
    # French words run longer: both languages are measured.
    page = contexts.page(locale=locale, **PHONE)
    _visit(page, name)

    assert page.evaluate("document.documentElement.scrollWidth") <= 360


@pytest.mark.parametrize(
    ("name", "width"),
    [(n, w) for n in PAGES for w in WIDTHS],
)
def test_every_page_passes_axe_wcag_a_and_aa(contexts, name, width):
    page = contexts.page(**WIDTHS[width])
    _visit(page, name)

    results = Axe().run(page, options={"runOnly": ["wcag2a", "wcag2aa", "wcag21aa"]})

    violations = [
        f"{v['id']}: {[node['target'] for node in v['nodes']][:5]}"
        for v in results.response["violations"]
    ]
    assert violations == []


def _play_to_a_scoring_selection(page: Page) -> None:
    """A game with a kept group in the tray and a scoring selection on the felt."""
    page.goto("/")
    player = Player(page, daily_game())
    player.wait_ready()
    while True:
        player.apply(Roll())
        if player.game.state == farkle.AWAITING_KEEP:
            break
    positions = min(player.game.keep_options(), key=lambda o: len(o.positions)).positions
    player.apply(Keep(positions=positions, then="roll"))
    while player.game.state != farkle.AWAITING_KEEP:
        player.apply(Roll())
    positions = player.game.keep_options()[0].positions
    for position in positions:
        page.locator(f"[data-pos='{position}']").click()
    expect(page.locator("[data-play] [data-role=selection]")).to_have_class("selection ok")


@pytest.mark.parametrize("width", WIDTHS)
def test_text_on_the_felt_and_the_header_meets_aa(contexts, width):
    # Issue 9, item 12: gold text on the green table was about 2.8:1.
    page = contexts.page(**WIDTHS[width])
    _play_to_a_scoring_selection(page)

    failures = page.evaluate(CONTRAST_JS, [".site-header *, .felt *", "text"])

    assert failures == []


def _tab_through(page: Page) -> tuple[int, list[str]]:
    """Tab through the page (the keyboard shows focus rings); how many stops, and the rings
    that do not stand out."""
    failures, seen = [], set()
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement === document.body"):
            break
        key = page.evaluate("document.activeElement.outerHTML.slice(0, 160)")
        if key in seen:
            break
        seen.add(key)
        failures += page.evaluate(CONTRAST_JS, ["", "focus"])
    return len(seen), failures


@pytest.mark.parametrize(
    "name",
    ["today", "today-finished", "leaderboard", "learn", "me", "challenges", "groups", "group"],
)
def test_focus_rings_stand_out_on_every_background(contexts, name):
    # Issue 9, item 12: the ring was 1.65:1 against the page and invisible on gold buttons.
    page = contexts.page(**DESKTOP)
    _visit(page, name)

    stops, failures = _tab_through(page)

    assert stops > 5
    assert failures == []


def test_focus_rings_stand_out_on_the_felt(contexts):
    page = contexts.page(**DESKTOP)
    _play_to_a_scoring_selection(page)
    page.locator(".skip").focus()

    stops, failures = _tab_through(page)

    assert stops > 10
    assert failures == []
