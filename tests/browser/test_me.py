"""My page in the browser: name, stats after a game, sign up, log out, log in."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .driver import api_play, today

pytestmark = pytest.mark.django_db(transaction=True)

# In the sweep (tests/sweep.py), marked `today`: all of them open /me, whose streaks, history and
# invitation read the day.


@pytest.mark.today
def test_me_renames_signs_up_logs_out_and_in(contexts):
    page = contexts.page()
    page.goto("/")
    game = api_play(page.context, f"/api/daily/{today().isoformat()}/attempts")

    page.goto("/me")
    expect(page.locator("[data-stat=finished]")).to_have_text("1")
    expect(page.locator("[data-stat=best]")).to_have_text(f"{game['score']:,}")
    expect(page.locator("[data-stat=current_streak]")).to_have_text("1")
    expect(page.locator("[data-role=history] tr")).to_have_count(1)
    expect(page.locator("[data-role=histogram] svg")).to_be_visible()

    page.get_by_label("Shown on leaderboards").fill("Lucky Otter")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("h1")).to_have_text("Lucky Otter")
    saved = page.locator("[data-form=rename] [data-role=ok]")
    expect(saved).to_have_text("Saved.")

    signup = page.locator("[data-form=signup]")
    signup.get_by_label("Username").fill("otter")
    signup.get_by_label("Password").fill("a-long-enough-passphrase")
    signup.get_by_role("button", name="Create my account").click()
    expect(page.locator("[data-role=logged-in-text]")).to_have_text("Logged in as otter.")

    notice = page.locator("[data-role=account-notice]")
    expect(notice).to_have_text("Account created. You are logged in.")

    # Issue 40: logging out says so on the page, forgets the old "Saved.", and the emptied name
    # field says what it is for.
    page.get_by_role("button", name="Log out").click()
    expect(page.locator("[data-role=guest]")).to_be_visible()
    expect(notice).to_have_text(
        "Logged out. This browser plays as a new guest until you log in again."
    )
    expect(saved).to_be_hidden()
    name = page.get_by_label("Shown on leaderboards")
    expect(name).to_have_value("")
    expect(name).to_have_attribute("placeholder", "Choose a name")

    login = page.locator("[data-form=login]")
    login.get_by_label("Username").fill("otter")
    login.get_by_label("Password").fill("wrong password")
    login.get_by_role("button", name="Log in").click()
    expect(login.locator("[data-role=error]")).to_have_text("Wrong username or password.")
    login.get_by_label("Password").fill("a-long-enough-passphrase")
    login.get_by_role("button", name="Log in").click()
    expect(page.locator("h1")).to_have_text("Lucky Otter")
    expect(page.locator("[data-stat=finished]")).to_have_text("1")
    expect(notice).to_have_text("Logged in.")


@pytest.mark.today
def test_a_taken_name_is_refused_in_words(contexts):
    first = contexts.page()
    first.goto("/me")
    first.get_by_label("Shown on leaderboards").fill("Quiet Heron")
    first.get_by_role("button", name="Save").click()
    expect(first.locator("h1")).to_have_text("Quiet Heron")

    second = contexts.page()
    second.goto("/me")
    second.get_by_label("Shown on leaderboards").fill("quiet heron")
    second.get_by_role("button", name="Save").click()

    expect(second.locator("[data-form=rename] [data-role=error]")).to_have_text(
        "That name is taken: please choose another."
    )


@pytest.mark.today
def test_a_new_visitor_is_invited_to_play_without_a_failed_request(contexts):
    # Issue 9, item 9: a guest without a player is a normal state, not a 404 in the console.
    page = contexts.page()
    failed, console_errors = [], []
    page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
    page.on("console", lambda m: m.type == "error" and console_errors.append(m.text))

    page.goto("/me")
    welcome = page.locator("[data-role=welcome]")
    expect(welcome).to_be_visible()
    expect(welcome.get_by_role("link", name="Play today's daily")).to_have_attribute("href", "/")
    expect(page.locator("[data-role=player-only]").first).to_be_hidden()
    page.wait_for_load_state("networkidle")
    assert (failed, console_errors) == ([], [])

    # Choosing a name makes a player: the invitation gives way to the stats.
    page.get_by_label("Shown on leaderboards").fill("Lucky Otter")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("h1")).to_have_text("Lucky Otter")
    saved = page.locator("[data-form=rename] [data-role=ok]")
    expect(saved).to_have_text("Saved.")
    expect(welcome).to_be_hidden()
    expect(page.locator("[data-role=player-only]").first).to_be_visible()
    page.reload()
    expect(page.locator("[data-stat=finished]")).to_have_text("0")
    expect(welcome).to_be_hidden()
    assert (failed, console_errors) == ([], [])


@pytest.mark.today
@pytest.mark.parametrize(
    ("locale", "name", "reason"),
    [
        ("en-GB", "Admin", "A name cannot pass for the site's staff."),
        ("en-GB", "Sh1t Happens", "This name is not allowed; please choose another."),
        ("en-GB", "Ace 500", "A name cannot look like a score or a throw of dice: at most two digits in a row."),  # noqa: E501
        ("fr-FR", "Admin", "Un nom ne peut pas se faire passer pour l’équipe du site."),
        ("fr-FR", "Sh1t Happens", "Ce nom n’est pas autorisé ; choisissez-en un autre."),
    ],
)  # fmt: skip
def test_a_refused_name_says_why(contexts, locale, name, reason):
    # Issue 9, item 10: the format rule was shown whatever the reason.
    page = contexts.page(locale=locale)
    page.goto("/me")
    page.locator("#display-name").fill(name)
    page.locator("[data-form=rename] button[type=submit]").click()
    expect(page.locator("[data-form=rename] [data-role=error]")).to_have_text(reason)
