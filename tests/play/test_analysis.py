"""Issue 12: after the game. A finished attempt's analysis, the bots on the same dice, the
leaderboard's reference row and the practice coach, with who may see what when.

Expected values come from the engine run here on the seed the puzzle reveals at its close (or the
practice game's own revealed seed), and from the attempt's own throws as the attempt API shows
them; the fairness matrix covers a stranger, an unfinished player, a finished player and after
the close."""

from __future__ import annotations

import pytest
from django.test import Client

import farkle
from farkle.bots import play
from tests.daily.helpers import act, play_greedy, post, start_daily
from tests.helpers import assert_documented

DAY = "2026-11-29"
AFTER_CLOSE = "2026-11-30T00:05:00Z"
pytestmark = [pytest.mark.django_db]


def analysis(client: Client, attempt_id: int):
    return client.get(f"/api/attempts/{attempt_id}/analysis")


def table_of(client: Client) -> str:
    return client.get(f"/api/daily/{DAY}").json()["table"]


def decisions_in(attempt: dict) -> list[tuple[int, int, list[int]]]:
    """Every keep of the game, from the attempt's own throws: (turn, roll, dice)."""
    return [
        (turn["turn"], roll, throw["dice"])
        for turn in attempt["turns"]
        for roll, throw in enumerate(turn["throws"], start=1)
        if throw["kept"]
    ]


def test_a_finished_player_gets_every_decision_graded_and_the_bots_scores_only(client, clock):
    attempt = play_greedy(client, start_daily(client, DAY), bank_at=400)
    response = analysis(client, attempt["id"])
    assert response.status_code == 200
    assert_documented(response, "/api/attempts/{attempt_id}/analysis", "get")
    body = response.json()
    got = [(d["turn"], d["roll"], d["dice"]) for d in body["decisions"]]
    assert got == decisions_in(attempt)
    # The player's keeps are the kept positions of the attempt, each graded by its loss.
    kept = [t["kept"] for turn in attempt["turns"] for t in turn["throws"] if t["kept"]]
    assert [d["chosen"]["dice"] for d in body["decisions"]] == kept
    for d in body["decisions"]:
        assert d["lost"] == pytest.approx(
            max(0.0, d["best"]["expected"] - d["chosen"]["expected"]), abs=0.02
        )
    par = farkle.solve(table_of(client)).expected_turn() * farkle.TURNS
    assert body["par"] == pytest.approx(par, abs=0.01)
    # docs/analysis.md: the score splits exactly into par, skill and luck.
    assert body["score"] == attempt["score"]
    assert body["par"] - body["lost"] + body["luck"] == pytest.approx(attempt["score"], abs=0.1)
    assert body["accuracy"] == pytest.approx(100 * (1 - body["lost"] / par), abs=0.05)
    assert sum(body["grades"].values()) == len(body["decisions"])
    # Scores before the close, never the bots' throws.
    assert [b["level"] for b in body["bots"]] == ["easy", "medium", "hard"]
    assert all(b["turns"] is None for b in body["bots"])
    assert body["optimal_score"] == body["bots"][2]["score"]
    assert [b["beaten"] for b in body["bots"]] == [
        attempt["score"] > b["score"] for b in body["bots"]
    ]
    # After the close the revealed seed lets anyone check the bots, and see their games.
    clock.move_to(AFTER_CLOSE)
    seed = bytes.fromhex(client.get(f"/api/daily/{DAY}").json()["revealed_seed"])
    after = analysis(client, attempt["id"]).json()
    expected = {level: play(seed, level, table_of(client)) for level in ("easy", "medium", "hard")}
    assert [(b["level"], b["score"]) for b in after["bots"]] == [
        (level, bot.score) for level, bot in expected.items()
    ]
    assert after["optimal_score"] == expected["hard"].score
    hard = after["bots"][2]["turns"]
    assert [t["points"] for t in hard] == [t.points for t in expected["hard"].game.turns]


