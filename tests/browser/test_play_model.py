"""The play script's view-model (static/js/play/model.js), a pure function, run in Chromium on a
blank page with hand-made attempts and the events the API sends (farkle/game.py's Event kinds).

The expected values are worked out by hand from the fixtures: the model must take a Farkle, hot
dice and a bank from the events, scores and "may bank" from keep_options, and the number of
turns from the puzzle, never from a rule of its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

MODEL = Path(__file__).resolve().parents[2] / "static" / "js" / "play" / "model.js"

CONFIG = {
    "kind": "daily",
    "date": "2026-11-29",
    "code": "",
    "par": 5936,
    "handSize": 6,
    "shareLabel": "2026-11-29",
    "shareUrl": "http://testserver/daily/2026-11-29",
    "archive": False,
    "boardOnPage": False,
}


@pytest.fixture(scope="module")
def page(browser: Browser) -> Page:
    context = browser.new_context()
    blank = context.new_page()
    blank.set_content("<!doctype html><title>model</title>")
    blank.add_script_tag(path=str(MODEL))
    yield blank
    context.close()


def puzzle(status: str = "open", turns_total: int = 10, played: bool = True) -> dict:
    mine = [{"id": 7, "official": True, "state": "awaiting_roll"}] if played else []
    return {"status": status, "turns_total": turns_total, "my_attempts": mine}


def turn(number: int, throws: list, points: int = 0, farkle: bool = False, done: bool = False):
    return {"turn": number, "throws": throws, "points": points, "farkle": farkle, "done": done}


def throw(dice, kept=(), points=0, farkle=False, hot_dice=False, rethrow=False) -> dict:
    return {
        "dice": list(dice),
        "kept": list(kept),
        "points": points,
        "farkle": farkle,
        "hot_dice": hot_dice,
        "rethrow": rethrow,
    }


def attempt(**fields) -> dict:
    base = {
        "id": 7,
        "official": True,
        "state": "awaiting_roll",
        "step": 0,
        "turn": 1,
        "roll": 0,
        "dice": [],
        "in_hand": 6,
        "turn_points": 0,
        "score": 0,
        "turns": [turn(1, [])],
        "keep_options": [],
        "farkle_risk": 0.0231,
        "finalised_at_close": False,
        "held": False,
        "held_note": None,
        "dice_source": "puzzle",
    }
    return {**base, **fields}


def view(page: Page, **given) -> dict:
    given = {"config": CONFIG, "puzzle": puzzle(), "selection": [], "events": [], **given}
    return page.evaluate("input => FarklePlay.model.view(input)", given)


# Turn 2: 300 points kept from a first throw, then a throw of five dice that scores nothing.
FARKLED = attempt(
    step=5,
    turn=3,
    score=450,
    turns=[
        turn(1, [throw([1, 5, 2, 3, 4, 6], [0, 1], 150)], points=450, done=True),
        turn(
            2,
            [throw([1, 1, 1, 2, 3, 4], [0, 1, 2], 300), throw([2, 3, 4, 6, 2, 6], farkle=True)],
            farkle=True,
            done=True,
        ),
        turn(3, []),
    ],
)
FARKLE_EVENTS = [
    {"kind": "rolled", "turn": 2, "roll": 2, "dice": [2, 3, 4, 6, 2, 6]},
    {"kind": "farkle", "turn": 2, "points": 300},
    {"kind": "turn_started", "turn": 3},
]


def test_a_farkle_comes_from_the_events_and_stays_over_the_tray(page):
    vm = view(page, attempt=FARKLED, events=FARKLE_EVENTS)

    assert vm["banner"]["type"] == "farkle" and vm["banner"]["persist"] is True
    assert vm["banner"]["sub"] == {"id": "points_lost", "args": {"points": 300}}
    assert (vm["dice"]["farkled"], vm["dice"]["faces"]) == (True, [2, 3, 4, 6, 2, 6])
    assert vm["selection"]["text"] == {"id": "farkle_next", "args": {"turn": 2, "next": 3}}
    assert vm["announcement"]["assertive"] is True
    assert [part["id"] for part in vm["announcement"]["parts"]] == [
        "farkle_said",
        "points_lost_said",
    ]
    assert vm["scorecard"][1]["kind"] == "farkle" and vm["scorecard"][2]["current"] is True
    assert vm["buttons"]["roll"] == {"hidden": False, "disabled": False}


def test_a_resumed_farkle_shows_its_dice_but_no_banner(page):
    # After a reload there are no events: the losing throw still shows, nothing is announced.
    vm = view(page, attempt=FARKLED, events=[])

    assert vm["banner"] is None
    assert (vm["dice"]["farkled"], vm["dice"]["faces"]) == (True, [2, 3, 4, 6, 2, 6])
    assert vm["announcement"]["parts"] == []


HOT = attempt(
    state="awaiting_keep",
    step=4,
    turn=1,
    roll=2,
    dice=[5, 5, 3, 3, 2, 6],
    turn_points=1500,
    turns=[
        turn(1, [throw([1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4, 5], 1500, hot_dice=True)]),
    ],
    keep_options=[
        {"dice": [0], "score": 50, "dice_left": 5, "farkle_risk": 0.0772, "can_bank": True},
        {"dice": [1], "score": 50, "dice_left": 5, "farkle_risk": 0.0772, "can_bank": True},
        {"dice": [0, 1], "score": 100, "dice_left": 4, "farkle_risk": 0.1574, "can_bank": True},
    ],
)
HOT_EVENTS = [
    {"kind": "kept", "turn": 1, "positions": [0, 1, 2, 3, 4, 5], "points": 1500},
    {"kind": "hot_dice", "turn": 1, "in_hand": 6},
    {"kind": "rolled", "turn": 1, "roll": 2, "dice": [5, 5, 3, 3, 2, 6]},
]


def test_hot_dice_come_from_the_events_and_the_new_throw_rolls(page):
    vm = view(page, attempt=HOT, events=HOT_EVENTS)

    assert vm["banner"]["type"] == "hot" and vm["banner"]["persist"] is False
    assert vm["selection"]["text"]["id"] == "hot_select"
    assert vm["dice"]["choose"] is True and vm["dice"]["rolled"] is True
    assert [d["face"] for d in vm["dice"]["faces"]] == [5, 5, 3, 3, 2, 6]
    assert [p["id"] for p in vm["announcement"]["parts"]] == ["hot_said", "throw"]
    assert vm["announcement"]["parts"][1]["args"] == {
        "turn": 1,
        "roll": 2,
        "dice": [5, 5, 3, 3, 2, 6],
    }
    assert vm["kept"] == [{"faces": [1, 2, 3, 4, 5, 6], "points": 1500, "hot": True}]
    # The same throw without its events (a reload): no banner, the plain prompt.
    quiet = view(page, attempt=HOT, events=[])
    assert quiet["banner"] is None and quiet["selection"]["text"]["id"] == "select"
    assert quiet["dice"]["rolled"] is False


def test_a_selection_reads_its_keep_option(page):
    vm = view(page, attempt=HOT, events=HOT_EVENTS, selection=[1, 0])

    # 100 for the two fives, on top of the 1,500 the turn holds; four dice left.
    assert vm["selection"] == {
        "text": {
            "id": "keep_for",
            "args": {"points": 100, "total": 1600, "left": 4, "hot": False, "needs": None},
        },
        "tone": "ok",
    }
    assert vm["risk"] == 0.1574 and vm["riskHigh"] is False
    assert [d["pressed"] for d in vm["dice"]["faces"]] == [True, True, False, False, False, False]
    assert vm["buttons"]["keepRoll"] == {"hidden": False, "disabled": False}
    assert vm["buttons"]["keepBank"] == {"hidden": False, "disabled": False}
    assert vm["buttons"]["roll"]["hidden"] is True

    refused = view(page, attempt=HOT, events=HOT_EVENTS, selection=[0, 2])
    assert refused["selection"] == {"text": {"id": "refused", "args": {}}, "tone": "bad"}
    assert refused["dice"]["refused"] is True
    assert refused["buttons"]["keepRoll"]["disabled"] is True

    # Issue 40: a keep that cannot bank before the entry minimum says what the turn needs.
    unopened = {
        **HOT,
        "keep_options": [{**o, "can_bank": False, "bank_needs": 1000} for o in HOT["keep_options"]],
    }
    below = view(page, attempt=unopened, events=HOT_EVENTS, selection=[1, 0])
    assert below["selection"]["text"]["args"]["needs"] == 1000
    assert below["buttons"]["keepBank"] == {"hidden": False, "disabled": True}

    busy = view(page, attempt=HOT, events=HOT_EVENTS, selection=[0, 1], busy=True)
    assert busy["buttons"]["keepRoll"]["disabled"] is True


def test_hot_dice_and_may_bank_of_a_keep_come_from_its_option(page):
    # Seed 004's table: every die has scored, all must be thrown again, no bank.
    full = {
        **HOT,
        "keep_options": [
            {
                "dice": [0, 1],
                "score": 100,
                "dice_left": 6,
                "farkle_risk": 0.0231,
                "can_bank": False,
                "hot_dice": True,
            },
        ],
    }
    vm = view(page, attempt=full, selection=[0, 1])

    assert vm["selection"]["text"]["args"]["hot"] is True
    assert vm["buttons"]["keepBank"]["disabled"] is True
    assert vm["buttons"]["keepRoll"]["disabled"] is False


def test_a_bank_comes_from_the_events(page):
    banked = attempt(
        step=3,
        turn=2,
        score=500,
        turns=[
            turn(
                1,
                [throw([1, 5, 2, 3, 4, 6], [0, 1], 150), throw([1, 1, 1, 2], [0, 1, 2], 350)],
                points=500,
                done=True,
            ),
            turn(2, []),
        ],
    )
    events = [
        {"kind": "kept", "turn": 1, "positions": [0, 1, 2], "points": 350},
        {"kind": "banked", "turn": 1, "points": 500, "score": 500},
        {"kind": "turn_started", "turn": 2},
    ]
    vm = view(page, attempt=banked, events=events)

    assert vm["banner"]["type"] == "bank" and vm["banner"]["persist"] is False
    assert vm["banner"]["word"] == {"id": "bank_word", "args": {"points": 500}}
    assert vm["announcement"]["parts"] == [
        {"id": "banked_said", "args": {"points": 500, "score": 500}}
    ]
    assert vm["selection"]["text"] == {"id": "roll_count", "args": {"turn": 2, "count": 6}}
    assert vm["scorecard"][0] == {"n": 1, "current": False, "kind": "banked", "points": 500}
    assert vm["dice"]["blank"] == 6


def test_a_pair_thrown_again_is_shown_and_said(page):
    # Seed 004: a non-scoring pair is thrown again, the turn goes on.
    pair = attempt(
        step=4,
        turn=1,
        roll=2,
        in_hand=2,
        turn_points=400,
        turns=[
            turn(1, [throw([1, 5, 5, 5, 3, 4], [0, 1, 2, 3], 400), throw([3, 4], rethrow=True)])
        ],
    )
    events = [
        {"kind": "rolled", "turn": 1, "roll": 2, "dice": [3, 4]},
        {"kind": "rethrow", "turn": 1, "dice": [3, 4]},
    ]
    vm = view(page, attempt=pair, events=events)

    assert vm["banner"] is None
    assert (vm["dice"]["faces"], vm["dice"]["farkled"]) == ([3, 4], False)
    assert vm["selection"]["text"]["id"] == "rethrow"
    assert vm["announcement"]["parts"] == [{"id": "rethrow", "args": {}}]


def test_the_number_of_turns_comes_from_the_puzzle(page):
    fresh = view(page, puzzle=puzzle(turns_total=7, played=False))
    assert (len(fresh["scorecard"]), fresh["turnsTotal"], fresh["turn"]) == (7, 7, 1)
    assert fresh["state"] == "new" and fresh["mode"] == {"official": True}
    assert fresh["status"]["id"] == "first_counts"

    loading = view(page, puzzle=None)
    assert loading["state"] == "loading" and loading["scorecard"] == []
    assert loading["buttons"]["roll"]["disabled"] is True


FINISHED = attempt(
    state="finished",
    step=30,
    turn=3,
    score=1800,
    in_hand=0,
    farkle_risk=None,
    turns=[
        turn(1, [throw([1, 1, 1, 5, 2, 3], [0, 1, 2, 3], 1050)], points=1050, done=True),
        turn(2, [throw([2, 2, 3, 4, 6, 6], farkle=True)], farkle=True, done=True),
        turn(
            3,
            [throw([5, 2, 3, 4, 6, 6], [0], 50), throw([1, 5, 5, 2, 3], [0, 1, 2], 200)],
            points=750,
            done=True,
        ),
    ],
)
BOARD = {
    "players": 4,
    "me": {"rank": 2, "percentile": 66.6, "attempt": 7},
    "distribution": {
        "histogram": [{"start": 0, "end": 500, "count": 4}],
        "median": 900,
        "best": 3100,
    },
}


def test_the_end_panel(page):
    shown = puzzle(turns_total=3)
    vm = view(page, puzzle=shown, attempt=FINISHED, board=BOARD)
    end = vm["end"]

    assert vm["turn"] == 3 and vm["finished"] is True
    assert end["rank"] == {"id": "rank", "args": {"rank": 2, "players": 4, "percentile": 66.6}}
    assert end["par"] == {"par": 5936, "diff": 1800 - 5936}
    # 1,050 banked: blue; a Farkle: red; 750: green.
    assert end["strip"] == "🟦🟥🟩"
    assert end["again"] == "again_new" and end["boardLink"] == "/leaderboard"
    assert end["histogram"]["mine"] == 1800
    assert vm["dice"]["farkled"] is False and vm["dice"]["faces"] == [1, 5, 5, 2, 3]

    waiting = view(page, puzzle=shown, attempt=FINISHED)["end"]
    assert waiting["rank"]["id"] == "ranking" and waiting["histogram"] is None
    archive = view(
        page, puzzle={**shown, "status": "closed"}, attempt={**FINISHED, "official": False}
    )
    assert archive["end"]["again"] == "again_same"
    assert archive["end"]["rank"]["id"] == "practice_unranked_end"
    assert archive["end"]["share"]["practice"] is True
    nobody = view(page, puzzle=shown, attempt=FINISHED, board={**BOARD, "me": None})
    assert nobody["end"]["rank"]["id"] == "rank_later"


def test_the_end_chart_marks_practice_as_practice_and_is_left_out_when_nobody_ranked(page):
    # Issue 40: a practice score is not among the day's bars: the chart says "practice" for it,
    # never "You"; a board with nobody ranked has no chart ("0 players · median –").
    shown = puzzle(turns_total=3, status="closed")
    official = view(page, puzzle=shown, attempt=FINISHED, board=BOARD)["end"]["histogram"]
    practice = view(page, puzzle=shown, attempt={**FINISHED, "official": False}, board=BOARD)
    assert official["practice"] is False
    assert practice["end"]["histogram"]["practice"] is True
    assert practice["end"]["histogram"]["mine"] == 1800
    empty = {"players": 0, "me": None, "distribution": {**BOARD["distribution"], "histogram": []}}
    assert view(page, puzzle=shown, attempt=FINISHED, board=empty)["end"]["histogram"] is None


def test_the_verdict_leads_with_accuracy_and_the_share_carries_it(page):
    # Issue 40: the analysis as the API sends it; what the close left undone is said apart.
    analysis = {
        "accuracy": 97.4,
        "lost": 154.6,
        "luck": -2763.4,
        "accuracy_standing": {"rank": 1, "tied": True, "players": 12},
        "left_at_close": None,
    }
    shown = puzzle(turns_total=3)
    waiting = view(page, puzzle=shown, attempt=FINISHED)["end"]
    assert waiting["verdict"] == {"state": "loading"}
    assert waiting["share"]["accuracy"] is None
    end = view(page, puzzle=shown, attempt=FINISHED, analysis=analysis)["end"]
    assert end["verdict"] == {
        "state": "ready",
        "accuracy": 97.4,
        "lost": 155,
        "luck": -2763,
        "standing": {"rank": 1, "tied": True, "players": 12},
        "soFar": True,
        "practice": False,
        "left": None,
    }
    assert end["share"]["accuracy"] == 97.4
    closed = view(page, puzzle={**shown, "status": "closed"}, attempt=FINISHED, analysis=analysis)
    assert closed["end"]["verdict"]["soFar"] is False
    cut = {**analysis, "lost": 1154.6, "left_at_close": {"turn": 3, "turns": 1, "lost": 1000}}
    assert view(page, puzzle=shown, attempt=FINISHED, analysis=cut)["end"]["verdict"]["lost"] == 155
    assert view(page, puzzle=shown, attempt=FINISHED, analysis=None)["end"]["verdict"] == {
        "state": "failed"
    }
    # The player's palette gives the squares: 1,050 banked, a Farkle, 750.
    colourblind = {"farkle": "⬛", "low": "🟨", "mid": "🟧", "high": "🟦", "none": "⬜"}
    end = view(page, puzzle=shown, attempt=FINISHED, squares=colourblind)["end"]
    assert end["strip"] == end["share"]["squares"] == "🟦⬛🟧"


def test_a_saved_selection_comes_back_only_on_its_own_throw(page):
    restore = "([attempt, saved]) => FarklePlay.model.restoredSelection(attempt, saved)"
    assert page.evaluate(restore, [HOT, {"step": 4, "dice": [1, 0]}]) == [1, 0]
    assert page.evaluate(restore, [HOT, {"step": 3, "dice": [1, 0]}]) == []
    assert page.evaluate(restore, [HOT, {"step": 4, "dice": [1, 1, 9, "x", -1]}]) == [1]
    assert page.evaluate(restore, [FARKLED, {"step": 5, "dice": [0]}]) == []


def test_a_turn_lost_to_the_clock_is_said_like_a_farkle_and_marked_as_a_loss(page):
    # Issue 40: the server's timed_out event (or the record a read brings): a banner that stays
    # until the next roll, the screen reader told at once, ✗ on the scorecard and a red square.
    timed = attempt(
        step=4,
        turn=2,
        score=0,
        turns=[
            {**turn(1, [throw([1, 5, 2, 3, 4, 6], [0], 100)], done=True), "timed_out": True},
            turn(2, []),
        ],
    )
    vm = view(page, attempt=timed, events=[{"kind": "timed_out", "turn": 1, "points": 100}])
    assert vm["banner"]["type"] == "farkle" and vm["banner"]["persist"] is True
    assert vm["banner"]["word"] == {"id": "timeout_word", "args": {}}
    assert vm["banner"]["sub"] == {"id": "points_lost", "args": {"points": 100}}
    assert vm["announcement"] == {
        "parts": [{"id": "timeout_said", "args": {"turn": 1}}],
        "assertive": True,
    }
    assert vm["scorecard"][0]["kind"] == "timeout" and vm["scorecard"][0]["points"] is None
    finished = {**timed, "state": "finished", "turns": [timed["turns"][0]]}
    shown = puzzle(turns_total=1)
    assert view(page, puzzle=shown, attempt=finished)["end"]["strip"] == "🟥"
