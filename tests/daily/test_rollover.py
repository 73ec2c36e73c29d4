import datetime
import logging
import os
import subprocess
import sys

import pytest
import time_machine
from django.conf import settings
from django.core.management import CommandError, call_command
from django.test import Client

import farkle
from daily.services import rollover
from daily.services.rollover import puzzle_close, reconcile
from daily.tasks import reconcile_task
from farkle import foresight
from farkle_site.domain import Invalid
from play.models import Attempt, Puzzle, ScoreCount
from play.selectors.leaderboards import attempt_ranks
from play.services.attempts import attempt_act
from play.services.players import player_create
from tests.clock import frozen_at
from tests.helpers import race
from tests.moments import NOON
from tests.processes import shared_database_url
from tests.repository_guard import ROOT

from .helpers import act, greedy_action, play_greedy, post, start_daily

UTC = datetime.UTC
DAY = "2026-11-29"

pytestmark = pytest.mark.django_db


def at(hour, minute, second=0, micro=0, day=29, month=11):
    return datetime.datetime(2026, month, day, hour, minute, second, micro, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _first_day(settings):
    # A reconcile opens every missing day since the first: the tests' site starts on the 29th.
    settings.FARKLE_FIRST_DAY = datetime.date(2026, 11, 29)


def daily(day: str) -> Puzzle:
    return Puzzle.objects.get(kind="daily", day=day)


@pytest.mark.parametrize(
    ("instant", "published", "closed"),
    [
        # Issue 10: tomorrow's daily (and its commitment) is published a day ahead.
        (at(23, 59, 59), ["daily 2026-11-30"], []),
        (at(0, 0, 0, day=30), ["daily 2026-11-30", "daily 2026-12-01"], []),
        (at(0, 1, 29, 999_999, day=30), ["daily 2026-11-30", "daily 2026-12-01"], []),
        (at(0, 1, 30, day=30), ["daily 2026-11-30", "daily 2026-12-01"], ["daily 2026-11-29"]),
    ],
)
def test_rollover_around_midnight(client, clock, instant, published, closed):
    start_daily(client, DAY)
    clock.move_to(instant)
    report = reconcile(now=instant)
    assert (report.published, [c.puzzle for c in report.closed]) == (published, closed)
    assert (daily(DAY).closed_at is not None) == bool(closed)


def test_close_finalises_unfinished_games_with_their_banked_score(client, clock):
    finisher, quitter, idler = client, Client(), Client()
    done = play_greedy(finisher, start_daily(finisher, DAY))
    # The quitter banks one turn, then leaves points at risk mid-turn.
    attempt = start_daily(quitter, DAY)
    while attempt["turn"] == 1:
        if attempt["state"] == "awaiting_roll":
            attempt = act(quitter, attempt, {"action": "roll"}).json()
        else:
            best = max(attempt["keep_options"], key=lambda o: o["score"])
            attempt = act(
                quitter, attempt, {"action": "keep", "dice": best["dice"], "then": "bank"}
            ).json()
    banked = attempt["score"]
    attempt = act(quitter, attempt, {"action": "roll"}).json()
    idle = start_daily(idler, DAY)
    practice = start_daily(finisher, DAY)

    clock.move_to(at(0, 1, 30, day=30))
    closed = puzzle_close(puzzle_id=daily(DAY).pk, now=at(0, 1, 30, day=30))

    assert (closed.finalised, closed.players) == (3, 3)
    rows = {
        a.pk: (a.state, a.score, a.finalised_at_close, a.finished_at) for a in Attempt.objects.all()
    }
    close = at(0, 1, 30, day=30)
    assert rows[attempt["id"]] == ("finished", banked, True, close)
    assert rows[practice["id"]][:3] == ("finished", 0, True)
    assert rows[done["id"]][:3] == ("finished", done["score"], False)
    counts = dict(ScoreCount.objects.values_list("score", "count"))
    assert sum(counts.values()) == 3 and counts[banked] >= 1

    # Issue 40: a game the close ended is graded on what it left (turn 2 cut, 9 turns in all),
    # so score = par - lost + luck holds through the API, and one never started left all 10.
    cut = quitter.get(f"/api/attempts/{attempt['id']}/analysis").json()
    assert cut["left_at_close"]["turn"] == 2 and cut["left_at_close"]["turns"] == 9
    assert cut["par"] - cut["lost"] + cut["luck"] == pytest.approx(banked, abs=0.1)
    assert cut["accuracy"] < 100
    replay = quitter.get(f"/attempts/{attempt['id']}/replay").content.decode()
    worth = f"{round(cut['left_at_close']['lost']):,}"
    assert (
        f"The close ended this game at turn 2: 9 turns unplayed, worth {worth} expected points, "
        "count as lost."
    ) in replay
    untouched = idler.get(f"/api/attempts/{idle['id']}/analysis").json()
    assert (untouched["score"], untouched["luck"], untouched["accuracy"]) == (0, 0, 0)
    assert untouched["left_at_close"] == {"turn": 1, "turns": 10, "lost": untouched["par"]}


def test_close_freezes_ranks_percentiles_and_statistics(clock):
    puzzle = Puzzle.objects.get(pk=_day_with_scores([900, 500, 500, 100]))
    # At the close: the frozen statistics are shown once the day's status is closed.
    clock.move_to(at(0, 1, 30, day=30))
    puzzle_close(puzzle_id=puzzle.pk, now=at(0, 1, 30, day=30))
    ranked = sorted(derived(), reverse=True)
    assert ranked == [(900, 1, 100.0), (500, 2, 33.3), (500, 2, 33.3), (100, 4, 0.0)]
    puzzle.refresh_from_db()
    assert (puzzle.final_stats["players"], puzzle.final_stats["best"]) == (4, 900)
    assert (puzzle.final_stats["mean"], puzzle.final_stats["median"]) == (500.0, 500.0)
    assert puzzle.closed_at == at(0, 1, 30, day=30)
    shown = Client().get(f"/api/daily/{DAY}").json()["final_stats"]
    assert (shown["players"], shown["best"], shown["histogram"][1]) == (
        4,
        900,
        {"start": 500, "end": 1000, "count": 3},
    )


SCORES = [900, 500, 500, 100, 2500, 50, 500, 1250, 0, 100]


def by_hand(scores: list[int]) -> list[tuple[int, int, float]]:
    """Each score's rank and percentile counted from the list (docs/play.md: 1 + those strictly
    higher; the share of the others strictly lower, rounded down to a tenth)."""
    return sorted(
        (
            s,
            1 + sum(o > s for o in scores),
            int(1000 * sum(o < s for o in scores) / (len(scores) - 1)) / 10,
        )
        for s in scores
    )


def derived() -> list[tuple[int, int | None, float | None]]:
    """Each official attempt's score with the rank and percentile the site derives for it."""
    rows = list(Attempt.objects.filter(official=True).values_list("id", "score"))
    ranks = attempt_ranks(pk for pk, _ in rows)
    return sorted((score, *ranks.get(pk, (None, None))) for pk, score in rows)


def test_ranks_match_counting_by_hand_live_and_closed_and_the_close_rewrites_no_ranked_game(clock):
    puzzle = Puzzle.objects.get(pk=_day_with_scores(SCORES))
    # Live while the day is open: the leaderboard's own ranks.
    assert derived() == by_hand(SCORES)
    finished = list(Attempt.objects.filter(state="finished").order_by("pk").values())

    clock.move_to(at(0, 1, 30, day=30))
    puzzle_close(puzzle_id=puzzle.pk, now=at(0, 1, 30, day=30))

    # Issue 15 item 4: the close stores no rank per game, so a million finished games cost it
    # no write; their ranks are the same, now final.
    assert derived() == by_hand(SCORES)
    assert list(Attempt.objects.filter(state="finished").order_by("pk").values()) == finished


def test_a_close_stopped_midway_leaves_nothing_done_and_the_next_reconcile_closes(
    clock, monkeypatch
):
    puzzle = Puzzle.objects.get(pk=_day_with_scores(SCORES))
    quitter = Attempt.objects.create(
        player=player_create(now=at(12, 0)),
        puzzle=puzzle,
        official=True,
        score=300,
        started_at=at(12, 0),
        updated_at=at(12, 0),
        deadline=puzzle.closes_at,
    )
    counts = sorted(ScoreCount.objects.values_list("score", "count"))

    def lost_worker(**kwargs):
        raise RuntimeError("worker lost")

    # The worker dies after finalising the unfinished game and counting it, before the commit.
    monkeypatch.setattr(rollover, "stats_freeze", lost_worker)
    clock.move_to(at(0, 2, day=30))
    with pytest.raises(RuntimeError):
        reconcile(now=at(0, 2, day=30))
    monkeypatch.undo()
    quitter.refresh_from_db()
    puzzle.refresh_from_db()
    assert (puzzle.closed_at, puzzle.final_stats, quitter.state) == (None, None, "awaiting_roll")
    assert sorted(ScoreCount.objects.values_list("score", "count")) == counts

    clock.move_to(at(0, 7, day=30))
    report = reconcile(now=at(0, 7, day=30))

    assert [c.puzzle for c in report.closed] == [f"daily {DAY}"]
    assert derived() == by_hand([*SCORES, 300])
    clock.move_to(at(0, 12, day=30))
    assert reconcile(now=at(0, 12, day=30)).closed == []
    assert derived() == by_hand([*SCORES, 300])


def _day_with_scores(scores: list[int]) -> int:
    """A daily whose official attempts finished with these scores (set directly: fast)."""
    from daily.services.puzzles import daily_get_or_create
    from play.services.attempts import score_count_add
    from play.services.players import player_create

    puzzle = daily_get_or_create(day=datetime.date(2026, 11, 29), now=at(12, 0))
    for i, score in enumerate(scores):
        player = player_create(now=at(12, 0))
        Attempt.objects.create(
            player=player,
            puzzle=puzzle,
            official=True,
            state="finished",
            score=score,
            started_at=at(12, 0),
            updated_at=at(12, i),
            finished_at=at(12, i),
            deadline=puzzle.closes_at,
        )
        score_count_add(puzzle=puzzle, score=score)
    return puzzle.pk


def test_close_twice_changes_nothing_the_second_time(client, clock):
    start_daily(client, DAY)
    clock.move_to(at(0, 2, day=30))
    first = reconcile(now=at(0, 2, day=30))
    rows = list(Attempt.objects.values())
    clock.move_to(at(0, 7, day=30))
    second = reconcile(now=at(0, 7, day=30))
    assert (len(first.closed), second.closed, second.published) == (1, [], [])
    assert str(second) == "Nothing to do: every due puzzle is published or closed already."
    assert list(Attempt.objects.values()) == rows


@pytest.mark.django_db(transaction=True)
def test_two_closes_at_the_same_time_close_once(client):
    with time_machine.travel(at(12, 0), tick=False):
        start_daily(client, DAY)
        start_daily(Client(), DAY)
        puzzle_id = daily(DAY).pk
    with time_machine.travel(at(0, 2, day=30), tick=False):
        results = race(2, lambda: puzzle_close(puzzle_id=puzzle_id, now=at(0, 2, day=30)))
    done = [r for r in results if r is not None]
    assert (len(results), len(done), done[0].finalised) == (2, 1, 2)
    assert sum(ScoreCount.objects.values_list("count", flat=True)) == 2


def test_reconcile_after_three_missed_days_catches_up_in_order(client, clock, settings):
    settings.FARKLE_FIRST_DAY = datetime.date(2026, 11, 26)
    for day in ("2026-11-26", "2026-11-27"):
        clock.move_to(datetime.datetime.fromisoformat(f"{day}T12:00:00Z"))
        start_daily(client, day)
    # Beat was down from the 27th at noon until the 30th at 09:00.
    clock.move_to(at(9, 0, day=30))
    report = reconcile(now=at(9, 0, day=30))
    assert report.published == [
        "daily 2026-11-28",
        "daily 2026-11-29",
        "daily 2026-11-30",
        "daily 2026-12-01",
    ]
    assert [c.puzzle for c in report.closed] == [
        "daily 2026-11-26",
        "daily 2026-11-27",
        "daily 2026-11-28",
        "daily 2026-11-29",
    ]
    clock.move_to(at(9, 5, day=30))
    assert reconcile(now=at(9, 5, day=30)).closed == []


def test_closed_day_reads_final_results(client, clock):
    attempt = play_greedy(client, start_daily(client, DAY))
    clock.move_to(at(0, 1, 30, day=30))
    before = client.get(f"/api/daily/{DAY}/leaderboard").json()
    reconcile(now=at(0, 1, 30, day=30))
    after = client.get(f"/api/daily/{DAY}/leaderboard").json()
    assert (before["final"], after["final"]) == (False, True)
    assert after["entries"][0]["attempt"] == attempt["id"]
    me = client.get("/api/me").json()
    assert (me["history"][0]["rank"], me["history"][0]["percentile"]) == (1, None)


def test_expired_challenges_are_closed_the_same_way(client, clock):
    code = post(client, "/api/challenges", {"days": 1}).json()["code"]
    post(client, f"/api/challenges/{code}/attempts")
    clock.move_to(at(12, 0, day=30))
    report = reconcile(now=at(12, 0, day=30))
    assert [c.puzzle for c in report.closed][-1] == f"challenge {code}"
    challenge = Puzzle.objects.get(code=code)
    assert challenge.closed_at == at(12, 0, day=30)
    assert Attempt.objects.get(puzzle=challenge).finalised_at_close


def streak(client) -> tuple[int, int]:
    stats = client.get("/api/me").json()["stats"]
    return stats["current_streak"], stats["best_streak"]


def test_streaks_across_a_gap_a_practice_only_day_and_an_archive_game(client, clock, settings):
    settings.FARKLE_FIRST_DAY = datetime.date(2026, 11, 20)

    def play(day):
        clock.move_to(datetime.datetime.fromisoformat(f"{day}T12:00:00Z"))
        return play_greedy(client, start_daily(client, day))

    for day in ("2026-11-20", "2026-11-21", "2026-11-22"):
        play(day)
    # The 23rd is missed; the 24th and 25th are played, the 25th twice (the second is practice).
    for day in ("2026-11-24", "2026-11-25", "2026-11-25"):
        play(day)
    assert streak(client) == (2, 3)
    # On the 26th the 23rd is played from the archive: practice, so the 26th has no official
    # game and the 23rd stays a gap.
    clock.move_to(at(12, 0, day=26))
    archive = play_greedy(client, start_daily(client, "2026-11-23"))
    assert archive["official"] is False
    reconcile(now=at(12, 0, day=26))
    assert streak(client) == (2, 3)
    # The streak survives the 26th until it ends: the 26th can still be played.
    clock.move_to(at(0, 0, day=27))
    assert streak(client) == (0, 3)


def test_rollover_command_prints_what_it_did(client, clock, capsys):
    start_daily(client, DAY)
    clock.move_to(at(0, 1, 31, day=30))
    call_command("rollover", "--at", "2026-11-30T00:01:31Z")
    assert capsys.readouterr().out.splitlines() == [
        "published daily 2026-11-30",
        "published daily 2026-12-01",
        "closed daily 2026-11-29: 1 ranked, 1 unfinished finalised",
        # Its one official game, finalised by the close, rated (tests/play/test_ratings.py).
        "rated daily 2026-11-29: 1 rated",
    ]
    call_command("rollover", "--at", "2026-11-30T00:01:31Z")
    assert "Nothing to do" in capsys.readouterr().out


def test_verification_before_and_after_close(client, clock):
    attempt = play_greedy(client, start_daily(client, DAY))
    refused = client.get(f"/api/verify/daily/{DAY}")
    assert (refused.status_code, refused.json()["code"]) == (409, "not_revealed")
    clock.move_to(at(0, 1, 30, day=30))
    data = client.get(f"/api/verify/daily/{DAY}?attempt={attempt['id']}").json()
    seed = farkle.daily_seed(settings.FARKLE_SEED_SECRET.encode(), datetime.date(2026, 11, 29))
    assert (data["seed"], data["attempt"]["seed"]) == (seed.hex(), seed.hex())
    served = [t["dice"] for turn in attempt["turns"] for t in turn["throws"]]
    assert [t["dice"] for t in data["attempt"]["throws"]] == served
    missing = client.get(f"/api/verify/daily/{DAY}?attempt=999999")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    bad = client.get(f"/api/verify/daily/{DAY}?attempt=x")
    assert bad.status_code == 400


def test_a_game_from_2359_finished_at_0001_counts_for_its_own_day(client, clock):
    clock.move_to(at(23, 59))
    attempt = start_daily(client, DAY)
    clock.move_to(at(0, 1, day=30))
    finished = play_greedy(client, attempt)
    assert finished["finished_at"] == "2026-11-30T00:01:00Z"
    mine = client.get(f"/api/daily/{DAY}/leaderboard").json()
    today = client.get("/api/daily/2026-11-30/leaderboard").json()
    assert ([e["score"] for e in mine["entries"]], today["entries"]) == ([finished["score"]], [])
    clock.move_to(at(0, 1, 30, day=30))
    reconcile(now=at(0, 1, 30, day=30))
    assert attempt_ranks([finished["id"]]) == {finished["id"]: (1, None)}


def test_reconcile_fills_a_gap_left_while_beat_was_down(client, clock, settings):
    settings.FARKLE_FIRST_DAY = datetime.date(2026, 11, 26)
    clock.move_to(at(12, 0, day=26))
    start_daily(client, "2026-11-26")
    # Beat was down; on the 29th the request path created that day's daily itself.
    clock.move_to(at(12, 0))
    client.get("/api/daily/today")
    clock.move_to(at(12, 5))
    report = reconcile(now=at(12, 5))
    assert report.published == ["daily 2026-11-27", "daily 2026-11-28", "daily 2026-11-30"]
    assert [c.puzzle for c in report.closed] == [
        "daily 2026-11-26",
        "daily 2026-11-27",
        "daily 2026-11-28",
    ]


def test_an_action_racing_the_close_is_refused_not_a_500(client, clock):
    attempt = act(client, start_daily(client, DAY), {"action": "roll"}).json()
    # The worker's clock runs a second ahead of the web's: it closes while the web still
    # accepts the action at 00:01:29.
    clock.move_to(at(0, 1, 30, day=30))
    puzzle_close(puzzle_id=daily(DAY).pk, now=at(0, 1, 30, day=30))
    clock.move_to(at(0, 1, 29, day=30))
    best = (
        max(attempt["keep_options"], key=lambda o: o["score"]) if attempt["keep_options"] else None
    )
    action = (
        {"action": "keep", "dice": best["dice"], "then": "roll"} if best else {"action": "roll"}
    )
    refused = act(client, attempt, action)
    assert (refused.status_code, refused.json()["code"]) == (409, "day_closed")
    shown = refused.json()["attempt"]
    assert (shown["state"], shown["keep_options"], shown["farkle_risk"]) == ("finished", [], None)
    assert shown["finalised_at_close"] is True


def test_a_finalised_game_reads_as_finished_with_its_banked_score(client, clock):
    attempt = act(client, start_daily(client, DAY), {"action": "roll"}).json()
    clock.move_to(at(0, 1, 30, day=30))
    reconcile(now=at(0, 1, 30, day=30))
    shown = client.get(f"/api/attempts/{attempt['id']}").json()
    assert (shown["state"], shown["dice"], shown["keep_options"], shown["score"]) == (
        "finished",
        [],
        [],
        0,
    )
    assert shown["turns"][-1]["done"] is True


def test_a_game_that_moves_after_the_early_foresight_check_is_checked_again(
    client, clock, monkeypatch
):
    # The close checks its unfinished games for foresight before taking its locks; an action in
    # flight at the deadline may still land before them, and then the game is checked again.
    attempt = start_daily(client, DAY)
    while attempt["state"] != "awaiting_keep":
        attempt = act(client, attempt, {"action": "roll"}).json()
    best = max(attempt["keep_options"], key=lambda o: o["score"])
    early = {}

    def check_then_act(puzzle_id, now):
        early.update(rollover_foresight_before(puzzle_id, now))
        attempt_act(
            attempt_id=attempt["id"],
            player_id=Attempt.objects.get(pk=attempt["id"]).player_id,
            step=attempt["step"],
            action={"action": "keep", "dice": best["dice"], "then": "bank"},
            now=at(0, 1, 29, day=30),
        )
        return early

    rollover_foresight_before = rollover._foresight_before
    monkeypatch.setattr(rollover, "_foresight_before", check_then_act)
    clock.move_to(at(0, 1, 30, day=30))
    puzzle_close(puzzle_id=daily(DAY).pk, now=at(0, 1, 30, day=30))

    game = Attempt.objects.get(pk=attempt["id"])
    expected = foresight.check(daily(DAY).seed(), game.actions, game.puzzle.table)
    assert (early[game.pk][0], len(game.actions)) == (len(game.actions) - 1, len(game.actions))
    assert (game.foresight, game.foresight_p) == (expected.summary(), expected.p)
    assert game.foresight["banks"] == 1 and early[game.pk][1]["foresight"]["banks"] == 0


def test_the_early_foresight_check_is_the_one_stored_when_the_game_did_not_move(
    client, clock, monkeypatch
):
    attempt = start_daily(client, DAY)
    attempt = act(client, attempt, {"action": "roll"}).json()
    seen = []

    def checked_again(**kwargs):
        raise AssertionError("checked again under the locks")

    def early(puzzle_id, now):
        checked = rollover_foresight_before(puzzle_id, now)
        seen.append(checked)
        # The game did not move: the check just made is the one the close stores.
        monkeypatch.setattr(rollover, "foresight_fields", checked_again)
        return checked

    rollover_foresight_before = rollover._foresight_before
    monkeypatch.setattr(rollover, "_foresight_before", early)
    clock.move_to(at(0, 1, 30, day=30))
    puzzle_close(puzzle_id=daily(DAY).pk, now=at(0, 1, 30, day=30))

    game = Attempt.objects.get(pk=attempt["id"])
    expected = foresight.check(daily(DAY).seed(), game.actions, game.puzzle.table)
    assert list(seen[0]) == [game.pk]
    assert (game.state, game.foresight, game.foresight_p) == (
        "finished",
        expected.summary(),
        expected.p,
    )


# Issue 39 item 3: instants later than the clock (NOON on the 29th, the day open), from the
# smallest step ahead to the day's own close and the morning after.
EARLY = [
    NOON + datetime.timedelta(microseconds=1),
    at(0, 1, 30, day=30),
    at(9, 0, day=30),
]


def stored() -> tuple:
    """Everything a close writes: the puzzles, the games, the score counts."""
    return (
        list(Puzzle.objects.order_by("pk").values()),
        list(Attempt.objects.order_by("pk").values()),
        list(ScoreCount.objects.order_by("pk").values()),
    )


def day_as_seen(day: str = DAY) -> tuple:
    """The day's status and final figures, from the day's endpoint and its leaderboard."""
    shown = Client().get(f"/api/daily/{day}").json()
    board = Client().get(f"/api/daily/{day}/leaderboard").json()
    return shown["status"], shown["final_stats"], board["status"], board["final"]


def test_no_route_closes_an_open_day_before_its_time(client, clock, caplog):
    finisher, player = Client(), Client()
    done = play_greedy(finisher, start_daily(finisher, DAY))
    live = act(player, start_daily(player, DAY), {"action": "roll"}).json()
    before = stored()

    for instant in EARLY:
        text = instant.isoformat().replace("+00:00", "Z")
        # The service, each way in.
        for close, kwargs in (
            (reconcile, {}),
            (puzzle_close, {"puzzle_id": daily(DAY).pk}),
        ):
            with pytest.raises(Invalid) as refused:
                close(now=instant, **kwargs)
            assert (refused.value.code, refused.value.shown) == (
                "future_instant",
                {"at": text, "now": "2026-11-29T12:00:00Z"},
            )
        # The operator's command.
        with pytest.raises(CommandError, match=f"Refused: {text} is later than now"):
            call_command("rollover", "--at", text)
        # The task, as Celery runs it: failed, not retried, and logged.
        caplog.clear()
        with caplog.at_level(logging.ERROR, logger="daily.tasks"):
            result = reconcile_task.apply(kwargs={"at": text}, throw=False)
        assert (result.state, type(result.result)) == ("FAILURE", ValueError)
        assert str(result.result).startswith(f"Refused: {text} is later than now")
        logged = [r for r in caplog.records if r.name == "daily.tasks"]
        assert [(r.levelname, r.getMessage()) for r in logged] == [
            ("ERROR", f"Rollover refused: {result.result}")
        ]

    # Nothing was written: no day published ahead, no game finalised, no count frozen.
    assert stored() == before
    # And everything says the day is open, and plays as open.
    assert day_as_seen() == ("open", None, "open", False)
    # Read by the one who finished: the board counts the finished game alone, live.
    board = finisher.get(f"/api/daily/{DAY}/leaderboard").json()
    assert (board["players"], [e["score"] for e in board["entries"]]) == (1, [done["score"]])
    moved = act(player, live, greedy_action(live))
    assert moved.status_code == 200, moved.json()
    newcomer = start_daily(Client(), DAY)
    assert (newcomer["official"], newcomer["state"]) == (True, "awaiting_roll")

    # At its time, the same command closes the day, and everything agrees it is closed.
    clock.move_to(at(0, 1, 30, day=30))
    call_command("rollover")
    status, final_stats, board_status, final = day_as_seen()
    # Three official games: one finished, two finalised with what they had banked.
    assert (status, final_stats["players"], board_status, final) == ("closed", 3, "closed", True)
    board = Client().get(f"/api/daily/{DAY}/leaderboard").json()
    assert board["players"] == 3
    archive = start_daily(Client(), DAY)
    assert (archive["official"], archive["deadline"]) == (False, None)


def test_a_host_whose_clock_is_behind_the_close_shows_no_final_figures_yet(client, clock):
    play_greedy(client, start_daily(client, DAY))
    clock.move_to(at(0, 1, 30, day=30))
    puzzle_close(puzzle_id=daily(DAY).pk, now=at(0, 1, 30, day=30))
    # A web host whose clock runs a second behind the worker's still calls the day in its
    # grace: no final figures beside that status.
    clock.move_to(at(0, 1, 29, day=30))
    assert day_as_seen() == ("grace", None, "grace", False)
    clock.move_to(at(0, 1, 30, day=30))
    status, final_stats, board_status, final = day_as_seen()
    assert (status, final_stats["players"], board_status, final) == ("closed", 1, "closed", True)


@pytest.mark.django_db(transaction=True)
def test_the_rollover_command_refuses_a_later_instant_with_a_message_and_status_1(client):
    with time_machine.travel(NOON, tick=False):
        start_daily(client, DAY)
    before = stored()

    def rollover_command(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "manage.py", "rollover", *args],
            cwd=ROOT,
            env={**os.environ, "DATABASE_URL": shared_database_url(), "FARKLE_FIRST_DAY": DAY},
            capture_output=True,
            text=True,
            timeout=120,
        )

    # The command's process starts at the clock of the test: noon on the 29th.
    with frozen_at(NOON):
        refused = rollover_command("--at", "2026-11-30T00:01:31Z")
    assert (refused.returncode, refused.stdout) == (1, "")
    assert refused.stderr.startswith(
        "CommandError: Refused: 2026-11-30T00:01:31Z is later than now (2026-11-29T12:"
    ), refused.stderr
    assert stored() == before
    # Once that instant has come, the same command closes the day.
    with frozen_at(at(0, 1, 31, day=30)):
        done = rollover_command("--at", "2026-11-30T00:01:31Z")
    assert (done.returncode, done.stdout.splitlines()[-2:]) == (
        0,
        [
            "closed daily 2026-11-29: 1 ranked, 1 unfinished finalised",
            "rated daily 2026-11-29: 1 rated",
        ],
    ), done.stderr