def test_the_optimal_player_loses_nothing_on_its_own_game(client, clock):
    # The optimal bot's actions played through the API: every decision graded best.
    clock.move_to(AFTER_CLOSE)
    seed = bytes.fromhex(client.get(f"/api/daily/{DAY}").json()["revealed_seed"])
    attempt = start_daily(client, DAY)
    for action in play(seed, "hard", table_of(client)).actions:
        response = act(client, attempt, dict(action))
        assert response.status_code == 200, response.json()
        attempt = response.json()
    body = analysis(client, attempt["id"]).json()
    assert attempt["score"] == play(seed, "hard", table_of(client)).score == body["optimal_score"]
    assert {d["grade"] for d in body["decisions"]} == {"best"}
    assert (body["lost"], body["accuracy"], body["costliest"]) == (0, 100.0, [])


def test_who_sees_what_before_and_after_the_close(client, clock):
    finished, playing, stranger = client, Client(), Client()
    done = play_greedy(finished, start_daily(finished, DAY), bank_at=300)
    mid = start_daily(playing, DAY)
    mid = act(playing, mid, {"action": "roll"}).json()
    board = f"/api/daily/{DAY}/leaderboard"
    # A stranger: nobody's analysis, no reference row.
    assert analysis(stranger, done["id"]).status_code == 404
    assert stranger.get(board).json()["reference"] is None
    # An unfinished player: their own game has no analysis yet, others' none, no reference.
    own = analysis(playing, mid["id"])
    assert (own.status_code, own.json()["code"]) == (409, "wrong_state")
    assert analysis(playing, done["id"]).status_code == 404
    assert playing.get(board).json()["reference"] is None
    # The finished player: their analysis, the optimal score on the board as a row with no rank.
    mine = analysis(finished, done["id"]).json()
    listed = finished.get(board)
    assert_documented(listed, "/api/daily/{day}/leaderboard", "get")
    assert listed.json()["reference"] == {"label": "optimal", "score": mine["optimal_score"]}
    assert listed.json()["players"] == 1
    assert analysis(finished, mid["id"]).status_code == 404
    # After the close: everyone sees finished games, with the bots' games.
    clock.move_to(AFTER_CLOSE)
    seen = analysis(stranger, done["id"])
    assert seen.status_code == 200
    assert_documented(seen, "/api/attempts/{attempt_id}/analysis", "get")
    assert all(b["turns"] for b in seen.json()["bots"])
    seed = bytes.fromhex(stranger.get(f"/api/daily/{DAY}").json()["revealed_seed"])
    assert (
        stranger.get(board).json()["reference"]["score"]
        == play(seed, "hard", table_of(client)).score
    )
    # The analysis changed no score and no rank.
    assert finished.get(board).json()["entries"][0]["score"] == done["score"]


def test_a_practice_game_on_its_own_dice_shows_its_bots_games_at_once(client, clock):
    play_greedy(client, start_daily(client, DAY))
    practice = play_greedy(client, start_daily(client, DAY), bank_at=500)
    assert practice["dice_source"] == "own"
    body = analysis(client, practice["id"]).json()
    seed = bytes.fromhex(practice["revealed_seed"])
    assert [b["score"] for b in body["bots"]] == [
        play(seed, level, table_of(client)).score for level in ("easy", "medium", "hard")
    ]
    assert all(b["turns"] for b in body["bots"])


def test_the_coach_helps_in_practice_only(client, clock):
    official = start_daily(client, DAY)
    refused = client.get(f"/api/attempts/{official['id']}/coach")
    assert (refused.status_code, refused.json()["code"]) == (409, "wrong_state")
    play_greedy(client, official)
    practice = start_daily(client, DAY)
    before = client.get(f"/api/attempts/{practice['id']}/coach")
    assert_documented(before, "/api/attempts/{attempt_id}/coach", "get")
    turn = farkle.solve(table_of(client)).expected_turn()
    assert before.json()["advice"]["roll"] == pytest.approx(turn, abs=0.01)
    assert before.json()["advice"]["options"] == []
    practice = act(client, practice, {"action": "roll"}).json()
    advice = client.get(f"/api/attempts/{practice['id']}/coach").json()["advice"]
    if advice is not None and practice["state"] == "awaiting_keep":
        assert_documented(
            client.get(f"/api/attempts/{practice['id']}/coach"),
            "/api/attempts/{attempt_id}/coach",
            "get",
        )
        # One option per keep the game offers, the best one marked, the most expected.
        assert sorted(o["dice"] for o in advice["options"]) == sorted(
            o["dice"] for o in practice["keep_options"]
        )
        best = max(o["expected"] for o in advice["options"])
        assert [o["best"] for o in advice["options"]].count(True) == 1
        # The advised keep is the marked one and is worth the most (two single 1s tie: either).
        advised = next(o for o in advice["options"] if o["dice"] == advice["dice"])
        assert (advised["best"], advised["expected"]) == (True, pytest.approx(best))
    assert Client().get(f"/api/attempts/{practice['id']}/coach").status_code == 404


