"""/learn in Chromium (issue 40 item 6): a first-time visitor walks through keeping, a Farkle, hot
dice and banking on a 360 × 740 phone, by touch or by keyboard, in English and French, and lands
on the daily; nothing is stored, no API is called, and a started official game stays as it was."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

import farkle
from play.models import Attempt, Player
from tests.helpers import stored

from .driver import csrf, today

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("clock")]

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}

# The walkthrough's script as a player reads it: which faces to keep at each step.
FIRST_KEEP = [1, 4, 4, 4, 5]
HOT_THROW = [5, 2, 1, 2, 5, 2]
TEXTS = {
    "en-GB": {
        "keep": "Keep for {points}",
        "roll": "Keep & roll",
        "next": "Next turn",
        "bank": "Keep & bank",
        "play": "Play today's Farkle",
        "skip": "Skip",
        "daily": "Today's daily",
        "step": "Step {n} of 4",
    },
    "fr-FR": {
        "keep": "Garder pour {points}",
        "roll": "Garder et relancer",
        "next": "Tour suivant",
        "bank": "Garder et encaisser",
        "play": "Jouer le Farkle du jour",
        "skip": "Passer",
        "daily": "Le Farkle du jour",
        "step": "Étape {n} sur 4",
    },
}


def _watch_api(page: Page) -> list[str]:
    calls: list[str] = []
    page.on(
        "request", lambda request: calls.append(request.url) if "/api/" in request.url else None
    )
    return calls


def _on_first_screen(page: Page, locator) -> None:
    box = locator.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740, box


def _throw(page: Page) -> list[int]:
    return [
        int(f)
        for f in page.locator("[data-learn] [data-role=dice] .die").evaluate_all(
            "nodes => nodes.map(n => n.dataset.face)"
        )
    ]


def _pick(page: Page, faces: list[int], *, keyboard: bool) -> None:
    """Select dice showing ``faces`` (each face as often as listed): by touch, or with Space and
    Tab from the first die (which the page focuses) through the dice to the button."""
    wanted = list(faces)
    picks = []
    for position, face in enumerate(_throw(page)):
        if face in wanted:
            wanted.remove(face)
            picks.append(position)
    assert wanted == []
    if not keyboard:
        for position in picks:
            page.locator(f"[data-learn] .die-btn[data-pos='{position}']").tap()
        return
    dice = page.locator("[data-learn] .die-btn")
    expect(dice.first).to_be_focused()
    for position in range(dice.count()):
        if position in picks:
            page.keyboard.press("Space")
        page.keyboard.press("Tab")
    expect(page.locator("[data-learn] [data-action=go]")).to_be_focused()


def _press(page: Page, label: str, *, keyboard: bool) -> None:
    button = page.locator("[data-learn] [data-action=go]")
    expect(button).to_have_text(label)
    expect(button).to_be_enabled()
    _on_first_screen(page, button)
    if keyboard:
        expect(button).to_be_focused()
        page.keyboard.press("Enter")
    else:
        button.tap()


def _walk_through(page: Page, locale: str, *, keyboard: bool) -> None:
    texts = TEXTS[locale]
    progress = page.locator("[data-learn] [data-role=progress]")
    selection = page.locator("[data-learn] [data-role=selection]")
    go = page.locator("[data-learn] [data-action=go]")

    # 1. Keep the scoring dice: the live score is the engine's, then roll on.
    expect(progress).to_have_text(texts["step"].format(n=1))
    for die in page.locator("[data-learn] .die-btn").all():
        _on_first_screen(page, die)
    expect(go).to_be_disabled()
    if keyboard:
        page.locator("[data-learn] .die-btn").first.focus()
    _pick(page, FIRST_KEEP, keyboard=keyboard)
    first_turn = farkle.score(FIRST_KEEP)
    expect(selection).to_contain_text(texts["keep"].format(points=first_turn))
    _press(page, texts["roll"], keyboard=keyboard)

    # 2. The last die Farkles: the turn's points are lost.
    expect(progress).to_have_text(texts["step"].format(n=2))
    thrown = _throw(page)
    assert len(thrown) == 1 and farkle.score(thrown) is None
    expect(page.locator("[data-learn] [data-role=at-stake]")).to_have_text(str(first_turn))
    _press(page, texts["next"], keyboard=keyboard)

    # 3. Hot dice: all six score, all six are rolled again.
    expect(progress).to_have_text(texts["step"].format(n=3))
    assert sorted(_throw(page)) == sorted(HOT_THROW)
    expect(page.locator("[data-learn] [data-role=at-stake]")).to_have_text("0")
    _pick(page, HOT_THROW, keyboard=keyboard)
    expect(selection).to_contain_text(texts["keep"].format(points=farkle.score(HOT_THROW)))
    _press(page, texts["roll"], keyboard=keyboard)

    # 4. Keep the 1 and bank.
    expect(progress).to_have_text(texts["step"].format(n=4))
    assert len(_throw(page)) == 6
    _pick(page, [1], keyboard=keyboard)
    _press(page, texts["bank"], keyboard=keyboard)

    banked = farkle.score(HOT_THROW) + farkle.score([1])
    expect(page.locator("[data-learn] [data-role=score]")).to_have_text(str(banked))


def _play_the_daily(page: Page, locale: str, *, keyboard: bool) -> None:
    play = page.get_by_role("link", name=TEXTS[locale]["play"])
    _on_first_screen(page, play)
    if keyboard:
        expect(play).to_be_focused()
        page.keyboard.press("Enter")
    else:
        play.tap()


def _on_the_daily(page: Page, locale: str) -> None:
    page.wait_for_url("**/")
    expect(page.locator("h1")).to_contain_text(TEXTS[locale]["daily"])
    expect(page.locator("[data-play]")).to_have_attribute("data-state", "new")


@pytest.mark.parametrize(("locale", "keyboard"), [("en-GB", True), ("fr-FR", False)])
def test_a_first_time_visitor_learns_then_lands_on_the_daily(contexts, locale, keyboard):
    page = contexts.page(locale=locale, **PHONE)
    page.goto("/")
    page.locator("a[href='/learn']").first.tap()
    page.wait_for_url("**/learn")
    calls = _watch_api(page)

    _walk_through(page, locale, keyboard=keyboard)

    assert calls == []
    _play_the_daily(page, locale, keyboard=keyboard)
    _on_the_daily(page, locale)
    assert Player.objects.count() == 0 and Attempt.objects.count() == 0


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_skipping_at_the_first_step_opens_the_daily(contexts, locale):
    page = contexts.page(locale=locale, **PHONE)
    page.goto("/learn")
    skip = page.get_by_role("link", name=TEXTS[locale]["skip"], exact=True)
    _on_first_screen(page, skip)

    skip.tap()

    _on_the_daily(page, locale)
    assert Player.objects.count() == 0 and Attempt.objects.count() == 0


def test_a_started_official_game_is_untouched_and_its_player_not_invited(contexts):
    page = contexts.page(**PHONE)
    page.goto("/")
    headers = {"X-CSRFToken": csrf(page.context)}
    attempt = page.context.request.post(
        f"/api/daily/{today().isoformat()}/attempts", headers=headers
    ).json()
    attempt = page.context.request.post(
        f"/api/attempts/{attempt['id']}/actions",
        data={"step": attempt["step"], "action": "roll"},
        headers=headers,
    ).json()
    before = stored(attempt["id"])

    page.goto("/learn")
    _walk_through(page, "en-GB", keyboard=False)
    _play_the_daily(page, "en-GB", keyboard=False)
    page.wait_for_url("**/")
    page.wait_for_load_state("networkidle")

    assert stored(attempt["id"]) == before
    assert Attempt.objects.count() == 1 and Player.objects.count() == 1
    expect(page.locator("a[href='/learn']")).to_have_count(0)


def test_the_invitation_leaves_once_the_first_game_is_under_way(contexts):
    page = contexts.page(**PHONE)
    page.goto("/")
    invite = page.locator("a[href='/learn']")
    expect(invite).to_be_visible()

    page.locator("[data-action=roll]").tap()

    expect(page.locator("[data-play]")).not_to_have_attribute("data-state", "new")
    expect(invite).to_be_hidden()


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_screenshots_of_the_walkthrough(contexts, folder, locale):
    language = locale[:2]
    for width, options in (("desktop", DESKTOP), ("phone", PHONE)):
        page = contexts.page(locale=locale, reduced_motion="reduce", **options)
        page.goto("/learn")
        # The first step with its keep picked: the live points and the button to roll on.
        for position, face in enumerate(_throw(page)):
            if face in (1, 4, 5):
                page.locator(f"[data-learn] .die-btn[data-pos='{position}']").click()
        expect(page.locator("[data-learn] [data-action=go]")).to_be_enabled()
        page.wait_for_timeout(300)
        page.screenshot(path=folder / f"learn-{language}-{width}.png")
    assert {p.name for p in folder.glob("learn-*.png")} >= {
        f"learn-{language}-desktop.png",
        f"learn-{language}-phone.png",
    }
