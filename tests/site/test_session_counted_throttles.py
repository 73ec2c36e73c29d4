"""A game action's throttle counted in the script that reads its session from Redis
(farkle_site.drf.SessionCountedThrottles, issue 15 item 1): one round trip to Redis per action,
each action counted once on its own player's counter, never on another browser's."""

import uuid

import pytest
import redis
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from rest_framework.views import APIView

from farkle_site import drf, ratelimit
from tests.daily.helpers import act, start_daily
from tests.helpers import REDIS, rates, redis_commands_sent, redis_keys_made
from tests.moments import NOON

DAY = NOON.date().isoformat()

pytestmark = pytest.mark.django_db


@pytest.fixture
def shared(settings, shared_redis):
    """The production shape's cache: sessions and throttles in the test's Redis (what the test
    made there deleted afterwards), and no session this process has served yet."""
    settings.CACHES = {"default": {"BACKEND": "farkle_site.cache.RedisCache", "LOCATION": REDIS}}
    settings.SESSION_ENGINE = "farkle_site.sessions"
    drf._SESSION_PLAYERS.clear()
    # Django's cache (sessions, the dailies of rolled-back rows), beside the throttles' counters.
    with redis_keys_made(REDIS, ":1:*"):
        yield shared_redis
    drf._SESSION_PLAYERS.clear()


@pytest.fixture
def commands(monkeypatch):
    """The name of every command any Redis connection of this process sends."""
    return redis_commands_sent(monkeypatch)


def step(client: Client, attempt: dict):
    """One action of a cautious player: roll, or keep the best dice and bank them."""
    if attempt["state"] == "awaiting_roll":
        return act(client, attempt, {"action": "roll"})
    best = max(attempt["keep_options"], key=lambda o: o["score"])
    return act(client, attempt, {"action": "keep", "dice": best["dice"], "then": "bank"})


def play(client: Client, attempt: dict, actions: int) -> dict:
    for _ in range(actions):
        response = step(client, attempt)
        assert response.status_code == 200, response.json()
        attempt = response.json()
    return attempt


def counted(server, player_id: int) -> int:
    """The count of the player's action counter in the current (frozen) minute."""
    keys = list(server.scan_iter(f"farkle:rl:throttle_attempt_act_player-{player_id}:*"))
    return sum(int(server.get(key)) for key in keys)


def player_of(client: Client) -> int:
    return client.session[settings.PLAYER_SESSION_KEY]


def test_an_action_reads_its_session_and_counts_its_throttle_in_one_command(
    shared, commands, clock
):
    client = Client()
    attempt = play(client, start_daily(client, DAY), 1)
    commands.clear()
    play(client, attempt, 5)
    # Django's session read (GET) and the throttle's script (EVALSHA) were two round trips.
    assert commands == ["EVALSHA"] * 5


def test_a_session_this_process_has_not_served_is_read_and_counted_as_before(
    shared, commands, clock
):
    client = Client()
    attempt = start_daily(client, DAY)
    commands.clear()
    play(client, attempt, 1)
    assert commands == ["GET", "EVALSHA"]
    assert counted(shared, player_of(client)) == 1


def test_each_action_counts_once_and_the_limit_still_refuses(shared, clock):
    client = Client()
    with rates(attempt_act="6/minute"):
        attempt = play(client, start_daily(client, DAY), 6)
        refused = step(client, attempt)
    assert (refused.status_code, refused.json()["code"]) == (429, "throttled")
    # Six actions and the refused seventh, each counted once: the first without a guess, the
    # others in the session's read.
    assert counted(shared, player_of(client)) == 7


def test_a_stranger_acting_on_someones_game_never_counts_on_their_counter(shared, clock):
    owner, stranger = Client(), Client()
    attempt = play(owner, start_daily(owner, DAY), 2)
    play(stranger, start_daily(stranger, DAY), 2)
    for _ in range(3):
        refused = step(stranger, attempt)
        assert refused.status_code == 404
    assert counted(shared, player_of(owner)) == 2
    assert counted(shared, player_of(stranger)) == 2 + 3


