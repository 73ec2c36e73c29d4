"""Chromium reports no Content-Security-Policy violation on any page (issue 10 item 12)."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from challenges.services import challenge_create
from groups.services import group_create
from play.services.players import player_create

from .driver import Player, api_play, daily_game, today

# Recorded before any page script runs: every violation the browser reports, with its directive.
WATCH = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""
PAGES = ["/", "/leaderboard", "/daily/2026-11-28", "/me", "/rules", "/verify", "/c/"]
PAGES += ["/challenges/new", "/no-such-page", "/api/docs/", "/g/"]


# In the sweep (tests/sweep.py): it plays today's daily.
@pytest.mark.today
@pytest.mark.django_db(transaction=True)
def test_no_page_violates_the_content_security_policy(contexts):
    now = timezone.now()
    code = challenge_create(creator=player_create(now=now), title="Friday", now=now).puzzle.code
    group = group_create(creator=player_create(now=now), name="Friday crew", now=now).code
    context = contexts.new()
    context.add_init_script(WATCH)
    page = contexts.watch(context.new_page())
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    for path in [*PAGES, f"/c/{code}", f"/g/{group}"]:
        response = page.goto(path, wait_until="networkidle")
        assert response.headers["content-security-policy"].startswith("default-src 'self'"), path
        violations = page.evaluate("window.__cspViolations")
        assert violations == [], (path, violations)
    # Play a throw, as a player would: the game's scripts run under the policy too.
    page.goto("/", wait_until="networkidle")
    play = page.locator("[data-play]")
    expect(play).not_to_have_attribute("data-state", "loading")
    # Today's first throw may be a Farkle, whose dice are no buttons: on to one that scores.
    Player(page, daily_game()).roll_to_a_scoring_throw()
    expect(play.locator("[data-role=dice] .die-btn").first).to_be_visible()
    assert page.evaluate("window.__cspViolations") == []
    # Issue 12: the end screen's analysis, the replay page of a finished game and its script,
    # for a player of their own (the one above has an official game in progress).
    other = contexts.new()
    other.add_init_script(WATCH)
    replay = contexts.watch(other.new_page())
    replay.on("console", lambda message: console.append(message.text))
    replay.goto("/", wait_until="networkidle")
    finished = api_play(other, f"/api/daily/{today().isoformat()}/attempts")
    replay.goto("/", wait_until="networkidle")
    expect(replay.locator("[data-role=end-analysis] [data-role=optimal-score]")).to_be_visible()
    expect(replay.locator("[data-role=end] [data-role=replay-link]")).to_be_visible()
    replay.goto(f"/attempts/{finished['id']}/replay", wait_until="networkidle")
    replay.keyboard.press("ArrowRight")
    assert replay.evaluate("window.__cspViolations") == []
    reported = [text for text in console if "Content Security Policy" in text]
    assert reported + [text for text in console if "Permissions-Policy" in text] == []


# Out of the sweep (tests/sweep.py): /rules reads no date.
# Seed 000's table of the Farkle risk by dice thrown, for the daily table.
SEED_RISKS = {6: 0.023, 5: 0.077, 4: 0.157, 3: 0.278, 2: 0.444, 1: 0.667}


@pytest.mark.django_db(transaction=True)
def test_the_rules_risk_bars_are_drawn_under_the_policy(contexts):
    # The bars were style attributes, which the policy now refuses: drawn as SVG rects instead,
    # each as long as its risk.
    context = contexts.new()
    context.add_init_script(WATCH)
    page = contexts.watch(context.new_page())
    page.goto("/rules", wait_until="networkidle")
    lengths = {}
    for row in page.locator("section[aria-labelledby=risk-title] tbody tr").all():
        dice = int(row.locator("td").first.inner_text())
        track = row.locator("svg.risk-bar").bounding_box()
        bar = row.locator("svg.risk-bar rect").bounding_box()
        assert track["width"] > 50, track
        lengths[dice] = bar["width"] / track["width"]
    assert lengths == pytest.approx(SEED_RISKS, abs=0.005)
    assert page.evaluate("window.__cspViolations") == []
