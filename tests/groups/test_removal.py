"""Removal that sticks, letting back, and a new code (issue 39 item 1), tried as the removed
player, the creator, another member and a stranger would try them."""

import html
import re

import pytest
from django.test import Client

from farkle_site.domain import NotFound
from groups import selectors, services
from groups.models import Group, Membership, Removal
from play.models import Player
from tests.daily.helpers import play_greedy, post, start_daily
from tests.helpers import assert_documented

from .helpers import join, make_group

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"
# Crockford's base-32 (docs/play.md): digits and letters without I, L, O and U; a group's has 7.
GROUP_CODE = re.compile(r"[0-9A-HJKMNP-TV-Z]{7}")
REMOVED_EN = "removed you from the group. You cannot join it again unless they let you back."
REMOVED_FR = "vous a retiré du groupe. Vous ne pouvez pas le rejoindre à nouveau"


@pytest.fixture(autouse=True)
def _fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def members(client, code):
    response = client.get(f"/api/groups/{code}/members")
    assert response.status_code == 200, response.json()
    return response.json()


def my_id(client, code):
    return next(m["id"] for m in members(client, code) if m["me"])


def remove(client, code, player_id):
    return client.delete(f"/api/groups/{code}/members/{player_id}")


def removed_list(client, code):
    response = client.get(f"/api/groups/{code}/removed")
    assert response.status_code == 200, response.json()
    return response.json()


def page_text(response) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def crew(client, clock):
    """A group made by ``client`` (its creator), with Bob and Cyd as members."""
    code = make_group(client)["code"]
    bob, cyd = Client(), Client()
    join(bob, code)
    join(cyd, code)
    return code, bob, cyd


def test_a_removed_member_cannot_rejoin_with_the_code_they_have(client, crew):
    code, bob, cyd = crew
    bob_id = my_id(bob, code)
    assert remove(client, code, bob_id).status_code == 204

    response = post(bob, f"/api/groups/{code}/members")

    assert response.status_code == 403
    body = response.json()
    assert body["code"] == "removed"
    assert "creator removed you" in body["detail"] and "let you back" in body["detail"]
    assert_documented(response, "/api/groups/{code}/members", "post")
    assert not Membership.objects.filter(group__code=code, player_id=bob_id).exists()
    assert [m["id"] for m in members(client, code)] == [my_id(client, code), my_id(cyd, code)]
    # Typed loosely, the same code is the same group, and the same refusal.
    loose = f"{code[:3].lower()}-{code[3:].lower()}"
    assert post(bob, f"/api/groups/{loose}/members").json()["code"] == "removed"


def test_the_removed_member_is_told_so_by_every_endpoint_they_try(client, crew):
    code, bob, _ = crew
    remove(client, code, my_id(bob, code))

    looked = bob.get(f"/api/groups/{code}")
    assert looked.status_code == 200
    assert (looked.json()["removed"], looked.json()["member"]) == (True, False)
    assert_documented(looked, "/api/groups/{code}", "get")
    for path in ("members", "table", "season", "removed"):
        response = bob.get(f"/api/groups/{code}/{path}")
        assert (response.status_code, response.json()["code"]) == (403, "removed"), path
        assert_documented(response, f"/api/groups/{{code}}/{path}", "get")
    assert bob.delete(f"/api/groups/{code}/members/me").json()["code"] == "removed"
    # Nobody else is "removed": a stranger is a stranger, the members members.
    assert Client().get(f"/api/groups/{code}").json()["removed"] is False
    assert Client().get(f"/api/groups/{code}/table").json()["code"] == "not_a_member"
    assert client.get(f"/api/groups/{code}").json()["removed"] is False


