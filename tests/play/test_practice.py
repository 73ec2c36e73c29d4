"""Issue 10: practice on an open puzzle plays dice of its own, committed to and then revealed.

The expected dice come from the README's recipe computed here with the standard library:
a practice seed is HMAC-SHA-256(FARKLE_SEED_SECRET, "practice:<attempt id>"), and throw k of
turn t shows the first faces of its roll vector.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
from pathlib import Path

import pytest
from django.conf import settings
from django.db import IntegrityError
from django.test import Client

import farkle
from farkle.fair import practice_seed
from play.models import Attempt
from tests.daily.helpers import act, play_greedy, post, start_daily

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]

DAY = "2026-11-29"


def secret() -> bytes:
    return settings.FARKLE_SEED_SECRET.encode()


def own_seed(attempt_id: int) -> bytes:
    """The practice seed, by the documented recipe (not through the code under test)."""
    return hmac.new(secret(), f"practice:{attempt_id}".encode(), hashlib.sha256).digest()


def day_seed(day: str = DAY) -> bytes:
    return farkle.daily_seed(secret(), datetime.date.fromisoformat(day))


def faces(seed: bytes, turn: int, roll: int, size: int = 6) -> list[int]:
    """Throw ``roll`` of ``turn`` from a seed, written out as the README's snippet does."""
    found, block = [], 0
    while len(found) < size:
        digest = hmac.new(seed, f"roll:{turn}:{roll}:{block}".encode(), hashlib.sha256).digest()
        found += [b % 6 + 1 for b in digest if b < 252]
        block += 1
    return found[:size]


def throws(attempt: dict) -> list[tuple[int, int, list[int]]]:
    return [
        (turn["turn"], k, throw["dice"])
        for turn in attempt["turns"]
        for k, throw in enumerate(turn["throws"], start=1)
    ]


def test_practice_seed_is_the_hmac_of_the_attempt_id():
    assert practice_seed(b"key", 42) == hmac.new(b"key", b"practice:42", hashlib.sha256).digest()
    assert practice_seed(b"key", 42) != practice_seed(b"key", 43)


def test_practice_on_the_open_day_plays_its_own_dice_committed_then_revealed(client):
    official = play_greedy(client, start_daily(client, DAY))
    practice = start_daily(client, DAY)
    seed = own_seed(practice["id"])
    assert (practice["official"], practice["dice_source"]) == (False, "own")
    assert official["dice_source"] == "puzzle"
    # Committed to at the start, the seed itself still secret.
    assert practice["commitment"] == hashlib.sha256(seed).hexdigest()
    assert practice["revealed_seed"] is None
    assert official["commitment"] == hashlib.sha256(day_seed()).hexdigest()

    rolled = act(client, practice, {"action": "roll"}).json()
    # The throw as recorded (``dice`` is empty when that first throw happens to be a Farkle).
    assert rolled["turns"][0]["throws"][0]["dice"] == faces(seed, 1, 1)
    assert rolled["revealed_seed"] is None
    done = play_greedy(client, rolled, bank_at=1000)

    assert done["revealed_seed"] == seed.hex()
    assert all(dice == faces(seed, t, k, len(dice)) for t, k, dice in throws(done))
    assert seed != day_seed()
    # Replayed later, the game still plays the same dice.
    assert client.get(f"/api/attempts/{done['id']}").json()["turns"] == done["turns"]


def test_archive_play_of_a_closed_day_keeps_the_days_dice(client):
    archive = start_daily(client, "2026-11-28")
    rolled = act(client, archive, {"action": "roll"}).json()
    assert (archive["official"], archive["dice_source"]) == (False, "puzzle")
    assert rolled["dice"] == faces(day_seed("2026-11-28"), 1, 1)
    assert rolled["commitment"] == hashlib.sha256(day_seed("2026-11-28")).hexdigest()
    assert rolled["revealed_seed"] is None


def test_practice_on_an_open_challenge_plays_its_own_dice(client):
    code = post(client, "/api/challenges", {"days": 2}).json()["code"]
    play_greedy(client, post(client, f"/api/challenges/{code}/attempts").json())
    practice = post(client, f"/api/challenges/{code}/attempts").json()
    rolled = act(client, practice, {"action": "roll"}).json()
    assert (rolled["official"], rolled["dice_source"]) == (False, "own")
    assert rolled["turns"][0]["throws"][0]["dice"] == faces(own_seed(practice["id"]), 1, 1)


def test_an_official_game_always_plays_the_puzzles_dice(client):
    attempt = start_daily(client, DAY)
    with pytest.raises(IntegrityError):
        Attempt.objects.filter(pk=attempt["id"]).update(dice_source="own")


