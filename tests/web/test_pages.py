"""The pages, server side: each renders in English and French, in a handful of queries."""

from __future__ import annotations

import datetime
import html
import re

import pytest
from django.conf import settings
from django.test import Client, RequestFactory
from django.utils import timezone

from challenges.services import challenge_create
from farkle_site.views import server_error
from play.services.players import player_create

UTC = datetime.UTC

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


@pytest.fixture
def challenge_code() -> str:
    now = timezone.now()
    return challenge_create(creator=player_create(now=now), title="Friday", now=now).puzzle.code


def french() -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")


def title(response) -> str:
    return re.search(r"<h1[^>]*>(.*?)</h1>", response.content.decode(), re.S).group(1)


PAGES = {
    "/": ("Today's daily", "Le Farkle du jour"),
    "/leaderboard": ("Today's leaderboard", "Classement du jour"),
    "/daily/2026-11-28": ("Daily of November 28, 2026", "Farkle du 28 novembre 2026"),
    "/me": ("Me", "Moi"),
    "/rules": ("How to play", "Comment jouer"),
    "/learn": ("Learn Farkle", "Apprendre le Farkle"),
    "/verify": ("Provably fair dice", "Des dés à l’équité vérifiable"),
    "/c/": ("Friend challenges", "Défis entre amis"),
    "/challenges/new": ("Create a challenge", "Créer un défi"),
}


@pytest.mark.parametrize("path", PAGES)
def test_page_renders_in_english_and_french(client, path):
    english = client.get(path)
    in_french = french().get(path)

    assert (english.status_code, in_french.status_code) == (200, 200)
    assert re.sub(r"\s*<span.*", "", title(english), flags=re.S) == PAGES[path][0]
    assert re.sub(r"\s*<span.*", "", title(in_french), flags=re.S) == PAGES[path][1]
    assert '<html lang="en">' in english.content.decode()
    assert '<html lang="fr">' in in_french.content.decode()


def test_a_months_first_day_is_written_as_each_language_writes_it(client):
    # Issue 40: French writes "1er", not "1", for the first of a month.
    assert title(client.get("/daily/2026-11-01")) == "Daily of November 1, 2026"
    assert title(french().get("/daily/2026-11-01")) == "Farkle du 1er novembre 2026"
    assert title(french().get("/daily/2026-11-02")) == "Farkle du 2 novembre 2026"


@pytest.mark.parametrize("path", ["/", "/leaderboard", "/me", "/rules", "/verify", "/c/"])
def test_page_needs_at_most_a_few_queries(client, path, django_assert_max_num_queries):
    with django_assert_max_num_queries(3):
        response = client.get(path)

    assert response.status_code == 200


def test_challenge_page_reads_the_challenge_in_one_query(
    client, challenge_code, django_assert_num_queries
):
    with django_assert_num_queries(1):
        response = client.get(f"/c/{challenge_code}")

    assert response.status_code == 200
    assert title(response).startswith("Friday")
    assert f'data-code="{challenge_code}"' in response.content.decode()


def test_past_day_needs_at_most_a_few_queries(client, django_assert_max_num_queries):
    client.get("/daily/2026-11-28")

    with django_assert_max_num_queries(2):
        response = client.get("/daily/2026-11-28")

    assert response.status_code == 200


def test_pages_set_the_csrf_cookie_for_their_scripts(client):
    response = client.get("/")

    assert "csrftoken" in response.cookies


@pytest.mark.parametrize(
    "path", ["/daily/2026-12-01", "/daily/2020-01-01", "/daily/yesterday", "/daily/2026-13-01"]
)
def test_a_day_without_a_daily_is_a_friendly_404(client, path):
    response = client.get(path)

    assert response.status_code == 404
    assert title(response) == "Farkle! Nothing here."
    assert "There is no daily for" in response.content.decode()


def test_today_by_date_redirects_to_the_home_page(client):
    response = client.get("/daily/2026-11-29")

    assert (response.status_code, response["Location"]) == (302, "/")


def test_tomorrow_by_date_leads_to_its_commitment_as_the_readme_says(client):
    # The suite's clock is 2026-11-29: tomorrow exists (upcoming, committed) but has nothing to
    # play or rank, so its page is its line on /commitments, which holds that anchor.
    response = client.get("/daily/2026-11-30")

    assert (response.status_code, response["Location"]) == (302, "/commitments#d-2026-11-30")
    commitments = client.get("/commitments").content.decode()
    assert 'id="d-2026-11-30"' in commitments
    # Issue 40: in the pages' one form of a day, not Django's "Nov. 30, 2026".
    assert "Daily of November 30, 2026" in commitments
    assert "Farkle du 30 novembre 2026" in french().get("/commitments").content.decode()
    readme = (settings.BASE_DIR / "README.md").read_text()
    assert "tomorrow's to its commitment on `/commitments`" in readme


def test_a_closed_day_offers_archive_play(client):
    content = client.get("/daily/2026-11-27").content.decode()

    assert 'data-play data-kind="daily" data-date="2026-11-27"' in content
    assert 'data-archive="1"' in content
    assert "/verify?date=2026-11-27" in content


def test_an_unknown_challenge_is_a_friendly_404(client):
    response = client.get("/c/ZZZZZZ")

    assert response.status_code == 404
    assert title(response) == "No such challenge"
    assert "No challenge has the code ZZZZZZ." in response.content.decode()


def test_a_malformed_challenge_code_is_a_friendly_404_in_french(client):
    response = french().get("/c/hello!")

    assert response.status_code == 404
    assert title(response) == "Défi introuvable"
    assert "n’est pas un code de défi" in response.content.decode()


