"""Issue 40 item 4 in Chromium: Retry from here, in the replay of a closed day, opens a practice
game at that decision on the day's dice, with the coach; it plays on and never counts. None is
offered on an open day's dice. Screenshots at 1280 and 360 px, in English and French.

The dice and the state at the decision come from the engine replaying the original game's
actions on the day's seed (the test secret seeds it), stopped at the decision's throw."""

from __future__ import annotations

import datetime
import re

import pytest
from playwright.sync_api import expect

import farkle
from challenges.services import challenge_create
from daily.services.puzzles import daily_get_or_create
from farkle.analysis import analyse
from farkle.bots import play
from play.services.attempts import attempt_act, attempt_start
from play.services.players import player_create

from .driver import Player, api_play, greedy, today

pytestmark = pytest.mark.django_db(transaction=True)

# In the sweep (tests/sweep.py), marked `today`: today's open daily. Left out: yesterday's closed
# daily, pinned at NOON by `clock` (the browser's clock is set from the server's), and the
# challenge's, whose days count from its making (now minus two days), not from the date.

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


def yesterdays_game() -> tuple[int, list[dict], bytes]:
    """An official game on yesterday's daily (closed since its grace at the suite's noon), played
    while it was open by the medium bot through the services: its id, actions and the seed."""
    yesterday = today() - datetime.timedelta(days=1)
    played_at = datetime.datetime.combine(yesterday, datetime.time(12), datetime.UTC)
    puzzle = daily_get_or_create(day=yesterday, now=played_at)
    player = player_create(now=played_at)
    attempt = attempt_start(player=player, puzzle=puzzle, now=played_at)
    actions = play(puzzle.seed(), "medium", puzzle.table).actions
    for step, action in enumerate(actions):
        attempt_act(
            attempt_id=attempt.pk, player_id=player.pk, step=step, action=action, now=played_at
        )
    return attempt.pk, [dict(a) for a in actions], puzzle.seed()


def at_decision(seed: bytes, actions: list[dict], turn: int, roll: int) -> farkle.Game:
    game = farkle.Game.new(seed)
    for action in actions:
        if game.state == farkle.AWAITING_KEEP and (game.turn, game.roll) == (turn, roll):
            return game
        game = game.apply(farkle.action_from_dict(action))
    raise AssertionError(f"no decision at turn {turn}, throw {roll}")


def test_retry_from_a_decision_of_a_closed_day_plays_on_with_the_coach(contexts, folder, clock):
    # At noon (the clock fixture): yesterday is a daily, closed since its grace, which the
    # calendar's first day and the 90 s after midnight could not give (the sweep found both).
    original, actions, seed = yesterdays_game()
    game = farkle.Game.replay(seed, actions)
    decisions = analyse(game).decisions
    # The costliest decision: the one a player would want to take again.
    index = max(range(len(decisions)), key=lambda i: (decisions[i].lost, -i))
    decision = decisions[index]
    # The replay's steps are the game's throws in order, numbered from 1.
    throws = [(t.number, k) for t in game.turns for k, _ in enumerate(t.throws, start=1)]
    step = throws.index((decision.turn, decision.roll)) + 1
    expected = at_decision(seed, actions, decision.turn, decision.roll)
    yesterday = today() - datetime.timedelta(days=1)

    shots = (("en", "desktop", "en-GB", DESKTOP), ("fr", "phone", "fr-FR", PHONE))
    shots += (("en", "phone", "en-GB", PHONE), ("fr", "desktop", "fr-FR", DESKTOP))
    for n, (language, width, locale, options) in enumerate(shots):
        page = contexts.page(locale=locale, reduced_motion="reduce", **options)
        page.goto(f"/attempts/{original}/replay#step-{step}")
        button = page.locator(f"[data-action=retry][data-decision='{index}']")
        expect(button).to_be_visible()
        expect(page.locator("[data-role=retry-note]")).to_be_visible()
        # The whole card in sight: the step's position, its note and the step.
        page.locator("#steps-title").evaluate("title => title.scrollIntoView()")
        page.screenshot(path=folder / f"retry-replay-{language}-{width}.png")
        button.click()
        expect(page).to_have_url(re.compile(rf"/daily/{yesterday.isoformat()}#attempt-\d+$"))
        board = page.locator("[data-play]")
        player = Player(page, expected)
        player.wait_ready()
        # The retry waits for the same keep, on the same throw, the score and turn as they were.
        expect(board).to_have_attribute("data-state", "awaiting_keep")
        expect(board).to_have_attribute("data-step", str(expected.step))
        assert player.dice_on_screen() == list(decision.dice)
        # Grouped by thousands as each language writes them (French: a narrow no-break space).
        separator = "," if language == "en" else "\u202f"
        score = f"{expected.score:,}".replace(",", separator)
        expect(board.locator("[data-role=score]")).to_have_text(score)
        expect(board.locator("[data-role=mode]")).to_have_text(
            "Practice" if language == "en" else "Entraînement"
        )
        expect(board.locator("[data-role=status]")).to_have_text(
            "Retry from a decision: practice, not ranked."
            if language == "en"
            else "Reprise d’une décision\u00a0: entraînement, non classé."
        )
        coach = board.locator("[data-role=coach]")
        expect(coach).to_be_visible()
        coach.locator("[data-role=coach-switch]").check()
        expect(board.locator("[data-role=coach-advice]")).to_contain_text(
            "best keep" if language == "en" else "meilleure"
        )
        expect(board.locator(".die-btn.coach-best")).not_to_have_count(0)
        board.scroll_into_view_if_needed()
        page.screenshot(path=folder / f"retry-game-{language}-{width}.png")
        if n:
            continue
        # Another choice than the original's, then on to the end: every throw on screen is the
        # day's, as the engine draws it from the revealed seed.
        chosen = decision.chosen.positions
        other = next(o for o in expected.keep_options() if o.positions != chosen)
        player.apply(farkle.Keep(positions=other.positions, then="roll"))
        player.play(greedy(bank_at=400))
        end = page.locator("[data-play] [data-role=end]")
        expect(end).to_be_visible()
        expect(end).to_contain_text("Practice")
        # Never on the day's board: its one ranked game is still the original.
        board_rows = page.locator("[data-board] tbody tr:not([data-role=reference])")
        expect(board_rows).to_have_count(1)


