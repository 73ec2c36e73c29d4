"""Today's leaderboard in the browser: pages, my row highlighted, pinned when off the page."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from ..daily.helpers import play_greedy, post
from .driver import api_play, csrf, today

pytestmark = pytest.mark.django_db(transaction=True)

# In the sweep (tests/sweep.py), marked `today`: every test of today's board. Left out: the
# challenge's board (its dice from a random code, its close from its creation plus a day).


@pytest.mark.today
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


def _others_finish(day: str, banks: tuple[int, ...]) -> list[dict]:
    games = []
    for bank_at in banks:
        client = Client()
        games.append(
            play_greedy(client, post(client, f"/api/daily/{day}/attempts").json(), bank_at=bank_at)
        )
    return games


@pytest.mark.today
@pytest.mark.parametrize(
    ("locale", "count", "invite", "link"),
    [
        (
            "en-GB",
            "3 players have finished so far.",
            "Play first, then compare",
            "Play today's daily",
        ),
        (
            "fr-FR",
            "3 joueurs ont terminé pour l’instant.",
            "Jouez d’abord, comparez ensuite",
            "Jouer le Farkle du jour",
        ),
    ],
)
def test_the_open_days_board_waits_until_i_have_played_then_shows_everything(
    contexts, locale, count, invite, link
):
    # Issue 39 item 2: before my official game is finished, the count and an invitation to play.
    day = today().isoformat()
    games = _others_finish(day, (250, 400, 900))
    page = contexts.page(locale=locale)
    page.goto("/leaderboard")

    board = page.locator("[data-board]")
    note = board.locator("[data-role=hidden-scores]")
    expect(board).to_have_attribute("data-revealed", "0")
    expect(note).to_be_visible()
    expect(note).to_contain_text(invite)
    expect(note.locator("[data-role=hidden-count]")).to_have_text(count)
    # Beside the board (below it on a phone), the way to play, as the visitor's game stands.
    invite = page.locator("[data-role=my-daily]")
    expect(invite.get_by_role("link", name=link)).to_have_attribute("href", "/")
    expect(board.locator("[data-stat=players]")).to_have_text("3")
    for hidden in ("table", "histogram", "me", "accounts-label"):
        expect(board.locator(f"[data-role={hidden}]")).to_be_hidden()
    expect(board.locator("[data-stat=best]")).to_be_hidden()

    mine = api_play(page.context, f"/api/daily/{day}/attempts", bank_at=300)
    page.reload()

    expect(board).to_have_attribute("data-revealed", "1")
    expect(note).to_be_hidden()
    rows = board.locator("tbody tr:not([data-role=reference])")
    expect(rows).to_have_count(4)
    expect(board.locator("tbody tr.me")).to_be_visible()
    expect(board.locator("[data-stat=players]")).to_have_text("4")
    expect(board.locator("[data-stat=best]")).to_be_visible()
    expect(board.locator("tbody tr.me")).to_contain_text(
        f"{mine['score']:,}".replace(",", "\u202f" if locale == "fr-FR" else ",")
    )
    assert len(games) == 3


@pytest.mark.today
def test_a_game_in_progress_is_invited_back_to_finish_it(contexts):
    day = today().isoformat()
    _others_finish(day, (250,))
    page = contexts.page()
    page.goto("/")
    started = page.context.request.post(
        f"/api/daily/{day}/attempts", headers={"X-CSRFToken": csrf(page.context)}
    )
    assert started.status == 201, started.text()
    page.goto("/leaderboard")

    note = page.locator("[data-board] [data-role=hidden-scores]")
    expect(note).to_be_visible()
    expect(note.locator("[data-role=hidden-count]")).to_have_text("1 player has finished so far.")
    expect(
        page.locator("[data-role=my-daily]").get_by_role("link", name="Resume today's daily")
    ).to_have_attribute("href", "/")


def test_an_open_challenges_board_shows_once_i_finish_it_on_its_page(contexts):
    friend = Client()
    code = post(friend, "/api/challenges", {"days": 1}).json()["code"]
    play_greedy(friend, post(friend, f"/api/challenges/{code}/attempts").json())
    page = contexts.page()
    page.goto(f"/c/{code}")

    board = page.locator("[data-board]")
    note = board.locator("[data-role=hidden-scores]")
    expect(note.locator("[data-role=hidden-count]")).to_have_text("1 player has finished so far.")
    expect(note.get_by_role("link", name="Play this challenge")).to_have_attribute("href", "#play")

    api_play(page.context, f"/api/challenges/{code}/attempts")
    page.reload()

    expect(note).to_be_hidden()
    expect(board.locator("tbody tr:not([data-role=reference])")).to_have_count(2)


@pytest.mark.today
def test_account_holders_only_is_asked_of_the_api_as_true_and_kept_in_the_address(contexts):
    # Issue 39 item 6: the API takes only true or false; the box asks for accounts=true, puts it in
    # the address, and an address written as before (accounts=1) still opens the filtered board.
    day = today().isoformat()
    _others_finish(day, (250, 400))
    signer = Client()
    play_greedy(signer, post(signer, f"/api/daily/{day}/attempts").json(), bank_at=900)
    signed = post(
        signer, "/api/auth/signup", {"username": "holder", "password": "a long pass phrase 7"}
    )
    assert signed.status_code == 201, signed.json()
    page = contexts.page()
    page.goto("/leaderboard")
    api_play(page.context, f"/api/daily/{day}/attempts", bank_at=300)
    page.reload()
    board = page.locator("[data-board]")
    rows = board.locator("tbody tr:not([data-role=reference])")
    expect(rows).to_have_count(4)

    with page.expect_response(lambda r: "/leaderboard?" in r.url and "/api/" in r.url) as asked:
        board.locator("[data-role=accounts]").check()
    assert "accounts=true" in asked.value.url
    assert asked.value.status == 200
    expect(page).to_have_url("/leaderboard?accounts=true")
    expect(rows).to_have_count(1)

    for address in ("/leaderboard?accounts=true", "/leaderboard?accounts=1"):
        with page.expect_response(lambda r: "/api/" in r.url and "leaderboard" in r.url) as asked:
            page.goto(address)
        assert (asked.value.status, "accounts=true" in asked.value.url) == (200, True), address
        expect(board.locator("[data-role=accounts]")).to_be_checked()
        expect(rows).to_have_count(1)
