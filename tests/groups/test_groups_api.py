import datetime

import pytest
from django.test import Client

from groups import services
from groups.models import Group, Membership
from play.models import Attempt, Player, ScoreCount
from play.selectors.leaderboards import leaderboard_page
from tests.daily.helpers import play_greedy, post, start_daily
from tests.moments import NOON

from .helpers import daily, game, join, make_group, player

pytestmark = pytest.mark.django_db


def members(client, code):
    response = client.get(f"/api/groups/{code}/members")
    assert response.status_code == 200, response.json()
    return response.json()


def my_id(client, code):
    return next(m["id"] for m in members(client, code) if m["me"])


def test_create_gives_a_code_and_link_and_makes_me_the_first_member(client, clock):
    made = make_group(client, "  Lunch   crew ")
    code = made["code"]
    assert made == {
        "code": code,
        "display_code": f"{code[:3]}-{code[3:]}",
        "url": f"http://testserver/g/{code}",
        "name": "Lunch crew",
        "created_at": "2026-11-29T12:00:00Z",
        "members": 1,
        "member": True,
        "creator": True,
        "removed": False,
    }
    assert len(code) == 7
    assert [m["creator"] for m in members(client, code)] == [True]


@pytest.mark.parametrize("name", ["ab", "x" * 25, "12345 crew", 42])
def test_a_bad_name_is_refused_and_stores_nothing(client, clock, name):
    response = post(client, "/api/groups", {"name": name})
    assert response.status_code == 400
    assert response.json()["code"] in {"invalid_name", "invalid"}
    assert not Group.objects.exists()


def test_joining_by_a_code_typed_loosely_and_twice_makes_one_membership(client, clock):
    code = make_group(client)["code"]
    friend = Client()
    typed = f"{code[:3].lower()} - {code[3:].lower()}"
    joined = join(friend, typed)
    assert joined["member"] is True and joined["creator"] is False and joined["members"] == 2
    join(friend, code)
    assert Membership.objects.filter(group__code=code).count() == 2


def test_a_stranger_sees_the_name_and_size_but_never_members_or_scores(client, clock):
    code = make_group(client)["code"]
    stranger = Client()
    looked = stranger.get(f"/api/groups/{code}").json()
    assert (looked["name"], looked["members"], looked["member"]) == ("Lunch crew", 1, False)
    for path in ("members", "table", "season"):
        response = stranger.get(f"/api/groups/{code}/{path}")
        assert response.status_code == 403, path
        assert response.json()["code"] == "not_a_member"
    # A player of the daily who is not in the group is as much a stranger.
    start_daily(stranger, "today")
    assert stranger.get(f"/api/groups/{code}/table").json()["code"] == "not_a_member"


@pytest.mark.parametrize(
    ("code", "status", "error"),
    [
        ("K7M-2QX", 400, "invalid_code"),
        ("G7K4M2!", 400, "invalid_code"),
        ("0000000", 404, "not_found"),
    ],
)
def test_malformed_and_unknown_codes(client, code, status, error):
    response = client.get(f"/api/groups/{code}")
    assert (response.status_code, response.json()["code"]) == (status, error)
    response = post(client, f"/api/groups/{code}/members")
    assert (response.status_code, response.json()["code"]) == (status, error)


def test_lookups_are_throttled_like_challenge_lookups(client, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "challenge_lookup": "3/minute",
        },
    }
    answers = [client.get("/api/groups/0000000").status_code for _ in range(4)]
    assert answers == [404, 404, 404, 429]
    # The page shares the budget.
    assert client.get("/g/0000000").status_code == 429


def test_a_player_is_in_at_most_20_groups(client, clock):
    owner = player("Owner")
    code = services.group_create(creator=owner, name="The last one", now=NOON).code
    joiner = Client()
    join(joiner, make_group(Client(), "First")["code"])
    me = Player.objects.get(
        memberships__group__name="First",
        memberships__group__creator__isnull=False,
        groups_created__isnull=True,
    )
    for n in range(19):
        services.group_create(
            creator=player(f"Maker {chr(65 + n)}"), name=f"Group {chr(65 + n)}", now=NOON
        )
        services.group_join(
            group=Group.objects.get(name=f"Group {chr(65 + n)}"), player=me, now=NOON
        )
    assert Membership.objects.filter(player=me).count() == 20
    response = post(joiner, f"/api/groups/{code}/members")
    assert (response.status_code, response.json()["code"]) == (409, "too_many_groups")
    assert Membership.objects.filter(player=me).count() == 20
    created = post(joiner, "/api/groups", {"name": "One more"})
    assert (created.status_code, created.json()["code"]) == (409, "too_many_groups")
    assert not Group.objects.filter(name="One more").exists()