def test_the_replay_page_shows_every_throw_to_whom_the_analysis_shows(client, clock):
    done = play_greedy(client, start_daily(client, DAY), bank_at=350)
    stranger = Client()
    url = f"/attempts/{done['id']}/replay"
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    throws = sum(len(turn["throws"]) for turn in done["turns"])
    assert html.count('data-step="') == throws
    assert html.count('class="slot kept"') == sum(
        len(t["kept"]) for turn in done["turns"] for t in turn["throws"]
    )
    # Before the close: the bots' scores, never their games.
    assert 'data-role="versus"' not in html
    assert stranger.get(url).status_code == 404
    unfinished = Client()
    mid = start_daily(unfinished, DAY)
    assert unfinished.get(f"/attempts/{mid['id']}/replay").status_code == 404
    clock.move_to(AFTER_CLOSE)
    seen = stranger.get(url).content.decode()
    assert seen.count('data-step="') == throws and 'data-role="versus"' in seen


def test_the_coach_refuses_a_challenge_attempt_that_counts(client, clock):
    code = post(client, "/api/challenges", {"days": 3}).json()["code"]
    counted = post(client, f"/api/challenges/{code}/attempts").json()
    assert counted["official"]
    refused = client.get(f"/api/attempts/{counted['id']}/coach")
    assert (refused.status_code, refused.json()["code"]) == (409, "wrong_state")
    play_greedy(client, counted)
    practice = post(client, f"/api/challenges/{code}/attempts").json()
    assert client.get(f"/api/attempts/{practice['id']}/coach").status_code == 200


def test_a_house_ruled_challenge_attempt_is_graded_under_its_rules(client, clock):
    # Issue 14: the analysis and the bots of a challenge with an entry minimum and a penalty
    # use its rules: par is the solver's game-level par for them, the bots replay under them.
    from django.conf import settings

    rules = farkle.HouseRules(500, 500)
    levels = ("easy", "medium", "hard")
    # A challenge whose dice the rules play differently on, so the bots' scores tell them apart.
    for _ in range(20):
        made = post(
            client,
            "/api/challenges",
            {"table": "popular", "entry_minimum": 500, "farkle_penalty": 500},
        )
        assert made.status_code == 201, made.json()
        code = made.json()["code"]
        seed = farkle.challenge_seed(settings.FARKLE_SEED_SECRET.encode(), code)
        expected = [play(seed, level, "popular", rules).score for level in levels]
        if expected != [play(seed, level, "popular").score for level in levels]:
            break
    started = post(client, f"/api/challenges/{code}/attempts")
    assert started.status_code == 201, started.json()
    attempt = started.json()
    while attempt["state"] != "finished":
        if attempt["state"] == "awaiting_roll":
            response = act(client, attempt, {"action": "roll"})
        else:
            best = max(attempt["keep_options"], key=lambda o: (o["score"], -len(o["dice"])))
            held = attempt["turn_points"] + best["score"]
            then = "bank" if best["can_bank"] and held >= 300 else "roll"
            response = act(client, attempt, {"action": "keep", "dice": best["dice"], "then": then})
        assert response.status_code == 200, response.json()
        attempt = response.json()
    response = analysis(client, attempt["id"])
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["decisions"] and body["score"] == attempt["score"]
    assert body["par"] == pytest.approx(farkle.game_par("popular", rules), abs=0.01)
    # The challenger's own finished game shows the bots' scores: theirs under the same rules.
    assert [b["score"] for b in body["bots"]] == expected
    assert body["optimal_score"] == expected[2]
