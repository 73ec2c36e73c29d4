import datetime

import pytest
from django.conf import settings
from django.test import Client

import farkle
from challenges.models import Challenge
from play.models import Attempt, Puzzle
from tests.helpers import race, rates
from tests.moments import NOON

from ..daily.helpers import act, play_greedy, post

UTC = datetime.UTC

pytestmark = pytest.mark.django_db


def create(client, **body):
    response = post(client, "/api/challenges", body)
    assert response.status_code == 201, response.json()
    return response.json()


def start(client, code):
    response = post(client, f"/api/challenges/{code}/attempts")
    assert response.status_code == 201, response.json()
    return response.json()


def seed_of(code: str) -> bytes:
    return farkle.challenge_seed(settings.FARKLE_SEED_SECRET.encode(), code)


def test_create_returns_code_link_and_commitment(client, clock):
    made = create(client, title="  Friday night  ", table="popular", days=3)
    code = made["code"]
    assert made == {
        "kind": "challenge",
        "opens_at": "2026-11-29T12:00:00Z",
        "ends_at": "2026-12-02T12:00:00Z",
        "closes_at": "2026-12-02T12:00:00Z",
        "code": code,
        "display_code": f"{code[:3]}-{code[3:]}",
        "url": f"http://testserver/c/{code}",
        "title": "Friday night",
        "creator": made["creator"],
        "table": "popular",
        "created_at": "2026-11-29T12:00:00Z",
        "expires_at": "2026-12-02T12:00:00Z",
        "status": "open",
        "players": 0,
        "par": round(farkle.solve("popular").expected_turn() * 10),
        "turns_total": 10,
        "commitment": farkle.commitment(seed_of(code)),
        "revealed_seed": None,
        "final_stats": None,
        # Issue 14: every option off unless chosen.
        "options": {"entry_minimum": 0, "farkle_penalty": 0, "turn_seconds": None},
    }
    assert Challenge.objects.get().creator.display_name == made["creator"]


def test_create_defaults(client, clock):
    made = create(client)
    assert (made["title"], made["table"], made["expires_at"]) == (
        "",
        "farkle-challenge",
        "2026-12-06T12:00:00Z",
    )


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"table": "yahtzee"}, "unknown_table"),
        ({"table": 3}, "unknown_table"),
        ({"days": 0}, "invalid"),
        ({"days": 31}, "invalid"),
        ({"days": "week"}, "invalid"),
        ({"title": "x" * 61}, "invalid_title"),
        ({"title": "x" * 201}, "invalid_title"),
        ({"title": 7}, "invalid_title"),
        ({"title": "Admin Putain"}, "invalid_title"),
    ],
)
def test_create_refuses_bad_input_and_stores_nothing(client, clock, body, code):
    response = post(client, "/api/challenges", body)
    assert (response.status_code, response.json()["code"]) == (400, code), response.json()
    assert not Challenge.objects.exists() and not Puzzle.objects.exists()


def test_an_unknown_table_is_named_as_sent_not_as_python_writes_it(client, clock):
    # Issue 39: messages speak of the request; Python's repr would quote it 'so' and escape it.
    response = post(client, "/api/challenges", {"table": "dix mille\u200b"})
    assert (response.status_code, response.json()) == (
        400,
        {
            "detail": "Unknown table \u201cdix mille\u200b\u201d; choose one of farkle-challenge, "
            "farkle-games, dice-game-depot, popular, kingdom-come, smart-box, royal, dix-mille.",
            "code": "unknown_table",
        },
    )


# Issue 39: the probe's two titles, accepted before, and other spellings of a staff claim.
@pytest.mark.parametrize(
    "title",
    [
        "\uff21\uff24\uff2d\uff29\uff2e",  # fullwidth "ADMIN"
        "\u24b6\u24d3\u24dc\u24d8\u24dd official",  # circled "Admin"
        "\U0001d400\U0001d41d\U0001d426\U0001d422\U0001d427",  # mathematical bold "Admin"
        "A\u200dd\u200dm\u200di\u200dn",  # zero-width joiners between the letters
    ],
)
def test_a_title_that_passes_for_staff_is_refused_in_the_callers_language(client, clock, title):
    english = post(client, "/api/challenges", {"title": title})
    french = post(client, "/api/challenges", {"title": title}, HTTP_ACCEPT_LANGUAGE="fr")
    assert (english.status_code, english.json()) == (
        400,
        {"detail": "The title cannot pass for the site's staff.", "code": "invalid_title"},
    )
    assert (french.status_code, french.json()) == (
        400,
        {
            "detail": "Un titre ne peut pas se faire passer pour l\u2019\u00e9quipe du site.",
            "code": "invalid_title",
        },
    )
    assert not Challenge.objects.exists() and not Puzzle.objects.exists()


