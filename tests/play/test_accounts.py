import datetime

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from play.models import Attempt, Player
from tests.daily.helpers import play_greedy, post, start_daily

UTC = datetime.UTC
DAY = "2026-11-29"
PASSWORD = "correct horse battery staple"

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


@pytest.fixture(autouse=True)
def _fast_hashing(settings):
    # The real hasher spends a few hundred milliseconds per password, on purpose.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def signup(client: Client, username: str = "alice", password: str = PASSWORD):
    return post(client, "/api/auth/signup", {"username": username, "password": password})


def login(client: Client, username: str = "alice", password: str = PASSWORD):
    return post(client, "/api/auth/login", {"username": username, "password": password})


def me(client: Client) -> dict:
    response = client.get("/api/me")
    assert response.status_code == 200, response.json()
    return response.json()


def test_signup_adopts_the_guest_player_and_its_history(client):
    attempt = play_greedy(client, start_daily(client, DAY))
    guest = me(client)

    response = signup(client)

    assert response.status_code == 201
    assert response.json() == {**guest, "account": "alice"}
    assert response.json()["history"] == [
        {
            "date": DAY,
            "attempt": attempt["id"],
            "state": "finished",
            "score": attempt["score"],
            "finished_at": "2026-11-29T12:00:00Z",
            "rank": 1,  # today's live rank: the only player
            "percentile": None,
        }
    ]
    assert me(client) == response.json()
    player = Player.objects.get()
    assert (player.display_name, player.user.username) == (guest["name"], "alice")
    assert client.session[settings.PLAYER_SESSION_KEY] == player.pk


def test_signup_without_a_player_creates_one(client):
    response = signup(client)

    player = Player.objects.get()
    assert (response.status_code, response.json()) == (
        201,
        {
            "name": player.display_name,
            "account": "alice",
            "stats": {
                "games": 0,
                "finished": 0,
                "best": None,
                "average": None,
                "current_streak": 0,
                "best_streak": 0,
                "last_played": None,
            },
            "history": [],
            # A new player has no rated day (docs/analysis.md, the skill rating).
            "rating": {"current": None, "days": 0, "history": []},
        },
    )
    assert player.user.username == "alice"


def test_signup_while_logged_in_gets_a_fresh_player(client):
    alice = signup(client).json()

    bob = signup(client, "bob").json()

    players = {p.user.username: p.display_name for p in Player.objects.select_related("user")}
    assert players == {"alice": alice["name"], "bob": bob["name"]}
    assert alice["name"] != bob["name"]
    assert me(client)["account"] == "bob"


def test_signup_username_held_in_any_case_is_refused(client):
    signup(client)
    other = Client()

    response = signup(other, "ALICE")

    assert (response.status_code, response.json()) == (
        409,
        {
            "detail": "The username “ALICE” is taken; please choose another.",
            "code": "username_taken",
        },
    )
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["alice"]
    assert "_auth_user_id" not in other.session


@pytest.mark.parametrize(
    ("username", "detail"),
    [
        (
            "alice smith",
            "Enter a valid username. This value may contain only letters, numbers, and "
            "@/./+/-/_ characters.",
        ),
        ("a" * 151, "username: Ensure this field has no more than 150 characters."),
        ("   ", "username: This field may not be blank."),
    ],
)
def test_signup_invalid_username_is_refused(client, username, detail):
    response = signup(client, username)

    body = response.json()
    assert (response.status_code, body["code"], body["detail"]) == (
        400,
        "invalid_username",
        detail,
    )
    assert (get_user_model().objects.count(), Player.objects.count()) == (0, 0)