def test_the_removed_member_reads_it_plainly_on_the_groups_page(client, crew):
    code, bob, _ = crew
    remove(client, code, my_id(bob, code))

    page = bob.get(f"/g/{code}")
    assert page.status_code == 403
    text = page_text(page)
    assert "You were removed from this group" in text
    assert f"The creator of “Lunch crew” {REMOVED_EN}" in text
    assert 'data-action="join"' not in text and 'data-role="today"' not in text
    in_french = Client(HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")
    in_french.cookies = bob.cookies
    french = page_text(in_french.get(f"/g/{code}"))
    assert '<html lang="fr">' in french
    assert "Vous avez été retiré de ce groupe" in french
    assert f"Le créateur de « Lunch crew » {REMOVED_FR}" in french
    # A stranger still sees the Join button, and a member the group.
    assert 'data-action="join"' in page_text(Client().get(f"/g/{code}"))
    assert REMOVED_EN not in page_text(client.get(f"/g/{code}"))


def test_the_creator_lists_the_removed_and_lets_one_back(client, crew):
    code, bob, cyd = crew
    bob_id, cyd_id = my_id(bob, code), my_id(cyd, code)
    bob_name = bob.get("/api/me").json()["name"]
    assert removed_list(client, code) == []
    remove(client, code, bob_id)
    listed = client.get(f"/api/groups/{code}/removed")
    assert_documented(listed, "/api/groups/{code}/removed", "get")
    assert listed.json() == [{"id": bob_id, "name": bob_name, "removed_at": "2026-11-29T12:00:00Z"}]
    # Only the creator sees whom they removed, and only they let anyone back.
    assert cyd.get(f"/api/groups/{code}/removed").json()["code"] == "forbidden"
    assert Client().get(f"/api/groups/{code}/removed").json()["code"] == "not_a_member"
    refused = cyd.delete(f"/api/groups/{code}/removed/{bob_id}")
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    assert bob.delete(f"/api/groups/{code}/removed/{bob_id}").json()["code"] == "removed"
    assert Removal.objects.filter(group__code=code, player_id=bob_id).exists()

    # Letting back a player who was not removed is a 404, and changes nothing.
    missing = client.delete(f"/api/groups/{code}/removed/{cyd_id}")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    assert_documented(missing, "/api/groups/{code}/removed/{player_id}", "delete")

    assert client.delete(f"/api/groups/{code}/removed/{bob_id}").status_code == 204
    assert removed_list(client, code) == []
    # Let back is not joined: Bob joins again himself, with the group's code.
    assert bob.get(f"/api/groups/{code}").json()["removed"] is False
    assert bob.get(f"/api/groups/{code}/table").json()["code"] == "not_a_member"
    assert join(bob, code)["member"] is True
    assert bob_id in [m["id"] for m in members(client, code)]
    # And the creator can remove him again: it sticks again.
    assert remove(client, code, bob_id).status_code == 204
    assert post(bob, f"/api/groups/{code}/members").json()["code"] == "removed"


def test_removing_twice_is_one_removal_and_a_stranger_cannot_be_removed(client, crew):
    code, bob, _ = crew
    bob_id = my_id(bob, code)
    assert remove(client, code, bob_id).status_code == 204
    again = remove(client, code, bob_id)
    assert again.status_code == 204
    assert Removal.objects.filter(player_id=bob_id).count() == 1
    stranger = Client()
    start_daily(stranger, "today")
    stranger_id = Player.objects.exclude(memberships__isnull=False).exclude(pk=bob_id).get().pk
    missing = remove(client, code, stranger_id)
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    assert_documented(missing, "/api/groups/{code}/members/{player_id}", "delete")
    assert not Removal.objects.filter(player_id=stranger_id).exists()
    # The stranger was never removed: the code lets them in.
    assert join(stranger, code)["member"] is True


def test_a_member_who_left_may_come_back_but_a_removed_one_may_not(client, crew):
    code, bob, cyd = crew
    assert cyd.delete(f"/api/groups/{code}/members/me").status_code == 204
    assert join(cyd, code)["member"] is True
    remove(client, code, my_id(bob, code))
    assert post(bob, f"/api/groups/{code}/members").status_code == 403


def test_the_removal_is_of_the_player_whatever_their_account_or_browser(client, crew):
    code, bob, _ = crew
    bob_id = my_id(bob, code)
    remove(client, code, bob_id)
    # The removed guest makes an account: the account adopts the same player, still removed.
    signed = post(bob, "/api/auth/signup", {"username": "bob", "password": PASSWORD})
    assert signed.status_code == 201, signed.json()
    assert post(bob, f"/api/groups/{code}/members").json()["code"] == "removed"
    # The account on another browser is the same player again.
    phone = Client()
    assert (
        post(phone, "/api/auth/login", {"username": "bob", "password": PASSWORD}).status_code == 200
    )
    assert post(phone, f"/api/groups/{code}/members").json()["code"] == "removed"
    assert page_text(phone.get(f"/g/{code}")).count(REMOVED_EN) == 1
    assert not Membership.objects.filter(player_id=bob_id, group__code=code).exists()


def test_a_removed_players_games_stay_theirs(client, crew):
    code, bob, _ = crew
    game = play_greedy(bob, start_daily(bob, "today"))
    remove(client, code, my_id(bob, code))
    history = bob.get("/api/me").json()["history"]
    assert [(h["attempt"], h["score"]) for h in history] == [(game["id"], game["score"])]


def test_the_creator_gives_the_group_a_new_code_and_the_old_one_finds_nothing(client, crew):
    code, bob, cyd = crew
    before = members(client, code)

    response = post(client, f"/api/groups/{code}/code")

    assert response.status_code == 200, response.json()
    assert_documented(response, "/api/groups/{code}/code", "post")
    changed = response.json()
    new = changed["code"]
    assert GROUP_CODE.fullmatch(new) and new != code
    assert changed["display_code"] == f"{new[:3]}-{new[3:]}"
    assert changed["url"] == f"http://testserver/g/{new}"
    assert (changed["name"], changed["members"], changed["creator"]) == ("Lunch crew", 3, True)
    assert Group.objects.get().code == new

    # The old code finds nothing: the API, the join, the page and its members-only endpoints.
    for answer in (
        client.get(f"/api/groups/{code}"),
        post(Client(), f"/api/groups/{code}/members"),
        bob.get(f"/api/groups/{code}/table"),
        client.delete(f"/api/groups/{code}/members/{my_id(bob, new)}"),
    ):
        assert (answer.status_code, answer.json()["code"]) == (404, "not_found")
    assert Client().get(f"/g/{code}").status_code == 404
    # Issue 40: the old code grouped as every page shows codes, with its dash.
    assert f"No group has the code {code[:3]}-{code[3:]}." in page_text(Client().get(f"/g/{code}"))
    assert Membership.objects.count() == 3

    # The members stay members, at the new code; my groups show it.
    assert members(bob, new) == [{**m, "me": m["id"] == my_id(bob, new)} for m in before]
    assert cyd.get(f"/api/groups/{new}/table").status_code == 200
    assert [g["code"] for g in bob.get("/api/groups").json()] == [new]
    assert Client().get(f"/g/{new}").status_code == 200
    assert join(Client(), new)["members"] == 4


def test_only_the_creator_changes_the_code(client, crew):
    code, bob, _ = crew
    refused = post(bob, f"/api/groups/{code}/code")
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    assert_documented(refused, "/api/groups/{code}/code", "post")
    stranger = post(Client(), f"/api/groups/{code}/code")
    assert stranger.json()["code"] == "not_a_member"
    assert Group.objects.get().code == code


def test_a_new_code_keeps_the_removed_out_and_the_removed_finds_nothing_at_the_old(client, crew):
    code, bob, _ = crew
    remove(client, code, my_id(bob, code))
    new = post(client, f"/api/groups/{code}/code").json()["code"]
    assert post(bob, f"/api/groups/{code}/members").json()["code"] == "not_found"
    assert bob.get(f"/g/{code}").status_code == 404
    # Were the new code to reach them, the removal still holds there.
    assert post(bob, f"/api/groups/{new}/members").json()["code"] == "removed"
    assert bob.get(f"/g/{new}").status_code == 403


def test_the_creators_page_offers_the_new_code_and_the_removed_list(client, crew):
    code, bob, _ = crew
    mine = page_text(client.get(f"/g/{code}"))
    assert 'data-action="new-code"' in mine and 'data-role="removed"' in mine
    theirs = page_text(bob.get(f"/g/{code}"))
    assert 'data-action="new-code"' not in theirs and 'data-role="removed"' not in theirs


def test_a_join_that_read_the_group_before_its_code_changed_finds_nothing(client, crew):
    # The join looked the group up by its code, then the code changed before its write: the
    # join is refused as one a moment later would be.
    code, _, _ = crew
    group = selectors.group_get(code=code)
    creator = Player.objects.get(pk=group.creator_id)
    newcomer = Player.objects.create(display_name="Late Lark", created_at=group.created_at)
    services.group_code_change(group=selectors.group_get(code=code), by=creator)
    with pytest.raises(NotFound):
        services.group_join(group=group, player=newcomer, now=group.created_at)
    assert not Membership.objects.filter(player=newcomer).exists()


def test_a_join_that_read_the_group_before_it_closed_finds_nothing(client, crew):
    code, _, _ = crew
    group = selectors.group_get(code=code)
    newcomer = Player.objects.create(display_name="Late Lark", created_at=group.created_at)
    services.group_close(group=selectors.group_get(code=code), by=group.creator)
    with pytest.raises(NotFound):
        services.group_join(group=group, player=newcomer, now=group.created_at)
    assert not Membership.objects.exists()


def test_the_schema_documents_removal_letting_back_and_the_new_code(client):
    paths = client.get("/api/schema/?format=json").json()["paths"]
    join_403 = paths["/api/groups/{code}/members"]["post"]["responses"]["403"]["description"]
    assert "`removed`" in join_403
    schema = client.get("/api/schema/?format=json").json()
    group_schema = schema["components"]["schemas"]["Group"]
    assert "removed" in group_schema["required"]
    for path, method in (
        ("/api/groups/{code}/removed", "get"),
        ("/api/groups/{code}/removed/{player_id}", "delete"),
        ("/api/groups/{code}/code", "post"),
    ):
        responses = paths[path][method]["responses"]
        assert {"403", "404"} <= set(responses), path
    for path in ("members", "table", "season"):
        assert (
            "`removed`"
            in paths[f"/api/groups/{{code}}/{path}"]["get"]["responses"]["403"]["description"]
        )