def test_no_practice_while_the_official_game_is_unfinished_even_on_own_dice(client):
    # Kept on purpose: a double click on "Play" must lead back to the one official game.
    official = start_daily(client, DAY)
    refused = post(client, f"/api/daily/{DAY}/attempts")
    assert (refused.status_code, refused.json()["attempt_id"]) == (409, official["id"])


def test_practice_unfinished_at_the_close_is_ended_and_its_seed_revealed(client, clock):
    from daily.services.rollover import reconcile

    play_greedy(client, start_daily(client, DAY))
    practice = act(client, start_daily(client, DAY), {"action": "roll"}).json()
    assert practice["revealed_seed"] is None
    close = datetime.datetime(2026, 11, 30, 0, 1, 30, tzinfo=datetime.UTC)
    clock.move_to(close)
    reconcile(now=close)
    ended = client.get(f"/api/attempts/{practice['id']}").json()
    assert (ended["state"], ended["revealed_seed"]) == ("finished", own_seed(practice["id"]).hex())


# ---- the verify API: facts, not a verdict ----


def test_verify_serves_the_facts_of_a_closed_day_and_of_a_game(client, clock):
    official = play_greedy(client, start_daily(client, DAY))
    clock.move_to(datetime.datetime(2026, 11, 30, 0, 1, 30, tzinfo=datetime.UTC))
    data = client.get(f"/api/verify/daily/{DAY}?attempt={official['id']}").json()
    seed = day_seed()
    assert {k: v for k, v in data.items() if k != "attempt"} == {
        "puzzle": {"kind": "daily", "date": DAY},
        "table": "farkle-challenge",
        "status": "closed",
        "opens_at": "2026-11-29T00:00:00Z",
        "closes_at": "2026-11-30T00:01:30Z",
        "commitment": hashlib.sha256(seed).hexdigest(),
        # Seed 000: the daily has no house rule and no clock; its par is the table's.
        "options": {"entry_minimum": 0, "farkle_penalty": 0, "turn_seconds": None},
        "par": round(farkle.solve("farkle-challenge").expected_turn() * 10),
        "seed": seed.hex(),
    }
    game = data["attempt"]
    assert {k: v for k, v in game.items() if k != "throws"} == {
        "id": official["id"],
        "player": game["player"],
        "official": True,
        "score": official["score"],
        "finished": True,
        "dice_source": "puzzle",
        "commitment": hashlib.sha256(seed).hexdigest(),
        "seed": seed.hex(),
        "timed_out_turns": [],
        "time_taken": 0.0,
    }
    assert [(t["turn"], t["roll"], t["dice"]) for t in game["throws"]] == throws(official)


def test_a_finished_practice_on_an_open_day_is_checkable_by_its_player_only(client):
    play_greedy(client, start_daily(client, DAY))
    unfinished = start_daily(client, DAY)
    done = play_greedy(client, start_daily(client, DAY))
    data = client.get(f"/api/verify/daily/{DAY}?attempt={done['id']}").json()
    seed = own_seed(done["id"])
    # The day's seed stays secret; the practice game's own seed and throws are public facts.
    assert (data["status"], data["seed"]) == ("open", None)
    assert (data["attempt"]["seed"], data["attempt"]["commitment"]) == (
        seed.hex(),
        hashlib.sha256(seed).hexdigest(),
    )
    assert [(t["turn"], t["roll"], t["dice"]) for t in data["attempt"]["throws"]] == throws(done)
    for who, attempt_id in ((Client(), done["id"]), (client, unfinished["id"]), (client, None)):
        query = f"?attempt={attempt_id}" if attempt_id else ""
        refused = who.get(f"/api/verify/daily/{DAY}{query}")
        assert (refused.status_code, refused.json()["code"]) == (409, "not_revealed")


def test_the_readmes_standard_library_recipe_checks_a_practice_game(client):
    # The README's own `throw` function, fed with the verify API's facts of a practice game.
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    block = readme.split("## Provably fair", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    throw_source = block[block.index("def throw") : block.index("print(")]
    play_greedy(client, start_daily(client, DAY))
    done = play_greedy(client, start_daily(client, DAY), bank_at=1000)
    facts = client.get(f"/api/verify/daily/{DAY}?attempt={done['id']}").json()["attempt"]
    seed = bytes.fromhex(facts["seed"])
    assert hashlib.sha256(seed).hexdigest() == facts["commitment"] == done["commitment"]
    namespace = {"seed": seed, "hmac": hmac}
    exec(throw_source, namespace)
    assert len(facts["throws"]) > 10
    for t in facts["throws"]:
        assert namespace["throw"](t["turn"], t["roll"], len(t["dice"])) == t["dice"]