@pytest.mark.parametrize(
    ("password", "detail"),
    [
        ("password", "This password is too common."),
        ("Zq9!x", "This password is too short. It must contain at least 8 characters."),
        ("alice2026", "The password is too similar to the username."),
    ],
)
def test_signup_weak_password_is_refused_by_django_validators(client, settings, password, detail):
    settings.AUTH_PASSWORD_VALIDATORS = [
        {"NAME": f"django.contrib.auth.password_validation.{name}"}
        for name in (
            "UserAttributeSimilarityValidator",
            "MinimumLengthValidator",
            "CommonPasswordValidator",
            "NumericPasswordValidator",
        )
    ]

    response = signup(client, password=password)

    assert (response.status_code, response.json()) == (
        400,
        {"detail": detail, "code": "invalid_password"},
    )
    assert (get_user_model().objects.count(), Player.objects.count()) == (0, 0)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ([], "invalid"),
        ('"alice"', "invalid"),
        ({}, "invalid_username"),
        ({"username": "alice"}, "invalid_password"),
        ({"username": "alice", "password": 12345678}, "invalid_password"),
        ({"username": ["alice"], "password": PASSWORD}, "invalid_username"),
        ({"username": None, "password": PASSWORD}, "invalid_username"),
        ({"username": "alice", "password": ""}, "invalid_password"),
        ({"username": "alice", "password": "x" * 1025}, "invalid_password"),
    ],
)
def test_signup_malformed_body_is_refused_and_stores_nothing(client, body, code):
    response = post(client, "/api/auth/signup", body)

    assert (response.status_code, response.json()["code"]) == (400, code)
    assert (get_user_model().objects.count(), Player.objects.count()) == (0, 0)


def test_signup_invalid_json_is_refused(client):
    response = client.post("/api/auth/signup", "{", content_type="application/json")

    assert (response.status_code, response.json()["code"]) == (400, "parse_error")
    assert get_user_model().objects.count() == 0


def test_login_on_another_browser_uses_the_account_player(client):
    attempt = play_greedy(client, start_daily(client, DAY))
    first = signup(client).json()
    other = Client()
    start_daily(other, DAY)  # A guest game on the second browser, before logging in.

    response = login(other)

    assert (response.status_code, response.json()) == (200, first)
    mine = other.get(f"/api/daily/{DAY}").json()["my_attempts"]
    assert [(a["id"], a["official"]) for a in mine] == [(attempt["id"], True)]
    assert other.get(f"/api/attempts/{attempt['id']}").json()["score"] == attempt["score"]


def test_login_username_in_another_case(client):
    signup(client)

    response = login(Client(), "Alice")

    assert (response.status_code, response.json()["account"]) == (200, "alice")


@pytest.mark.parametrize(
    ("username", "password"), [("alice", "wrong password"), ("nobody", PASSWORD)]
)
def test_login_wrong_credentials_look_alike(client, username, password):
    signup(Client())

    response = login(client, username, password)

    assert (response.status_code, response.json()) == (
        400,
        {"detail": "Wrong username or password.", "code": "invalid_credentials"},
    )
    assert "_auth_user_id" not in client.session


def test_login_inactive_account_is_refused_like_a_wrong_password(client):
    signup(Client())
    get_user_model().objects.update(is_active=False)

    response = login(client)

    assert (response.status_code, response.json()["code"]) == (400, "invalid_credentials")


def test_logout_forgets_the_account_and_its_player(client):
    signup(client)

    response = post(client, "/api/auth/logout")

    assert (response.status_code, response.content) == (204, b"")
    assert client.get("/api/me").status_code == 404
    assert dict(client.session) == {}
    # A new game is a new guest; the account keeps its player.
    start_daily(client, DAY)
    assert Player.objects.filter(user__isnull=True).count() == 1
    assert Player.objects.filter(user__username="alice").count() == 1


def test_logout_of_a_guest_keeps_its_player(client):
    attempt = start_daily(client, DAY)
    guest = me(client)

    response = post(client, "/api/auth/logout")

    assert response.status_code == 204
    assert me(client) == guest
    assert Attempt.objects.get().pk == attempt["id"]


def test_signup_is_throttled_per_address(client, clock):
    statuses = [signup(Client(), f"user{n}").status_code for n in range(20)]

    response = signup(client, "late")

    assert statuses == [201] * 20
    assert (response.status_code, response.json()) == (
        429,
        {"detail": "Request was throttled. Expected available in 60 seconds.", "code": "throttled"},
    )
    assert not get_user_model().objects.filter(username="late").exists()
    clock.shift(datetime.timedelta(seconds=61))
    assert signup(client, "late").status_code == 201


def test_login_guessing_is_throttled_with_signups(client):
    signup(Client())
    statuses = [login(client, f"user{n}", f"guess {n}").status_code for n in range(19)]

    response = login(client)

    assert statuses == [400] * 19
    assert (response.status_code, response.json()["code"]) == (429, "throttled")