def test_a_group_holds_at_most_200_members(client, clock):
    code = make_group(client)["code"]
    group = Group.objects.get(code=code)
    now = datetime.datetime(2026, 11, 29, tzinfo=datetime.UTC)
    crowd = Player.objects.bulk_create(
        Player(display_name=f"crowd {i:03d}", created_at=now) for i in range(199)
    )
    Membership.objects.bulk_create(Membership(group=group, player=p, joined_at=now) for p in crowd)
    response = post(Client(), f"/api/groups/{code}/members")
    assert (response.status_code, response.json()["code"]) == (409, "group_full")
    assert Membership.objects.filter(group=group).count() == 200


def test_leave_remove_rename_close(client, clock):
    code = make_group(client)["code"]
    friend, other = Client(), Client()
    join(friend, code)
    join(other, code)
    friend_id = my_id(friend, code)
    # Only the creator manages the group.
    for response in (
        client.generic("PATCH", f"/api/groups/{code}", '{"name": "Mine now"}', "application/json"),
        friend.patch(f"/api/groups/{code}", {"name": "Mine now"}, content_type="application/json"),
        friend.delete(f"/api/groups/{code}/members/{my_id(other, code)}"),
        friend.delete(f"/api/groups/{code}"),
        client.delete(f"/api/groups/{code}/members/me"),
    ):
        if response.status_code == 200:
            continue  # the creator's own rename
        assert (response.status_code, response.json()["code"]) == (403, "forbidden")
    assert Group.objects.get(code=code).name == "Mine now"
    assert Membership.objects.filter(group__code=code).count() == 3
    assert friend.delete(f"/api/groups/{code}/members/me").status_code == 204
    assert friend.get(f"/api/groups/{code}/table").json()["code"] == "not_a_member"
    join(friend, code)
    friend_id = my_id(friend, code)
    assert client.delete(f"/api/groups/{code}/members/{friend_id}").status_code == 204
    assert [m["me"] for m in members(client, code)] == [True, False]
    assert client.delete(f"/api/groups/{code}").status_code == 204
    assert not Group.objects.filter(code=code).exists()
    assert other.get(f"/api/groups/{code}").status_code == 404


def test_the_day_table_shows_scores_only_once_my_own_game_is_finished(client, clock):
    code = make_group(client)["code"]
    friend, outsider = Client(), Client()
    join(friend, code)
    ann = play_greedy(client, start_daily(client, "today"))
    start_daily(outsider, "today")  # not in the group: never on its table

    mine = client.get(f"/api/groups/{code}/table").json()
    theirs = friend.get(f"/api/groups/{code}/table").json()
    assert mine["revealed"] is True and theirs["revealed"] is False
    assert (mine["finished"], mine["members"]) == (1, 2)
    assert [(r["state"], r["score"], r["rank"]) for r in mine["rows"]] == [
        ("finished", ann["score"], 1),
        ("not_started", None, None),
    ]
    assert [(r["state"], r["score"]) for r in theirs["rows"]] == [
        ("finished", None),
        ("not_started", None),
    ]

    started = start_daily(friend, "today")
    assert [r["state"] for r in friend.get(f"/api/groups/{code}/table").json()["rows"]] == [
        "finished",
        "playing",
    ]
    bob = play_greedy(friend, started)
    theirs = friend.get(f"/api/groups/{code}/table").json()
    scores = sorted([ann["score"], bob["score"]], reverse=True)
    assert [r["score"] for r in theirs["rows"]] == scores
    assert [r["rank"] for r in theirs["rows"]] == ([1, 1] if scores[0] == scores[1] else [1, 2])
    # A practice game after the official one changes nothing.
    play_greedy(friend, start_daily(friend, "today"))
    assert friend.get(f"/api/groups/{code}/table").json() == theirs


