"""Playing the daily in a real browser: mouse, keyboard, phone, reload, Farkle and hot dice."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone, translation
from playwright.sync_api import expect

import farkle
from challenges.services import challenge_create
from play.services.players import player_create

from .driver import (
    Player,
    challenge_game,
    daily_game,
    greedy,
    hot_dice_opening,
    percent,
    reckless,
)

# Every test here plays or reads today's daily: all in the sweep (tests/sweep.py).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.today]


def test_play_a_whole_daily_with_the_mouse(contexts):
    page = contexts.page()
    page.goto("/")
    player = Player(page, daily_game())
    player.wait_ready()
    expect(page.locator("[data-play] [data-role=mode]")).to_have_text("Official")

    player.play(greedy())

    end = page.locator("[data-play] [data-role=end]")
    expect(end).to_be_visible()
    expect(end.locator("[data-role=final-score]")).to_have_text(f"{player.game.score:,}")
    expect(end.locator("[data-role=rank]")).to_have_text("Rank 1 of 1 · the first to finish")
    expect(end.locator("[data-role=end-histogram] svg rect.bar.mine")).to_have_count(1)
    expect(end.locator(".vs-par")).to_contain_text("par (5,936)")
    scorecard = page.locator("[data-play] [data-role=scorecard] li")
    expect(scorecard).to_have_count(10)
    for turn in player.game.turns:
        shown = "✗" if turn.farkle else f"{turn.points:,}"
        expect(scorecard.nth(turn.number - 1)).to_contain_text(shown)


def test_play_a_whole_daily_with_the_keyboard_only(contexts):
    page = contexts.page()
    page.goto("/")
    player = Player(page, daily_game(), keyboard=True)
    player.wait_ready()

    player.roll_to_a_scoring_throw()
    # After a throw that scores, the focus is on the first die, visibly.
    focused = page.evaluate(
        "() => [document.activeElement.className, getComputedStyle(document.activeElement)"
        ".outlineStyle]"
    )
    assert focused == ["die-btn", "solid"]
    player.play(greedy(bank_at=400))

    expect(page.locator("[data-play] [data-role=final-score]")).to_have_text(
        f"{player.game.score:,}"
    )


def _challenge_where(wanted) -> str:
    """A new challenge whose game passes `wanted` (codes are random: draw until one does)."""
    now = timezone.now()
    creator = player_create(now=now)
    for _ in range(200):
        code = challenge_create(creator=creator, now=now).puzzle.code
        if wanted(challenge_game(code)):
            return code
    raise AssertionError("No such challenge in 200 draws.")


def _dead_dice(game) -> list[int]:
    scoring = {p for option in game.keep_options() for p in option.positions}
    return [p for p in range(len(game.dice)) if p not in scoring]


def test_a_non_scoring_selection_is_refused(contexts):
    code = _challenge_where(lambda game: bool(_dead_dice(game.apply(farkle.Roll()))))
    page = contexts.page()
    page.goto(f"/c/{code}")
    player = Player(page, challenge_game(code))
    player.wait_ready()
    player.apply(farkle.Roll())
    dead = _dead_dice(player.game)

    page.locator(f"[data-pos='{dead[0]}']").click()

    expect(page.locator("[data-play] [data-role=selection]")).to_have_text(
        "These dice don't score together: every kept die must score."
    )
    expect(page.locator("[data-play] [data-role=dice]")).to_have_class(re.compile("refused"))
    expect(page.locator("[data-action=keep-roll]")).to_be_disabled()
    expect(page.locator("[data-action=keep-bank]")).to_be_disabled()


def test_the_live_score_of_a_selection_comes_from_the_keep_options(contexts):
    page = contexts.page()
    page.goto("/")
    player = Player(page, daily_game())
    player.wait_ready()
    player.roll_to_a_scoring_throw()
    best = max(player.game.keep_options(), key=lambda o: o.points)
    positions, points = best.positions, best.points

    for position in positions:
        page.locator(f"[data-pos='{position}']").click()

    left = player.game.in_hand - len(positions) or 6
    # English's plural rule, from gettext: "1 die", "2 dice" (a day's dice may leave either).
    with translation.override("en"):
        dice = translation.ngettext("die", "dice", left)
    expect(page.locator("[data-play] [data-role=selection]")).to_contain_text(
        f"Keep for {points:,} (turn: {points:,}) · then {left} {dice} to roll"
    )
    risk = float(farkle.risk_table(farkle.DEFAULT_TABLE)[left])
    expect(page.locator("[data-play] [data-role=risk]")).to_have_text(percent(risk))
    expect(page.locator("[data-action=keep-roll]")).to_be_enabled()


def test_reload_in_the_middle_of_a_game_resumes_it(contexts):
    page = contexts.page()
    page.goto("/")
    player = Player(page, daily_game())
    player.wait_ready()
    # Turn 3 or, when its first throw is a Farkle (the day's dice decide), the next that scores.
    player.play(greedy(), until=lambda game: game.turn >= 3 and game.state == "awaiting_keep")

    page.reload()
    resumed = Player(page, player.game)
    resumed.wait_ready()

    expect(page.locator("[data-play]")).to_have_attribute("data-step", str(player.game.step))
    assert resumed.dice_on_screen() == list(player.game.dice)
    expect(page.locator("[data-play] [data-role=score]")).to_have_text(f"{player.game.score:,}")
    resumed.play(greedy())
    expect(page.locator("[data-play] [data-role=final-score]")).to_be_visible()


def test_a_phone_plays_without_scrolling_sideways(contexts):
    page = contexts.page(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page.goto("/")
    player = Player(page, daily_game())
    player.wait_ready()

    player.play(greedy(), until=lambda game: game.turn >= 2 and game.state == "awaiting_keep")

    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    for button in page.locator("[data-play] .die-btn").all():
        box = button.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    player.play(greedy())
    expect(page.locator("[data-play] [data-role=final-score]")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_hot_dice_then_a_farkle_are_unmistakable(contexts):
    code = _challenge_where(lambda game: hot_dice_opening(game) is not None)
    opening = hot_dice_opening(challenge_game(code))
    page = contexts.page()
    page.goto(f"/c/{code}")
    player = Player(page, challenge_game(code))
    player.wait_ready()

    for action in opening:
        player.apply(action)

    expect(page.locator("[data-play] [data-hot]")).to_have_text("🔥 Hot dice")
    expect(page.locator("[data-play] [data-role=selection]")).to_have_text(
        "Hot dice! All the dice are back: select the dice to keep."
    )
    assert player.dice_on_screen() == list(player.game.dice) and len(player.game.dice) == 6
    turn = player.game.turn

    player.play(reckless, until=lambda game: game.turn != turn)

    banner = page.locator("[data-play] [data-role=banner]")
    expect(banner).to_be_visible()
    expect(banner).to_have_class(re.compile("farkle"))
    expect(banner).to_contain_text("Farkle!")
    expect(page.locator("[data-play] [data-role=dice]")).to_have_class(re.compile("farkled"))
    expect(page.locator("[data-play] [data-role=scorecard] li").nth(turn - 1)).to_have_text(
        re.compile("✗")
    )
    expect(page.locator("#announce-assertive")).to_contain_text("Farkle!")
    # Issue 40: once landed (under a second), the banner stays as a mark in the felt's corner,
    # off the tray of what the turn kept (and lost), which a player reads again.
    expect(banner).to_have_class(re.compile("settled"))
    expect(banner).to_contain_text("Farkle!")
    mark = banner.bounding_box()
    for chip in page.locator("[data-play] [data-role=kept] > *").all():
        box = chip.bounding_box()
        apart = (
            box["x"] + box["width"] <= mark["x"]
            or mark["x"] + mark["width"] <= box["x"]
            or box["y"] + box["height"] <= mark["y"]
            or mark["y"] + mark["height"] <= box["y"]
        )
        assert apart, (box, mark)


def test_a_move_made_in_another_tab_resyncs_this_one(contexts):
    first = contexts.page()
    first.goto("/")
    player = Player(first, daily_game())
    player.wait_ready()
    player.roll_to_a_scoring_throw()
    second = contexts.watch(first.context.new_page())
    second.goto("/")
    elsewhere = Player(second, player.game)
    elsewhere.wait_ready()
    elsewhere.apply(greedy()(elsewhere.game))

    positions = player.game.keep_options()[0].positions
    for position in positions:
        first.locator(f"[data-pos='{position}']").click()
    first.locator("[data-action=keep-roll]").click()

    expect(first.locator("[data-play] [data-role=error]")).to_have_text(
        "This game moved on elsewhere (another tab?): here it is as it stands."
    )
    expect(first.locator("[data-play]")).to_have_attribute("data-step", str(elsewhere.game.step))
    if elsewhere.game.state == "awaiting_keep":
        assert Player(first, elsewhere.game).dice_on_screen() == list(elsewhere.game.dice)