def test_the_database_refuses_usernames_differing_only_in_case():
    from django.db import IntegrityError, transaction

    User = get_user_model()
    User.objects.create_user(username="Alice", password=PASSWORD)
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="aLiCe", password=PASSWORD)
    assert list(User.objects.values_list("username", flat=True)) == ["Alice"]


@pytest.mark.django_db(transaction=True)
def test_racing_signups_differing_in_case_leave_one_account(client):
    """A real race on Postgres: another signup's insert of "Alice" is in flight (uncommitted, so
    the application's own check cannot see it) while "alice" signs up."""
    import threading

    import psycopg

    from tests.processes import shared_database_url

    other = psycopg.connect(shared_database_url())
    other.execute(
        "INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email,"
        " is_staff, is_active, date_joined) VALUES ('!', false, 'Alice', '', '', '', false,"
        " true, now())"
    )
    answers = []

    def sign_up() -> None:
        from django.db import connection

        try:
            answers.append(signup(Client(), "alice"))
        finally:
            connection.close()

    racer = threading.Thread(target=sign_up)
    racer.start()
    try:
        # Wait until the signup is blocked behind the in-flight insert, or has finished.
        watcher = psycopg.connect(shared_database_url(), autocommit=True)
        while racer.is_alive():
            waiting = watcher.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                " AND datname = current_database()"
            ).fetchone()[0]
            if waiting:
                break
            racer.join(timeout=0.05)
        watcher.close()
    finally:
        other.commit()
        other.close()
        racer.join(timeout=60)
    assert [(a.status_code, a.json()["code"]) for a in answers] == [(409, "username_taken")]
    names = get_user_model().objects.values_list("username", flat=True)
    assert [name for name in names if name.lower() == "alice"] == ["Alice"]


def _login_from(address: str, password: str, username: str = "alice"):
    """A try from a fresh browser (no cookie) at ``address``."""
    return login(Client(REMOTE_ADDR=address), username, password)


def _back_off(address: str, username: str = "alice") -> None:
    """Someone at ``address`` spends the free failures on the account: its back-off starts."""
    failures = [_login_from(address, "guess", username).status_code for _ in range(5)]
    assert failures == [400] * 5
    refused = _login_from(address, "guess", username)
    assert (refused.status_code, refused.json()["code"]) == (429, "throttled")


def test_the_owner_logs_in_at_once_while_a_guessers_address_is_backed_off(clock):
    signup(Client(REMOTE_ADDR="10.0.0.1"))
    # Issue 39 item 4: five wrong passwords from one browser, then one guess at each expiry,
    # for as long as the waits grow to their maximum...
    _back_off("10.6.6.6")
    for _ in range(12):
        clock.shift(datetime.timedelta(seconds=settings.LOGIN_BACKOFF_MAX))
        assert _login_from("10.6.6.6", "guess").status_code == 400
    # ...and the owner, in another browser at another address, gets in at once.
    owner = Client(REMOTE_ADDR="10.0.0.2")
    answer = login(owner)
    assert (answer.status_code, answer.json()["account"]) == (200, "alice")
    assert me(owner)["account"] == "alice"
    # The guesser's address is still backed off, for any browser there, whatever it sends.
    assert _login_from("10.6.6.6", PASSWORD).status_code == 429
    # The owner's success forgot nothing of it.
    assert _login_from("10.6.6.6", "guess").status_code == 429


def test_a_brute_force_from_one_address_is_still_slowed(clock):
    signup(Client(REMOTE_ADDR="10.0.0.1"))
    # Five free failures, each from a fresh browser at the same address.
    assert [_login_from("10.6.6.6", "guess").status_code for _ in range(5)] == [400] * 5
    waits = []
    for n in range(4):
        refused = _login_from("10.6.6.6", PASSWORD)
        assert (refused.status_code, refused.json()["code"]) == (429, "throttled")
        waits.append(int(refused["Retry-After"]))
        # Tries refused during the wait do not lengthen it.
        assert _login_from("10.6.6.6", "guess").status_code == 429
        clock.shift(datetime.timedelta(seconds=waits[-1]))
        if n < 3:
            assert _login_from("10.6.6.6", "guess").status_code == 400
    assert waits == [1, 2, 4, 8]
    assert _login_from("10.6.6.6", PASSWORD).status_code == 200
    # The right password clears the address's failures: the next wrong one is free again.
    assert _login_from("10.6.6.6", "guess").status_code == 400
    assert _login_from("10.6.6.6", PASSWORD).status_code == 200


