"""The season against an independent count over the official games the test itself wrote, and
the N+1 guards of every group read."""

import datetime
import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from groups import services
from groups.models import Group
from tests.daily.helpers import play_greedy, start_daily

from .helpers import daily, game, join, make_group, player

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
# Five days into December: the season covers November's last days and December's first.
NOW = datetime.datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
TODAY = NOW.date()
DAYS = [datetime.date(2026, 11, 24) + datetime.timedelta(days=n) for n in range(12)]  # to 12-05


def expected_table(games, names, *, first, last, today):
    """Days, wins, total, average and streak by hand: loops over the list of games written."""
    counted = [
        (who, day, score) for who, day, score in games if first <= day <= last and day < today
    ]
    best = {}
    for _, day, score in counted:
        best[day] = max(best.get(day, 0), score)
    table = {}
    for name in names:
        mine = [(day, score) for who, day, score in counted if who == name]
        total = sum(score for _, score in mine)
        played = {day for who, day, _ in games if who == name and day < today and day <= last}
        streak, day = 0, min(today, last + datetime.timedelta(days=1)) - datetime.timedelta(days=1)
        while day in played:
            streak += 1
            day -= datetime.timedelta(days=1)
        table[name] = {
            "days": len(mine),
            "wins": sum(1 for day, score in mine if score == best[day]),
            "total": total,
            "average": round(total / len(mine)) if mine else None,
            "streak": streak,
        }
    return table


def as_table(rows):
    return {
        r["name"]: {k: r[k] for k in ("days", "wins", "total", "average", "streak")} for r in rows
    }


def test_the_season_matches_an_independent_count(client, clock):
    clock.move_to(NOW)
    code = make_group(client, "Season crew")["code"]
    group = Group.objects.get(code=code)
    names = ["Ann", "Bob", "Cyd"]
    people = {name: player(name) for name in names}
    for p in people.values():
        services.group_join(group=group, player=p, now=NOW)
    outsider = player("Outsider")
    rng = random.Random(13)
    games = []
    for day in DAYS:
        puzzle = daily(day, NOW)
        for name in names:
            if rng.random() < 0.75:
                # Multiples of 50 in a narrow band, so that equal bests (shared wins) happen.
                score = rng.choice([500, 550, 600])
                game(people[name], puzzle, score, minute=rng.randrange(30))
                games.append((name, day, score))
                # Practice and archive games never count, however high.
                game(people[name], puzzle, 5000, official=False)
        # An outsider's best never takes a win from the group, nor a held game.
        game(outsider, puzzle, 9000)
    held_day = DAYS[3]
    if not any(who == "Cyd" and day == held_day for who, day, _ in games):
        game(people["Cyd"], daily(held_day, NOW), 7000, held=True)
    # Unfinished: started and abandoned.
    game(people["Ann"], daily(DAYS[-2], NOW), 0, finished=False) if not any(
        who == "Ann" and day == DAYS[-2] for who, day, _ in games
    ) else None
    members = names + [client.get(f"/api/groups/{code}/members").json()[0]["name"]]

    december = client.get(f"/api/groups/{code}/season").json()
    assert december["month"] == "2026-12"
    assert december["months"] == ["2026-12", "2026-11"]
    first_dec, last_dec = datetime.date(2026, 12, 1), datetime.date(2026, 12, 31)
    assert as_table(december["month_table"]) == expected_table(
        games, members, first=first_dec, last=last_dec, today=TODAY
    )
    assert as_table(december["all_time"]) == expected_table(
        games, members, first=DAYS[0], last=last_dec, today=TODAY
    )
    november = client.get(f"/api/groups/{code}/season?month=2026-11").json()
    assert as_table(november["month_table"]) == expected_table(
        games,
        members,
        first=datetime.date(2026, 11, 1),
        last=datetime.date(2026, 11, 30),
        today=TODAY,
    )
    # Best wins first.
    wins = [r["wins"] for r in november["month_table"]]
    assert wins == sorted(wins, reverse=True)


def test_todays_games_wait_for_the_day_to_close_before_counting(client, clock):
    clock.move_to(NOW)
    code = make_group(client)["code"]
    friend = Client()
    join(friend, code)
    play_greedy(friend, start_daily(friend, "today"))
    season = client.get(f"/api/groups/{code}/season").json()
    assert all(r["days"] == 0 for r in season["month_table"])
    clock.move_to(NOW + datetime.timedelta(days=1))
    season = client.get(f"/api/groups/{code}/season").json()
    assert sorted(r["days"] for r in season["month_table"]) == [0, 1]


@pytest.mark.parametrize("month", ["2026-13", "26-12", "december", "2026-12-01"])
def test_a_bad_month_is_a_400(client, clock, month):
    code = make_group(client)["code"]
    response = client.get(f"/api/groups/{code}/season?month={month}")
    assert (response.status_code, response.json()["code"]) == (400, "invalid_date")


def _setup(client, members: int, tag: str):
    """A group of ``members`` players who each played every day, and an outsider who did too."""
    code = make_group(client)["code"]
    group = Group.objects.get(code=code)
    people = [group.creator] + [player(f"Member {tag}{chr(65 + n)}") for n in range(members - 1)]
    for p in people[1:]:
        services.group_join(group=group, player=p, now=NOW)
    outsider = player(f"Outsider {tag}")
    for day in DAYS:
        puzzle = daily(day, NOW)
        for n, p in enumerate(people):
            game(p, puzzle, 500 + 50 * n)
        game(outsider, puzzle, 800)
    return code


URLS = {
    "table": "/api/groups/{code}/table",
    "past table": "/api/groups/{code}/table?day=2026-11-30",
    "season": "/api/groups/{code}/season",
    "members": "/api/groups/{code}/members",
    "group": "/api/groups/{code}",
    "my groups": "/api/groups",
    "page": "/g/{code}",
}


@pytest.mark.parametrize("which", URLS)
def test_reads_cost_the_same_for_one_member_and_three(which, clock, django_assert_num_queries):
    clock.move_to(NOW)
    one, three = Client(), Client()
    code_one = _setup(one, 1, "a")
    code_three = _setup(three, 3, "b")
    # Three groups for the second player, so "my groups" reads three rows too.
    creator = Group.objects.get(code=code_three).creator
    for n in range(2):
        services.group_join(
            group=services.group_create(creator=player(f"Maker {n}"), name=f"Other {n}", now=NOW),
            player=creator,
            now=NOW,
        )
    with CaptureQueriesContext(connection) as queries:
        assert one.get(URLS[which].format(code=code_one)).status_code == 200
    with django_assert_num_queries(len(queries)):
        assert three.get(URLS[which].format(code=code_three)).status_code == 200
