"""The API takes its inputs as the schema types them, and refuses anything else (issue 39 items 5
and 6): an action's ``step`` and dice are JSON integers, not "1", 1.0 or true; a number too long
for any field is a plain 400 about the request; a query parameter that is unknown, repeated,
empty or not of its type is a 400 naming it, never ignored. Each refusal is a 400 with a
``detail`` and a ``code``, speaks of the request and not of Python, and stores nothing.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.daily.helpers import act, play_greedy, post, start_daily
from tests.groups.helpers import make_group
from tests.helpers import stored

pytestmark = pytest.mark.django_db

# Words that would show a reader the server's language rather than their request's mistake.
PYTHON_WORDS = ("sys.", "set_int_max_str_digits", "python", "traceback", "int()", "valueerror")


def assert_refused(response, code: str, *, mentions: str = "") -> dict:
    assert response.status_code == 400, (response.status_code, response.content[:300])
    body = response.json()
    assert body["code"] == code, body
    assert isinstance(body["detail"], str) and body["detail"], body
    assert not any(word in body["detail"].lower() for word in PYTHON_WORDS), body
    assert mentions in body["detail"], body
    return body


def post_raw(client: Client, url: str, text: str, content_type: str = "application/json"):
    return client.generic("POST", url, text.encode(), content_type=content_type)


@pytest.fixture
def playing(client, clock) -> dict:
    """A player's official attempt on today's daily, before its first roll."""
    return start_daily(client, "today")


# --- The action endpoint: JSON integers only ---------------------------------------------------


@pytest.mark.parametrize("step", ["0", 0.0, True, False, [0], {"n": 0}, "zero", None])
def test_a_step_that_is_not_a_json_integer_is_refused_and_nothing_is_stored(client, playing, step):
    before = stored(playing["id"])
    response = post(
        client, f"/api/attempts/{playing['id']}/actions", {"step": step, "action": "roll"}
    )
    assert_refused(response, "invalid", mentions="step")
    assert stored(playing["id"]) == before
    # The same roll with the step as a JSON integer is taken: only its type was refused.
    assert act(client, playing, {"action": "roll"}).status_code == 200


def test_a_step_written_as_1_0_in_the_body_is_refused(client, playing):
    # As the body's text: 0.0 written by a client, not a Python float turned into "0.0".
    before = stored(playing["id"])
    response = post_raw(
        client, f"/api/attempts/{playing['id']}/actions", '{"step": 0.0, "action": "roll"}'
    )
    assert_refused(response, "invalid", mentions="step")
    assert stored(playing["id"]) == before


def _rolled(client, attempt: dict) -> dict:
    """The attempt after its first roll, with a keep to choose (played on until one comes)."""
    attempt = act(client, attempt, {"action": "roll"}).json()
    while attempt["state"] != "awaiting_keep":
        attempt = act(client, attempt, {"action": "roll"}).json()
    return attempt


@pytest.mark.parametrize(
    "spell", [str, float, lambda n: bool(n) if n in (0, 1) else str(n), lambda n: [n]]
)
def test_dice_positions_that_are_not_json_integers_are_refused_and_nothing_is_stored(
    client, playing, spell
):
    attempt = _rolled(client, playing)
    keep = attempt["keep_options"][0]["dice"]
    before = stored(attempt["id"])
    dice = [spell(position) for position in keep]
    response = act(client, attempt, {"action": "keep", "dice": dice, "then": "roll"})
    assert_refused(response, "invalid_dice", mentions="dice")
    assert stored(attempt["id"]) == before
    # The same keep with its positions as JSON integers is taken.
    taken = act(client, attempt, {"action": "keep", "dice": keep, "then": "roll"})
    assert taken.status_code == 200, taken.json()


def test_dice_written_as_0_0_in_the_body_are_refused(client, playing):
    attempt = _rolled(client, playing)
    keep = attempt["keep_options"][0]["dice"]
    before = stored(attempt["id"])
    dice = ", ".join(f"{p}.0" for p in keep)
    text = f'{{"step": {attempt["step"]}, "action": "keep", "dice": [{dice}], "then": "bank"}}'
    response = post_raw(client, f"/api/attempts/{attempt['id']}/actions", text)
    assert_refused(response, "invalid_dice", mentions="dice")
    assert stored(attempt["id"]) == before


@pytest.mark.parametrize("digits", [21, 4_000, 5_000, 10_000])
def test_a_number_too_long_for_any_field_is_a_plain_refusal(client, playing, digits):
    # 5,000 digits once answered Python's own advice on sys.set_int_max_str_digits.
    before = stored(playing["id"])
    text = f'{{"step": {"9" * digits}, "action": "roll"}}'
    response = post_raw(client, f"/api/attempts/{playing['id']}/actions", text)
    body = assert_refused(response, "parse_error", mentions="digits")
    assert "20" in body["detail"]
    assert stored(playing["id"]) == before


def test_a_negative_number_too_long_is_refused_alike(client, playing):
    text = f'{{"step": -{"1" * 5000}, "action": "roll"}}'
    response = post_raw(client, f"/api/attempts/{playing['id']}/actions", text)
    assert_refused(response, "parse_error", mentions="digits")


def test_a_step_of_twenty_digits_reaches_the_field_and_its_bound(client, playing):
    # Long enough to be refused by the field's maximum, not too long to read.
    text = f'{{"step": {"9" * 20}, "action": "roll"}}'
    response = post_raw(client, f"/api/attempts/{playing['id']}/actions", text)
    assert_refused(response, "invalid", mentions="step")


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(client, playing, constant):
    text = f'{{"step": {constant}, "action": "roll"}}'
    response = post_raw(client, f"/api/attempts/{playing['id']}/actions", text)
    assert_refused(response, "parse_error", mentions=constant)


def test_a_body_not_in_its_charset_is_refused_plainly(client, playing):
    url = f"/api/attempts/{playing['id']}/actions"
    before = stored(playing["id"])
    latin = client.generic(
        "POST", url, b'{"step": 0, "action": "\xff"}', content_type="application/json"
    )
    assert_refused(latin, "parse_error", mentions="utf-8")
    assert stored(playing["id"]) == before


# --- Query strings: typed, and never ignored ---------------------------------------------------

LEADERBOARD = "/api/daily/today/leaderboard"


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("accounts=1", "accounts"),
        ("accounts=yes", "accounts"),
        ("accounts=True", "accounts"),
        ("accounts=", "accounts"),
        ("page=", "page"),
        ("page=1&page=2", "page"),
        ("page=1.0", "page"),
        ("page=%201", "page"),
        ("page=1_0", "page"),
        ("page=0", "page"),
        ("page=two", "page"),
        ("pages=2", "pages"),
        ("accounts=true&sort=score", "sort"),
    ],
)
def test_a_bad_leaderboard_query_is_refused_naming_its_parameter(client, clock, query, names):
    response = client.get(f"{LEADERBOARD}?{query}")
    body = assert_refused(response, "invalid", mentions=names)
    assert names in body["errors"]


def test_the_leaderboard_takes_true_false_and_page_numbers(client, clock):
    played = play_greedy(client, start_daily(client, "today"))
    assert played["state"] == "finished"
    for query, accounts in (("accounts=true", True), ("accounts=false&page=1", False), ("", False)):
        response = client.get(f"{LEADERBOARD}?{query}")
        assert response.status_code == 200, (query, response.json())
        assert response.json()["accounts"] is accounts
    assert client.get(f"{LEADERBOARD}?page=2").json()["page"] == 2


@pytest.mark.parametrize(
    "query", ["attempt=", "attempt=1.0", "attempt=1&attempt=2", "attempt=%2B1", "attempt=x", "at=1"]
)
def test_a_bad_verification_query_is_refused(client, clock, query):
    attempt = start_daily(client, "today")
    day = client.get("/api/daily/today").json()["date"]
    response = client.get(f"/api/verify/daily/{day}?{query.replace('1', str(attempt['id']))}")
    assert_refused(response, "invalid", mentions=query.split("=")[0])


@pytest.mark.parametrize(
    ("endpoint", "query", "code"),
    [
        # A malformed day or month has the code of a date that is none, whatever its fault.
        ("table", "day=", "invalid_date"),
        ("table", "day=2026-11-29&day=2026-11-28", "invalid_date"),
        ("table", "day=29-11-2026", "invalid_date"),
        ("table", "day=2026-11-29T00:00", "invalid_date"),
        ("table", "day=2026-13-45", "invalid_date"),
        ("table", "when=2026-11-29", "invalid"),
        ("season", "month=", "invalid_date"),
        ("season", "month=2026-1", "invalid_date"),
        ("season", "month=2026-11&month=2026-10", "invalid_date"),
        ("season", "month=2026-11&day=2026-11-29", "invalid"),
    ],
)
def test_a_bad_group_query_is_refused(client, clock, endpoint, query, code):
    group = make_group(client)
    response = client.get(f"/api/groups/{group['code']}/{endpoint}?{query}")
    assert_refused(response, code)


def test_a_group_query_as_written_is_taken(client, clock):
    group = make_group(client)
    day = client.get("/api/daily/today").json()["date"]
    table = client.get(f"/api/groups/{group['code']}/table?day={day}")
    assert table.status_code == 200, table.json()
    season = client.get(f"/api/groups/{group['code']}/season?month={day[:7]}")
    assert (season.status_code, season.json()["month"]) == (200, day[:7])


# --- The schema: codes, days and months with their forms -----------------------------------------


def _parameters(document: dict, path: str, method: str = "get") -> dict:
    return {p["name"]: p["schema"] for p in document["paths"][path][method]["parameters"]}


def test_the_schema_gives_codes_days_months_and_query_parameters_their_forms(client, clock):
    document = client.get("/api/schema/?format=json").json()
    challenge = post(client, "/api/challenges", {"title": "Strict", "table": "popular", "days": 1})
    group = make_group(client)
    day = client.get("/api/daily/today").json()["date"]

    challenge_code = _parameters(document, "/api/challenges/{code}")["code"]
    group_code = _parameters(document, "/api/groups/{code}")["code"]
    # Real codes fit their own kind's pattern and not the other's (six and seven characters).
    assert re.fullmatch(challenge_code["pattern"], challenge.json()["code"])
    assert re.fullmatch(group_code["pattern"], group["code"])
    assert not re.fullmatch(challenge_code["pattern"], group["code"])
    assert not re.fullmatch(group_code["pattern"], challenge.json()["code"])
    assert not re.fullmatch(challenge_code["pattern"], "K7M2QU")  # no U in Crockford's base 32

    for path in ("/api/daily/{day}", "/api/verify/daily/{day}"):
        pattern = _parameters(document, path)["day"]["pattern"]
        assert re.fullmatch(pattern, day) and not re.fullmatch(pattern, "today"), path
    for path in ("/api/daily/{day}/leaderboard",):
        pattern = _parameters(document, path)["day"]["pattern"]
        assert re.fullmatch(pattern, day) and re.fullmatch(pattern, "today"), path
    assert not re.fullmatch(pattern, "29/11/2026")

    table = _parameters(document, "/api/groups/{code}/table")["day"]
    season = _parameters(document, "/api/groups/{code}/season")["month"]
    assert re.fullmatch(table["pattern"], day) and not re.fullmatch(table["pattern"], day[:7])
    assert re.fullmatch(season["pattern"], day[:7]) and not re.fullmatch(season["pattern"], day)

    board = _parameters(document, "/api/daily/{day}/leaderboard")
    assert (board["page"]["type"], board["accounts"]["type"]) == ("integer", "boolean")
    verify = _parameters(document, "/api/verify/daily/{day}")
    assert verify["attempt"]["type"] == "integer"