def test_a_challenge_link_typed_loosely_redirects_to_its_code(client, challenge_code):
    loose = f"{challenge_code[:3].lower()}-{challenge_code[3:].lower()}"

    response = client.get(f"/c/{loose}")

    assert (response.status_code, response["Location"]) == (302, f"/c/{challenge_code}")


def test_the_code_form_forgives_case_dashes_and_lookalikes(client):
    response = client.get("/c/", {"code": " k7m-2qo "})

    assert (response.status_code, response["Location"]) == (302, "/c/K7M2Q0")


def test_the_code_form_explains_a_bad_code(client):
    response = client.get("/c/", {"code": "nope"})

    assert response.status_code == 400
    assert "A code is 6 characters of 0-9 and A-Z, like K7M-2QX." in response.content.decode()


# Issue 40: the two kinds of code differ by a character; the form given the other kind's code
# says which it is and links to its page.
@pytest.mark.parametrize(
    ("form", "typed", "message", "link"),
    [
        (
            "/c/",
            " g7k-4m2q ",
            "G7K-4M2Q is a group's code, not a challenge's.",
            '<a href="/g/G7K4M2Q">Open the group G7K-4M2Q</a>',
        ),
        (
            "/g/",
            "k7m 2qo",
            "K7M-2Q0 is a challenge's code, not a group's.",
            '<a href="/c/K7M2Q0">Open the challenge K7M-2Q0</a>',
        ),
    ],
)
def test_a_code_of_the_other_kind_is_named_and_linked(client, form, typed, message, link):
    response = client.get(form, {"code": typed})

    assert response.status_code == 400
    content = html.unescape(response.content.decode())
    assert f"{message} {link}" in content


def test_a_group_code_at_the_challenge_form_is_named_in_french():
    content = html.unescape(french().get("/c/", {"code": "G7K4M2Q"}).content.decode())

    assert "G7K-4M2Q est le code d’un groupe, pas d’un défi." in content
    assert '<a href="/g/G7K4M2Q">Ouvrir le groupe G7K-4M2Q</a>' in content


def test_a_code_of_neither_kind_gets_the_forms_own_explanation(client):
    content = html.unescape(client.get("/g/", {"code": "G7K4M2QX"}).content.decode())

    assert "A group code is 7 characters of 0-9 and A-Z, like G7K-4M2Q." in content
    assert "Open the" not in content


# Issue 40: players read plain words; the rule sheets the rules come from ("seed 000", their
# French quotes) are for the docs. A challenge with every option on shows each option's text.
def test_no_page_cites_the_rule_sheets(client):
    now = timezone.now()
    code = challenge_create(
        creator=player_create(now=now),
        now=now,
        entry_minimum=500,
        farkle_penalty=500,
        turn_seconds=30,
    ).puzzle.code
    cited = re.compile(r"\b(seeds?|sources?) 00\d|Paramètres", re.IGNORECASE)
    for path in ("/challenges/new", f"/c/{code}", "/rules", "/"):
        for browser in (client, french()):
            response = browser.get(path)
            assert response.status_code == 200, path
            text = html.unescape(response.content.decode())
            assert cited.findall(text) == [], path
    entry = "Entry minimum: no bank below 500 points in one turn until your first bank."
    assert entry in html.unescape(client.get(f"/c/{code}").content.decode())


def test_challenge_pages_are_rate_limited_like_the_api(client, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "challenge_lookup": "3/minute",
        },
    }
    statuses = [client.get(f"/c/AAAAA{n}").status_code for n in range(4)]

    assert statuses == [404, 404, 404, 429]


def test_rules_show_the_daily_table_risks_and_par(client):
    content = client.get("/rules").content.decode()

    assert "Scoring: Farkle Challenge" in content
    assert '<td>two triplets</td><td class="r num"><strong>2,500</strong>' in content
    assert "2.31%" in content and "66.67%" in content
    assert "<strong>593.6</strong>" in content and "<strong>5,936</strong>" in content


def test_rules_in_french_translate_groups_and_group_numbers(client):
    content = french().get("/rules").content.decode()

    # French as Intl.NumberFormat("fr") writes it: narrow no-break spaces, in groups and before %.
    assert '<td>deux brelans</td><td class="r num"><strong>2\u202f500</strong>' in content
    assert "2,31\u202f%" in content
    # The risk bar's length is an SVG attribute: a number with a point in any language.
    assert re.search(r'<rect width="2\.31\d*%"', content)
    assert "<strong>5\u202f936</strong>" in content


def test_the_javascript_catalog_is_translated(client):
    catalog = french().get("/jsi18n/").content.decode()

    assert '"Press Roll to start."' in catalog
    assert '"Appuyez sur Lancer pour commencer."' in catalog


def test_a_missing_page_uses_the_sites_404_template(client):
    response = client.get("/no/such/page")

    assert response.status_code == 404
    assert title(response) == "Farkle! Nothing here."


def test_the_500_page_renders_without_a_request():
    response = server_error(RequestFactory().get("/"))

    assert response.status_code == 500
    assert "Something went wrong on our side" in response.content.decode()


def test_rules_list_each_tables_turn_rules_in_french(client):
    content = french().get("/rules").content.decode()

    assert "Le 10.000" in content and "Se joue avec 5 dés." in content
    assert "pas d’encaissement sur une main pleine" in content


def test_rules_in_french_name_every_scoring_group_of_every_table_in_french(client):
    content = french().get("/rules").content.decode()

    english = ["of a kind", "three pairs", "two triplets", "straight ", ">one ", "a single", " 6s<"]
    assert [word for word in english if word in content] == []


def test_rules_worked_examples_are_in_french(client):
    content = french().get("/rules").content.decode()

    assert ("a Farkle: nothing scores" in content, "un Farkle : rien ne marque" in content) == (
        False,
        True,
    )