@pytest.mark.parametrize(
    "title", ["Défi du dimanche soir", "La revanche de Léa", "Été à Montréal", "Œufs et dés 🎲"]
)
def test_ordinary_french_titles_with_accents_pass(client, clock, title):
    made = create(client, title=title)
    assert made["title"] == title
    assert Challenge.objects.get().title == title


@pytest.mark.parametrize("raw", [b"[]", b"{", b'"x"'])
def test_create_refuses_malformed_json(client, clock, raw):
    response = client.post("/api/challenges", raw, content_type="application/json")
    assert response.status_code == 400
    assert not Challenge.objects.exists()


def test_two_players_on_one_code_see_the_same_throws(client, clock):
    code = create(client)["code"]
    friend = Client()
    mine = play_greedy(client, start(client, code), bank_at=250)
    theirs = play_greedy(friend, start(friend, code), bank_at=900)
    firsts = [[t["throws"][0]["dice"] for t in a["turns"]] for a in (mine, theirs)]
    expected = [farkle.roll_vector(seed_of(code), t, 1) for t in range(1, 11)]
    assert firsts[0] == firsts[1] == expected
    assert mine["puzzle"] == {"kind": "challenge", "code": code}


def test_daily_and_challenge_of_the_same_date_differ(client, clock):
    code = create(client)["code"]
    challenge = act(client, start(client, code), {"action": "roll"}).json()
    daily = act(client, post(client, "/api/daily/2026-11-29/attempts").json(), {"action": "roll"})
    secret = settings.FARKLE_SEED_SECRET.encode()
    day_seed = farkle.daily_seed(secret, datetime.date(2026, 11, 29))
    # The throw as recorded: a Farkle leaves no current dice.
    assert daily.json()["turns"][0]["throws"][0]["dice"] == farkle.roll_vector(day_seed, 1, 1)
    assert challenge["turns"][0]["throws"][0]["dice"] == farkle.roll_vector(seed_of(code), 1, 1)
    assert day_seed != seed_of(code)


@pytest.mark.parametrize("typed", ["{lower}", "{spaced}", "{dashed}"])
def test_lookup_reads_the_code_forgivingly(client, clock, typed):
    code = create(client)["code"]
    variants = {
        "lower": code.lower(),
        "spaced": f"{code[:3]} {code[3:]}".lower(),
        "dashed": f"{code[:3]}-{code[3:]}",
    }
    response = client.get(f"/api/challenges/{typed.format(**variants)}")
    assert (response.status_code, response.json()["code"]) == (200, code)


def test_lookup_reads_o_as_zero(client, clock):
    made = create(client)
    Puzzle.objects.filter(code=made["code"]).update(code="K7M2Q0")
    response = client.get("/api/challenges/K7M2QO")
    assert (response.status_code, response.json()["code"]) == (200, "K7M2Q0")


@pytest.mark.parametrize(
    ("typed", "status", "code"),
    [("K7M2Q", 400, "invalid_code"), ("K7M2QU", 400, "invalid_code"), ("ZZZZZZ", 404, "not_found")],
)
def test_lookup_of_malformed_and_unknown_codes(client, clock, typed, status, code):
    response = client.get(f"/api/challenges/{typed}")
    assert (response.status_code, response.json()["code"]) == (status, code)
    response = post(client, f"/api/challenges/{typed}/attempts")
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert not Attempt.objects.exists()


def test_first_attempt_official_later_practice(client, clock):
    code = create(client)["code"]
    first = play_greedy(client, start(client, code))
    second = start(client, code)
    detail = client.get(f"/api/challenges/{code}").json()
    assert (first["official"], second["official"], detail["players"]) == (True, False, 1)
    assert [a["official"] for a in detail["my_attempts"]] == [True, False]


