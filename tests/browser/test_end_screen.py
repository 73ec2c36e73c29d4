"""Issue 40 items 1 and 2 in Chromium: the end screen leads with how well the player decided
(accuracy, points lost, the standing among the players who finished, ties said as ties), the
verdict and Share on a 360×740 phone's first screen, the rest folded below; the share text with
the accuracy; the colour-blind-safe palette, remembered, for the squares and the page's marks.

Expected accuracies come from the engine: each game replayed from its stored actions on the dice
the test secret seeds, then analysed here."""

from __future__ import annotations

import os

import pytest
from django.test import Client
from playwright.sync_api import expect

import farkle
from farkle.analysis import analyse
from play.models import Player
from tests.helpers import stored

from ..daily.helpers import play_greedy, post
from .conftest import SCREENSHOTS, SEED_SECRET
from .driver import api_play, percent, today

# In the sweep (tests/sweep.py), the whole file: every test plays today's daily.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.today]

# The README's legend, and the colour-blind set (docs/play.md): Farkle, <500, 500–999, 1,000+, none.
DEFAULT = {"farkle": "🟥", "low": "🟨", "mid": "🟩", "high": "🟦", "none": "⬜"}
COLOURBLIND = {"farkle": "⬛", "low": "🟨", "mid": "🟧", "high": "🟦", "none": "⬜"}
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


def squares(attempt: dict, palette: dict) -> str:
    turns = {turn["turn"]: turn for turn in attempt["turns"]}
    shown = ""
    for number in range(1, 11):
        turn = turns.get(number)
        if turn is None or not turn["done"]:
            shown += palette["none"]
        elif turn["farkle"] or turn.get("timed_out"):
            shown += palette["farkle"]
        elif turn["points"] >= 1000:
            shown += palette["high"]
        elif turn["points"] >= 500:
            shown += palette["mid"]
        else:
            shown += palette["low"] if turn["points"] else palette["none"]
    return shown


def accuracy(attempt_id: int) -> float:
    """The game's accuracy to a tenth, as the pages show it, from the engine alone."""
    seed = farkle.daily_seed(SEED_SECRET.encode(), today())
    return round(analyse(farkle.Game.replay(seed, stored(attempt_id)["actions"])).accuracy, 1)


def others_finish(*banks: int) -> list[int]:
    """Official games by other players, greedy with these bank thresholds; their ids."""
    ids = []
    for bank in banks:
        client = Client()
        started = post(client, f"/api/daily/{today().isoformat()}/attempts")
        ids.append(play_greedy(client, started.json(), bank_at=bank)["id"])
    return ids


def finished_page(contexts, **options):
    context = contexts.new(**options)
    page = contexts.watch(context.new_page())
    page.goto("/")
    attempt = api_play(context, f"/api/daily/{today().isoformat()}/attempts", bank_at=300)
    page.reload()
    expect(page.locator("[data-role=verdict]")).to_have_attribute("data-state", "ready")
    return page, attempt


@pytest.mark.parametrize(
    ("locale", "tied", "so_far"),
    [
        ("en-GB", "By accuracy: tied for {rank} of {players} so far", "Accuracy"),
        ("fr-FR", "En précision\u00a0: {rank} ex æquo sur {players} pour l’instant", "Précision"),
    ],
)
def test_the_verdict_and_share_are_on_a_phones_first_screen_and_ties_read_as_ties(
    contexts, locale, tied, so_far
):
    # Two others play exactly as this player will (the same dice, the same choices): a tie.
    others = others_finish(300, 300, 2000)
    page, attempt = finished_page(contexts, locale=locale, **PHONE)

    mine = accuracy(attempt["id"])
    everyone = [mine, *(accuracy(i) for i in others)]
    assert everyone.count(mine) == 3
    rank = 1 + sum(other > mine for other in everyone)
    ordinal = {"en-GB": {1: "1st", 2: "2nd", 3: "3rd"}, "fr-FR": {1: "1er", 2: "2e", 3: "3e"}}
    verdict = page.locator("[data-role=verdict]")
    expect(verdict.locator("[data-role=verdict-standing]")).to_have_text(
        tied.format(rank=ordinal[locale][rank], players=4)
    )
    figure = percent(mine / 100)
    if locale == "fr-FR":
        figure = figure.replace(".", ",").replace("%", "\u202f%")
    expect(verdict.locator("[data-role=accuracy]")).to_have_text(f"{so_far} {figure}")

    # The first screen: the verdict and Share, without scrolling; the rest folded below.
    page.evaluate("window.scrollTo(0, 0)")
    for role in ("[data-role=verdict]", "[data-action=share]", "[data-role=context]"):
        box = page.locator(f"[data-play] {role}").bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740, (role, box)
    more = page.locator("[data-role=end-more]")
    expect(more).not_to_have_attribute("open", "")
    expect(page.locator("[data-role=end-analysis] [data-role=bots]")).to_be_hidden()
    # Nothing is gone: unfolded, the par, the rank, the bots and the streaks are all there.
    more.locator("summary").click()
    expect(page.locator("[data-role=end-analysis] [data-role=bots]")).to_be_visible()
    expect(page.locator("[data-role=end-analysis] [data-role=bots-explained]")).to_be_visible()
    expect(page.locator("[data-play] .vs-par")).to_be_visible()
    expect(page.locator("[data-role=results] [data-role=current-streak]")).to_have_text("1")
    expect(page.locator("[data-play] [data-role=end-histogram] svg")).to_be_visible()