def test_guesses_across_accounts_from_one_address_meet_the_address_limit(clock):
    signup(Client(REMOTE_ADDR="10.0.0.1"))
    # One guess at each of many accounts: no account's back-off starts, the address's limit of
    # sign-ups and logins (THROTTLE_ACCOUNT, 20 a minute) stops the twenty-first.
    guesses = [_login_from("10.6.6.6", "guess", f"someone{n}").status_code for n in range(21)]
    assert guesses == [400] * 20 + [429]
    assert _login_from("10.6.6.6", PASSWORD).status_code == 429
    assert _login_from("10.0.0.2", PASSWORD).status_code == 200


def test_login_back_off_never_exceeds_its_maximum(clock, settings):
    settings.LOGIN_BACKOFF_MAX = 5
    signup(Client(REMOTE_ADDR="10.0.0.1"))
    waits = []
    for n in range(10):
        assert _login_from("10.6.6.6", "guess").status_code == 400
        if n >= 4:
            locked = _login_from("10.6.6.6", "guess")
            assert locked.status_code == 429
            waits.append(int(locked["Retry-After"]))
            clock.shift(datetime.timedelta(seconds=waits[-1]))
    assert waits == [1, 2, 4, 5, 5, 5]
    assert _login_from("10.6.6.6", PASSWORD).status_code == 200


def test_a_browser_that_logged_in_before_gets_in_from_the_guessers_address(clock):
    signup(Client(REMOTE_ADDR="10.0.0.1"))
    # The owner's phone logged in once, on the network the guesser shares (a school, a mobile
    # carrier's NAT).
    phone = Client(REMOTE_ADDR="10.6.6.6")
    assert login(phone).status_code == 200
    assert post(phone, "/api/auth/logout").status_code == 204
    _back_off("10.6.6.6")
    # The phone is trusted for the account: in at once, at the same address.
    assert login(phone).status_code == 200
    # Its trust is its own: a fresh browser there is still refused...
    assert _login_from("10.6.6.6", PASSWORD).status_code == 429
    # ...and so is one with the phone's cookie altered, or one trusted for another account.
    forged = Client(REMOTE_ADDR="10.6.6.6")
    cookie = phone.cookies[settings.LOGIN_DEVICE_COOKIE_NAME].value
    forged.cookies[settings.LOGIN_DEVICE_COOKIE_NAME] = cookie.replace(":", ":0", 1)
    assert login(forged).status_code == 429
    mallory = Client(REMOTE_ADDR="10.6.6.6")
    assert signup(mallory, "mallory").status_code == 201
    assert login(mallory, "alice", PASSWORD).status_code == 429


def test_a_trusted_browser_that_fails_backs_off_by_itself(clock):
    owner = Client(REMOTE_ADDR="10.0.0.1")
    signup(owner)
    # The browser that made the account is trusted for it; its own failures slow it alone.
    assert [login(owner, password="typo").status_code for _ in range(5)] == [400] * 5
    assert login(owner).status_code == 429
    assert _login_from("10.0.0.1", PASSWORD).status_code == 200


def test_the_trusted_browser_cookie_is_signed_secure_and_sent_to_the_account_endpoints_only(
    clock,
):
    client = Client(REMOTE_ADDR="10.0.0.1")
    signup(client)
    cookie = client.cookies[settings.LOGIN_DEVICE_COOKIE_NAME]
    assert (cookie["path"], cookie["httponly"], cookie["samesite"], cookie["secure"]) == (
        "/api/auth/",
        True,
        "Lax",
        True,
    )
    assert cookie["max-age"] == 365 * 24 * 60 * 60
    # Nothing in it reads as the account's name.
    assert "alice" not in cookie.value.lower()


def test_failed_logins_of_another_account_do_not_delay_this_one(clock):
    signup(Client())
    signup(Client(), "bob")
    for n in range(8):
        _login_from(f"10.0.0.{n}", "guess", username="bob")
    assert _login_from("10.0.1.1", PASSWORD).status_code == 200


def test_login_with_any_characters_in_the_username_is_refused_cleanly(clock):
    for username in ["\U0001d394 41⁄2 ué_~\x12", "a:b c", "é" * 150]:
        response = _login_from("10.0.0.1", "guess", username=username)
        assert (response.status_code, response.json()["code"]) == (400, "invalid_credentials")