@pytest.mark.django_db(transaction=True)
def test_concurrent_starts_give_one_official(client, clock):
    code = create(client)["code"]
    bodies = race(3, lambda: post(client, f"/api/challenges/{code}/attempts").json())
    results = [body.get("official", body.get("code")) for body in bodies]
    assert sorted(map(str, results)) == ["True", "wrong_state", "wrong_state"]
    assert Attempt.objects.get().official


def test_expiry_at_the_exact_instant(client, clock):
    code = create(client, days=1)["code"]
    attempt = start(client, code)
    clock.move_to(NOON + datetime.timedelta(days=1, microseconds=-1))
    attempt = act(client, attempt, {"action": "roll"}).json()
    assert attempt["step"] == 1
    clock.move_to(NOON + datetime.timedelta(days=1))
    before = Attempt.objects.values().get(pk=attempt["id"])
    refused = act(client, attempt, {"action": "keep", "dice": [0], "then": "bank"})
    assert (refused.status_code, refused.json()["code"]) == (409, "challenge_closed")
    late = post(Client(), f"/api/challenges/{code}/attempts")
    assert (late.status_code, late.json()["code"]) == (409, "challenge_closed")
    assert Attempt.objects.values().get(pk=attempt["id"]) == before
    assert Attempt.objects.count() == 1


def test_seed_is_revealed_after_expiry_and_matches_the_commitment(client, clock):
    made = create(client, days=1)
    clock.move_to(NOON + datetime.timedelta(days=1, microseconds=-1))
    assert client.get(f"/api/challenges/{made['code']}").json()["revealed_seed"] is None
    clock.move_to(NOON + datetime.timedelta(days=1))
    detail = client.get(f"/api/challenges/{made['code']}").json()
    assert detail["status"] == "closed"
    seed = bytes.fromhex(detail["revealed_seed"])
    assert farkle.commitment(seed) == made["commitment"]
    assert seed == seed_of(made["code"])


def test_leaderboard_ranks_players_with_challenge_details(client, clock):
    made = create(client, title="Office cup")
    code = made["code"]
    players = [client, Client(), Client()]
    finished = [
        play_greedy(p, start(p, code), bank_at=b)
        for p, b in zip(players, (300, 500, 800), strict=True)
    ]
    start(players[0], code)  # practice, never ranked
    board = client.get(f"/api/challenges/{code.lower()}/leaderboard").json()
    scores = sorted((a["score"] for a in finished), reverse=True)
    assert [e["score"] for e in board["entries"]] == scores
    assert board["players"] == 3
    assert (board["title"], board["creator"], board["table"], board["expires_at"]) == (
        "Office cup",
        made["creator"],
        "farkle-challenge",
        made["expires_at"],
    )
    assert board["me"]["score"] == finished[0]["score"]
    assert board["kind"] == "challenge" and board["code"] == code


def test_my_challenges_lists_created_and_played_newest_first(client, clock):
    friend = Client()
    create(client, title="Mine")
    clock.shift(datetime.timedelta(minutes=5))
    theirs = create(friend, title="Theirs")
    clock.shift(datetime.timedelta(minutes=5))
    create(friend, title="Not played by me")
    play_greedy(client, start(client, theirs["code"]))
    listed = client.get("/api/me/challenges").json()
    assert [(c["title"], c["created"], c["played"]) for c in listed] == [
        ("Theirs", False, True),
        ("Mine", True, False),
    ]
    assert listed[0]["my_score"] is not None and listed[1]["my_score"] is None
    assert Client().get("/api/me/challenges").json() == []


def test_my_challenges_query_count_does_not_grow(client, clock, django_assert_num_queries):
    create(client)
    # The session, the player, the ids of mine, the challenges.
    # The session is read from the shared cache (cached_db), not from the database.
    with django_assert_num_queries(3):
        client.get("/api/me/challenges")
    for _ in range(2):
        create(client)
    with django_assert_num_queries(3):
        assert len(client.get("/api/me/challenges").json()) == 3