def test_ties_share_a_rank_and_the_earlier_finish_is_listed_first(client, clock):
    code = make_group(client)["code"]
    group = Group.objects.get(code=code)
    today = daily(NOON.date(), NOON)
    people = {name: player(name) for name in ("Ann", "Bob", "Cyd", "Dia")}
    for p in people.values():
        services.group_join(group=group, player=p, now=NOON)
    game(people["Ann"], today, 900, minute=5)
    game(people["Bob"], today, 1200, minute=9)
    game(people["Cyd"], today, 900, minute=1)
    game(people["Dia"], today, 400)
    # The creator has not played, but the day is over for the day after.
    later = NOON + datetime.timedelta(days=1)
    clock.move_to(later)
    rows = client.get(f"/api/groups/{code}/table?day=2026-11-29").json()["rows"]
    assert [(r["name"], r["rank"]) for r in rows[:4]] == [
        ("Bob", 1),
        ("Cyd", 2),
        ("Ann", 2),
        ("Dia", 4),
    ]


def test_ties_are_listed_in_the_leaderboards_order(client, clock):
    # Two finishes of one score whose writes overlapped: the later finish was counted first
    # (docs/play.md). The group lists them as the day's leaderboard does.
    code = make_group(client)["code"]
    group = Group.objects.get(code=code)
    today = daily(NOON.date(), NOON)
    people = {name: player(name) for name in ("Ann", "Cyd")}
    for p in people.values():
        services.group_join(group=group, player=p, now=NOON)
    ann = game(people["Ann"], today, 900, minute=5)
    cyd = game(people["Cyd"], today, 900, minute=1)
    Attempt.objects.filter(pk=ann.pk).update(score_position=1)
    Attempt.objects.filter(pk=cyd.pk).update(score_position=2)
    ScoreCount.objects.create(puzzle=today, score=900, count=2)
    later = NOON + datetime.timedelta(days=1)
    clock.move_to(later)

    rows = client.get(f"/api/groups/{code}/table?day=2026-11-29").json()["rows"]
    board = leaderboard_page(puzzle=today, page=1, now=later)

    assert [r["name"] for r in rows[:2]] == [e.name for e in board.entries] == ["Ann", "Cyd"]


@pytest.mark.parametrize("query", ["day=2026-13-01", "day=yesterday", "day=2026-1-1"])
def test_a_bad_day_is_a_400(client, clock, query):
    code = make_group(client)["code"]
    response = client.get(f"/api/groups/{code}/table?{query}")
    assert (response.status_code, response.json()["code"]) == (400, "invalid_date")


def test_my_groups_show_todays_standing_only_after_my_game(client, clock):
    code = make_group(client)["code"]
    friend = Client()
    join(friend, code)
    bob = play_greedy(friend, start_daily(friend, "today"))
    before = client.get("/api/groups").json()
    assert [(g["code"], g["finished"], g["my_rank"], g["leader"]) for g in before] == [
        (code, 1, None, None)
    ]
    ann = play_greedy(client, start_daily(client, "today"))
    [after] = client.get("/api/groups").json()
    expected_rank = 1 if ann["score"] >= bob["score"] else 2
    assert (after["finished"], after["my_rank"], after["my_score"]) == (
        2,
        expected_rank,
        ann["score"],
    )
    assert after["leader_score"] == max(ann["score"], bob["score"])
    assert Client().get("/api/groups").json() == []


def test_the_schema_documents_the_groups_api(client):
    paths = client.get("/api/schema/?format=json").json()["paths"]
    for path in (
        "/api/groups",
        "/api/groups/{code}",
        "/api/groups/{code}/members",
        "/api/groups/{code}/members/me",
        "/api/groups/{code}/members/{player_id}",
        "/api/groups/{code}/removed",
        "/api/groups/{code}/removed/{player_id}",
        "/api/groups/{code}/code",
        "/api/groups/{code}/table",
        "/api/groups/{code}/season",
    ):
        assert path in paths
    assert "403" in paths["/api/groups/{code}/table"]["get"]["responses"]
