"""Screenshots of the main pages. `make screenshots` writes them to docs/screenshots/ for the
README; the test suite takes them into a temporary folder, so every page is at least opened in
a real browser, with some players on the boards, and raises no script error."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from ..daily.helpers import play_greedy, post
from .driver import Player, api_play, daily_game, greedy, today

pytestmark = pytest.mark.django_db(transaction=True)


def other_players(count: int, *, start: str) -> None:
    """Finished official games by `count` other players, with scores spread by their style."""
    for n in range(count):
        client = Client()
        response = post(client, start)
        assert response.status_code == 201, response.json()
        play_greedy(client, response.json(), bank_at=250 + 150 * (n % 6))


@pytest.mark.today
def test_screenshots_of_the_main_pages(contexts, folder):
    day = today().isoformat()
    other_players(14, start=f"/api/daily/{day}/attempts")

    page = contexts.page(viewport={"width": 1200, "height": 860}, reduced_motion="reduce")
    page.goto("/")
    player = Player(page, daily_game())
    player.wait_ready()
    player.play(greedy(), until=lambda game: game.turn >= 4 and game.state == "awaiting_keep")
    best = max(player.game.keep_options(), key=lambda option: option.points)
    for position in best.positions:
        page.locator(f"[data-pos='{position}']").click()
    page.screenshot(path=folder / "today-playing.png")
    for position in best.positions:
        page.locator(f"[data-pos='{position}']").click()

    player.play(greedy())
    expect(page.locator("[data-play] [data-role=end-histogram] svg")).to_be_visible()
    page.locator("[data-play] [data-role=end]").scroll_into_view_if_needed()
    page.wait_for_timeout(400)
    page.screenshot(path=folder / "today-finished.png")

    page.goto("/leaderboard")
    expect(page.locator("[data-board] tbody tr.me")).to_have_count(1)
    page.screenshot(path=folder / "leaderboard.png")

    page.goto("/rules")
    page.screenshot(path=folder / "rules.png")

    page.goto("/me")
    expect(page.locator("[data-stat=finished]")).to_have_text("1")
    page.screenshot(path=folder / "me.png")

    page.goto("/challenges/new")
    page.get_by_label("Title").fill("Friday night dice")
    page.get_by_role("button", name="Create the challenge").click()
    expect(page.locator("[data-role=created]")).to_be_visible()
    page.screenshot(path=folder / "challenge-new.png")
    code = page.locator("#created-code").input_value().replace("-", "")
    api_play(page.context, f"/api/challenges/{code}/attempts")
    other_players(3, start=f"/api/challenges/{code}/attempts")
    page.goto(f"/c/{code}")
    expect(page.locator("[data-board] tbody tr:not([data-role=reference])")).to_have_count(4)
    page.screenshot(path=folder / "challenge.png", full_page=True)

    page.goto("/verify")
    page.screenshot(path=folder / "verify.png")

    phone = contexts.page(
        viewport={"width": 360, "height": 780},
        is_mobile=True,
        has_touch=True,
        reduced_motion="reduce",
    )
    phone.goto("/")
    on_phone = Player(phone, daily_game())
    on_phone.wait_ready()
    on_phone.apply(greedy()(on_phone.game))
    phone.screenshot(path=folder / "phone.png")

    french = contexts.page(
        viewport={"width": 1200, "height": 860}, locale="fr-FR", reduced_motion="reduce"
    )
    french.goto("/")
    in_french = Player(french, daily_game())
    in_french.wait_ready()
    in_french.play(greedy(), until=lambda game: game.turn >= 2 and game.state == "awaiting_keep")
    french.screenshot(path=folder / "today-fr.png")

    # Other tests (the groups') add pictures of their own to docs/screenshots.
    assert {p.name for p in folder.glob("*.png")} >= {
        "challenge-new.png",
        "challenge.png",
        "leaderboard.png",
        "me.png",
        "phone.png",
        "rules.png",
        "today-finished.png",
        "today-fr.png",
        "today-playing.png",
        "verify.png",
    }