def test_the_share_text_carries_the_accuracy_and_the_palette_is_remembered(contexts, site):
    page, attempt = finished_page(contexts, permissions=["clipboard-read", "clipboard-write"])
    day = today().isoformat()
    shown = percent(accuracy(attempt["id"]) / 100)
    url = f"{site}/daily/{day}"

    page.locator("[data-action=share]").click()
    expect(page.locator("[data-role=share-status]")).to_have_text("Copied! Paste it anywhere.")
    assert page.evaluate("navigator.clipboard.readText()") == (
        f"Farkle Daily {day}: {attempt['score']:,} · accuracy {shown}\n"
        f"{squares(attempt, DEFAULT)}\n{url}"
    )
    banked = page.locator("[data-play] .scorecard li.banked .p").first
    expect(banked).to_have_css("color", "rgb(23, 100, 79)")

    page.locator("[data-role=palette-switch]").check()
    expect(page.locator("html")).to_have_attribute("data-palette", "colourblind")
    expect(page.locator("[data-role=turn-strip]")).to_have_text(squares(attempt, COLOURBLIND))
    # The page's own marks follow: a bank is blue, not the site's green.
    expect(banked).to_have_css("color", "rgb(0, 90, 156)")
    page.locator("[data-action=share]").click()
    assert page.evaluate("navigator.clipboard.readText()") == (
        f"Farkle Daily {day}: {attempt['score']:,} · accuracy {shown}\n"
        f"{squares(attempt, COLOURBLIND)}\n{url}"
    )
    # Kept with the player (so an account's choice reaches its other browsers), and in this one.
    for _ in range(50):
        if Player.objects.get(pk=stored(attempt["id"])["player_id"]).palette == "colourblind":
            break
        page.wait_for_timeout(100)
    assert Player.objects.get(pk=stored(attempt["id"])["player_id"]).palette == "colourblind"
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-palette", "colourblind")
    expect(page.locator("[data-role=palette-switch]")).to_be_checked()
    # Other pages too: the replay's graded marks read the same variables.
    page.goto("/rules")
    expect(page.locator("html")).to_have_attribute("data-palette", "colourblind")

    page.goto("/")
    page.locator("[data-role=palette-switch]").uncheck()
    expect(page.locator("[data-role=turn-strip]")).to_have_text(squares(attempt, DEFAULT))
    expect(page.locator("html")).not_to_have_attribute("data-palette", "colourblind")


def test_a_new_browser_of_the_account_takes_the_players_palette(contexts):
    page, attempt = finished_page(contexts)
    Player.objects.filter(pk=stored(attempt["id"])["player_id"]).update(palette="colourblind")
    # A fresh tab session reads the player's choice once (the browser had none).
    fresh = contexts.watch(page.context.new_page())
    page.evaluate("sessionStorage.clear()")
    fresh.goto("/")
    expect(fresh.locator("html")).to_have_attribute("data-palette", "colourblind")
    expect(fresh.locator("[data-role=turn-strip]")).to_have_text(squares(attempt, COLOURBLIND))


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_screenshots_of_the_end_screen(contexts, locale, tmp_path):
    folder = SCREENSHOTS if os.environ.get("FARKLE_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    others_finish(250, 300, 400, 550, 700, 1000)
    context = contexts.new(locale=locale, reduced_motion="reduce", **PHONE)
    page = contexts.watch(context.new_page())
    page.goto("/")
    api_play(context, f"/api/daily/{today().isoformat()}/attempts", bank_at=300)
    page.reload()
    expect(page.locator("[data-role=verdict]")).to_have_attribute("data-state", "ready")
    lang = locale[:2]
    page.screenshot(path=folder / f"end-{lang}-phone.png")
    desktop = contexts.watch(context.new_page())
    desktop.set_viewport_size({"width": 1280, "height": 800})
    desktop.goto("/")
    expect(desktop.locator("[data-play] [data-role=end-histogram] svg")).to_be_visible()
    desktop.screenshot(path=folder / f"end-{lang}-desktop.png")
