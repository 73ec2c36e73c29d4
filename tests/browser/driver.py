"""Playing through the page as a person would, with the engine alongside to know the dice.

The dice are known in advance (the test secret seeds them), so the engine replays every move the
page makes and each throw on screen is checked against it.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal

from playwright.sync_api import BrowserContext, Page, expect

import farkle
from farkle import Game, Keep, Roll

from .conftest import SEED_SECRET

Strategy = Callable[[Game], farkle.Roll | farkle.Keep]


FRENCH_MONTHS = [
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
]


def french_day(day: datetime.date) -> str:
    """A day as French writes it, "1er" for a month's first: "1er décembre 2026", "5 décembre
    2026" (written here by hand, not by the site's formatter)."""
    number = "1er" if day.day == 1 else str(day.day)
    return f"{number} {FRENCH_MONTHS[day.month - 1]} {day.year}"


def today() -> datetime.date:
    return datetime.datetime.now(datetime.UTC).date()


def percent(share: float) -> str:
    """A share as the pages write it in English, ``F.pct(share, 1)`` (``Intl.NumberFormat``,
    percent style, ``maximumFractionDigits: 1``): 0.81 → "81%", 0.0772 → "7.7%". Intl takes the
    double's exact value times 100 and rounds it half away from zero, where Python's ``format``
    rounds a tie such as 81.25 to even: the share is given as the page has it, from the API."""
    rounded = (Decimal(share) * 100).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    return f"{rounded}".removesuffix(".0") + "%"


def daily_game(day: datetime.date | None = None) -> Game:
    return Game.new(farkle.daily_seed(SEED_SECRET.encode(), day or today()))


def challenge_game(code: str, table: str = farkle.DEFAULT_TABLE) -> Game:
    return Game.new(farkle.challenge_seed(SEED_SECRET.encode(), code), table)


def greedy(bank_at: int = 300) -> Strategy:
    """Keep the best-scoring option; bank once `bank_at` points are held."""

    def choose(game: Game):
        if game.state == farkle.AWAITING_ROLL:
            return Roll()
        best = max(game.keep_options(), key=lambda o: (o.points, -len(o.positions)))
        then = "bank" if game.turn_points + best.points >= bank_at else "roll"
        return Keep(positions=best.positions, then=then)

    return choose


def reckless(game: Game):
    """Keep as few dice as possible and always roll on: a Farkle comes soon."""
    if game.state == farkle.AWAITING_ROLL:
        return Roll()
    fewest = min(game.keep_options(), key=lambda o: (len(o.positions), o.points))
    return Keep(positions=fewest.positions, then="roll")


def hot_dice_opening(game: Game, depth: int = 5) -> list | None:
    """Actions from the start of the game's turn to a hot dice keep after which the next throw
    of six dice scores (so the hot dice stay on screen), or None."""

    def search(g: Game, actions: list, left: int):
        if g.state != farkle.AWAITING_KEEP:
            return None
        for positions in (o.positions for o in g.keep_options()):
            keep = Keep(positions=positions, then="roll")
            after = g.apply(keep)
            if len(positions) == g.in_hand:
                if after.state == farkle.AWAITING_KEEP and after.turn == g.turn:
                    return [*actions, keep]
                continue
            if left and after.state == farkle.AWAITING_KEEP and after.turn == g.turn:
                found = search(after, [*actions, keep], left - 1)
                if found:
                    return found
        return None

    return search(game.apply(Roll()), [Roll()], depth)


class Player:
    """One browser page playing one attempt, checked against the engine's game."""

    def __init__(self, page: Page, game: Game, *, keyboard: bool = False) -> None:
        self.page = page
        self.game = game
        self.keyboard = keyboard
        self.root = page.locator("[data-play]")

    def wait_ready(self) -> None:
        expect(self.root).not_to_have_attribute("data-state", "loading")

    def dice_on_screen(self) -> list[int]:
        return [
            int(face)
            for face in self.page.locator("[data-play] [data-role=dice] .die-btn").evaluate_all(
                "buttons => buttons.map(b => b.dataset.face)"
            )
        ]

    def apply(self, action) -> None:
        """Make one move on the page, then check the page shows the engine's state."""
        if isinstance(action, Roll):
            if self.keyboard:
                self.page.keyboard.press("r")
            else:
                self.root.locator("[data-action=roll]").click()
        else:
            for position in action.positions:
                if self.keyboard:
                    self.page.keyboard.press(str(position + 1))
                else:
                    self.root.locator(f"[data-pos='{position}']").click()
            key, button = ("r", "keep-roll") if action.then == "roll" else ("b", "keep-bank")
            if self.keyboard:
                self.page.keyboard.press(key)
            else:
                self.root.locator(f"[data-action={button}]").click()
        self.game = self.game.apply(action)
        expect(self.root).to_have_attribute("data-step", str(self.game.step))
        expect(self.root).to_have_attribute("data-state", self.game.state)
        expect(self.root).to_have_attribute("aria-busy", "false")
        if self.game.state == farkle.AWAITING_KEEP:
            assert self.dice_on_screen() == list(self.game.dice)

    def roll_to_a_scoring_throw(self) -> None:
        """Roll until a throw scores: a day's first throw may be a Farkle (the day's dice decide),
        which ends the turn before any die can be kept."""
        self.apply(Roll())
        while self.game.state != farkle.AWAITING_KEEP:
            self.apply(Roll())

    def play(self, strategy: Strategy, *, until: Callable[[Game], bool] | None = None) -> None:
        stop = until or (lambda game: game.finished)
        while not stop(self.game):
            self.apply(strategy(self.game))


def csrf(context: BrowserContext) -> str:
    return next(c["value"] for c in context.cookies() if c["name"] == "csrftoken")


def api_play(context: BrowserContext, start_url: str, *, bank_at: int = 300) -> dict:
    """Play a whole attempt through the API with the browser's cookies (a page must have been
    opened first, for the session and the CSRF cookie)."""
    response = context.request.post(start_url, headers={"X-CSRFToken": csrf(context)})
    assert response.status == 201, response.text()
    attempt = response.json()
    while attempt["state"] != "finished":
        if attempt["state"] == "awaiting_roll":
            action = {"action": "roll"}
        else:
            best = max(attempt["keep_options"], key=lambda o: (o["score"], -len(o["dice"])))
            then = "bank" if attempt["turn_points"] + best["score"] >= bank_at else "roll"
            action = {"action": "keep", "dice": best["dice"], "then": then}
        response = context.request.post(
            f"/api/attempts/{attempt['id']}/actions",
            data={"step": attempt["step"], **action},
            headers={"X-CSRFToken": csrf(context)},
        )
        assert response.status == 200, response.text()
        attempt = response.json()
    return attempt