def test_guessing_codes_is_throttled(client, clock):
    with rates(challenge_lookup="5/minute"):
        codes = [client.get(f"/api/challenges/ZZZZZ{c}").status_code for c in "0123456"]
        refused = client.get("/api/challenges/ZZZZZZ")
    assert codes == [404] * 5 + [429, 429]
    assert refused.json()["code"] == "throttled"


def test_creating_challenges_is_throttled_per_player(client, clock):
    with rates(challenge_create="2/hour", challenge_create_address="100/hour"):
        # The first creates the player and counts for it, as the rest do.
        mine = [post(client, "/api/challenges", {}).status_code for _ in range(4)]
    assert mine == [201, 201, 429, 429]
    assert Challenge.objects.count() == 2


def test_a_new_guest_creates_exactly_20_challenges_an_hour(clock):
    """Issue 39: the first request of a new guest was counted against its address before its
    player existed, and the player then had 20 more. With the site's own limits (20 an hour a
    player, 60 an address), a fresh browser gets 20 from its first request on."""
    clock.move_to(NOON + datetime.timedelta(minutes=10))
    browser = Client()
    browser.get("/challenges/new")  # a browser's first page: its cookies, no player yet
    made = [post(browser, "/api/challenges", {"title": f"Round {n}"}) for n in range(21)]
    assert [r.status_code for r in made] == [201] * 20 + [429]
    # The hour's window started at noon: 50 minutes are left.
    assert (made[-1].json()["code"], made[-1]["Retry-After"]) == ("throttled", "3000")
    assert Challenge.objects.count() == 20
    # Another player behind the same address has a limit of its own.
    other = Client()
    theirs = [post(other, "/api/challenges", {}).status_code for _ in range(21)]
    assert theirs == [201] * 20 + [429]
    assert Challenge.objects.filter(creator__display_name=made[0].json()["creator"]).count() == 20
    # The next hour is a new window.
    clock.move_to(NOON + datetime.timedelta(hours=1))
    assert post(browser, "/api/challenges", {}).status_code == 201


def test_creating_challenges_is_throttled_per_address_whoever_the_player(clock):
    with rates(challenge_create="100/hour", challenge_create_address="3/hour"):
        codes = [post(Client(), "/api/challenges", {}).status_code for _ in range(4)]
    assert codes == [201, 201, 201, 429]
    assert Challenge.objects.count() == 3


@pytest.mark.parametrize(("table", "dice"), [("dix-mille", 5), ("royal", 6), ("smart-box", 6)])
def test_a_challenge_plays_on_its_table(client, clock, table, dice):
    code = create(client, table=table)["code"]
    attempt = act(client, start(client, code), {"action": "roll"}).json()
    thrown = attempt["turns"][0]["throws"][0]["dice"]
    assert thrown == farkle.roll_vector(seed_of(code), 1, 1, dice)
    options = farkle.keep_options(thrown, table) if attempt["dice"] else ()
    expected = [list(o.positions) for o in options]
    assert [o["dice"] for o in attempt["keep_options"]] == expected
    assert client.get(f"/api/challenges/{code}").json()["par"] == round(
        farkle.solve(table).expected_turn() * 10
    )


def test_le_10000_full_hand_options_say_banking_is_not_allowed(client, clock):
    from challenges.codes import ALPHABET

    def full_hand_first(code):
        throw = farkle.roll_vector(seed_of(code), 1, 1, 5)
        return any(len(o.positions) == 5 for o in farkle.keep_options(throw, "dix-mille"))

    codes = (f"K7M{a}{b}{c}" for a in ALPHABET for b in ALPHABET for c in ALPHABET)
    code = next(c for c in codes if full_hand_first(c))
    made = create(client, table="dix-mille")
    Puzzle.objects.filter(code=made["code"]).update(
        code=code, commitment=farkle.commitment(seed_of(code))
    )
    attempt = act(client, start(client, code), {"action": "roll"}).json()
    full = next(o for o in attempt["keep_options"] if len(o["dice"]) == 5)
    partial = [o["can_bank"] for o in attempt["keep_options"] if len(o["dice"]) < 5]
    assert (full["can_bank"], full["dice_left"], set(partial)) == (False, 5, {True})
    refused = act(client, attempt, {"action": "keep", "dice": full["dice"], "then": "bank"})
    assert (refused.status_code, refused.json()["code"]) == (409, "wrong_state")