def test_a_session_holding_another_player_now_counts_on_that_player(shared, clock):
    client = Client()
    attempt = play(client, start_daily(client, DAY), 2)
    # This process saw another player in the session last (as before a login on another tab).
    before = 10**9 + uuid.uuid4().int % 10**6
    drf._SESSION_PLAYERS[client.session.session_key] = before
    attempt = play(client, attempt, 1)
    assert counted(shared, player_of(client)) == 3
    # The guess cost one count on the player the same browser held, and the next is right.
    assert counted(shared, before) == 1
    play(client, attempt, 1)
    assert (counted(shared, player_of(client)), counted(shared, before)) == (4, 1)


def test_a_session_gone_from_the_cache_is_read_from_the_database(shared, commands, clock):
    client = Client()
    attempt = play(client, start_daily(client, DAY), 1)
    key = client.session.session_key
    (cached,) = list(shared.scan_iter(f"*{key}"))
    shared.delete(cached)
    commands.clear()
    attempt = play(client, attempt, 1)
    # The script found no session: it is read from the database and cached again; the action
    # was counted by the script alone.
    assert commands == ["EVALSHA", "SET"]
    assert counted(shared, player_of(client)) == 2
    assert shared.exists(cached)


def test_the_script_reads_a_key_and_counts_in_one_command(shared, commands):
    name = f"test:{uuid.uuid4().hex}"
    shared.set(f"{name}:value", b"stored")
    ratelimit.hit_all([(f"{name}:warm", 60)])  # Redis knows the script from now on
    commands.clear()
    first = ratelimit.read_and_hit_all(f"{name}:value", [(f"{name}:a", 60)], now=1_000_030.0)
    missing = ratelimit.read_and_hit_all(f"{name}:none", [(f"{name}:a", 60)], now=1_000_031.0)
    assert first == (b"stored", [ratelimit.Hit(1, 50.0)])
    assert missing == (None, [ratelimit.Hit(2, 49.0)])
    assert commands == ["EVALSHA", "EVALSHA"]


def test_without_a_shared_cache_nothing_is_read_or_counted(settings):
    settings.CACHE_URL = None
    assert ratelimit.read_and_hit_all("any", [("test:unshared", 60)]) is None


def test_the_process_remembers_a_bounded_number_of_sessions(monkeypatch):
    monkeypatch.setattr(drf, "_SESSION_PLAYERS_SIZE", 3)
    monkeypatch.setattr(drf, "_SESSION_PLAYERS", type(drf._SESSION_PLAYERS)())
    for n in range(5):
        drf._remember_player(f"key{n}", n)
    drf._remember_player("key3", None)
    assert dict(drf._SESSION_PLAYERS) == {"key2": 2, "key4": 4}


def test_a_failing_read_falls_back_to_the_database_and_counts_once(shared, monkeypatch, clock):
    client = Client()
    attempt = play(client, start_daily(client, DAY), 1)

    def down(*args, **kwargs):
        raise redis.ConnectionError("Redis went away for this read")

    monkeypatch.setattr(ratelimit, "read_and_hit_all", down)
    play(client, attempt, 1)
    # Nothing was counted by the failed read: the throttle counted on its own, once.
    assert counted(shared, player_of(client)) == 2


def test_a_session_in_another_cache_than_the_counters_is_read_as_before(
    shared, settings, commands, clock
):
    client = Client()
    attempt = play(client, start_daily(client, DAY), 1)
    # The counters' URL names the same server another way: not the session's cache, for all the
    # store can tell.
    settings.CACHE_URL = f"{REDIS}?socket_timeout=5"
    commands.clear()
    play(client, attempt, 1)
    assert commands == ["GET", "EVALSHA"]


def test_a_view_that_counts_its_throttles_at_once_cannot_also_count_them_in_the_read():
    # It would count each request twice: refused as the class is defined, not per request.
    with pytest.raises(ImproperlyConfigured):

        class Both(drf.SessionCountedThrottles, drf.ThrottledAtOnce, APIView):
            pass