@pytest.mark.today
def test_no_retry_is_offered_on_an_open_days_dice(contexts):
    page = contexts.page(**DESKTOP)
    page.goto("/")
    finished = api_play(page.context, "/api/daily/today/attempts")
    page.goto(f"/attempts/{finished['id']}/replay")
    expect(page.locator("[data-replay] [data-step]").first).to_be_visible()
    expect(page.locator("[data-action=retry]")).to_have_count(0)
    expect(page.locator("[data-role=retry-later]")).to_be_visible()


def test_retry_from_a_closed_challenges_replay_plays_on_its_page(contexts, folder):
    # A challenge made two days ago for one day, played then by its creator: closed since.
    now = datetime.datetime.now(datetime.UTC)
    made_at = now - datetime.timedelta(days=2)
    creator = player_create(now=made_at)
    challenge = challenge_create(creator=creator, title="Closed night", days=1, now=made_at)
    puzzle = challenge.puzzle
    attempt = attempt_start(player=creator, puzzle=puzzle, now=made_at)
    actions = [dict(a) for a in play(puzzle.seed(), "easy", puzzle.table).actions]
    for step, action in enumerate(actions):
        attempt_act(
            attempt_id=attempt.pk, player_id=creator.pk, step=step, action=action, now=made_at
        )
    game = farkle.Game.replay(puzzle.seed(), actions, puzzle.table)
    decision = analyse(game).decisions[0]
    expected = at_decision(puzzle.seed(), actions, decision.turn, decision.roll)

    page = contexts.page(**PHONE)
    page.goto(f"/c/{puzzle.code}")
    # Closed: no board to play.
    expect(page.locator("[data-play]")).to_have_count(0)
    page.goto(f"/attempts/{attempt.pk}/replay#step-1")
    page.locator("[data-action=retry][data-decision='0']").first.click()
    expect(page).to_have_url(re.compile(rf"/c/{puzzle.code}#attempt-\d+$"))
    player = Player(page, expected)
    player.wait_ready()
    expect(page.locator("[data-play]")).to_have_attribute("data-step", str(expected.step))
    assert player.dice_on_screen() == list(decision.dice)
    expect(page.locator("[data-play] [data-role=coach]")).to_be_visible()
    page.screenshot(path=folder / "retry-challenge-en-phone.png", full_page=True)
    player.play(greedy(bank_at=300))
    expect(page.locator("[data-play] [data-role=end]")).to_contain_text("Practice")
