import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import farkle
from daily.apis import schemas
from daily.apis.rules import rules_data, scoring_groups


def test_rules_farkle_challenge_table(client):
    response = client.get("/api/rules")

    body = response.json()
    assert (response.status_code, body["daily_table"], body["turns"]) == (
        200,
        "farkle-challenge",
        10,
    )
    assert body["tables"][0] == {
        "id": "farkle-challenge",
        "name": "Farkle Challenge",
        "source": "seed 000",
        "turn_rules": [],
        "dice": 6,
        "scoring": [
            {"label": "one 1", "kind": "single", "count": 1, "face": 1, "points": 100, "dice": [1]},
            {"label": "one 5", "kind": "single", "count": 1, "face": 5, "points": 50, "dice": [5]},
            {
                "label": "three 1s",
                "kind": "set",
                "count": 3,
                "face": 1,
                "points": 1000,
                "dice": [1, 1, 1],
            },
            {
                "label": "three 2s",
                "kind": "set",
                "count": 3,
                "face": 2,
                "points": 200,
                "dice": [2, 2, 2],
            },
            {
                "label": "three 3s",
                "kind": "set",
                "count": 3,
                "face": 3,
                "points": 300,
                "dice": [3, 3, 3],
            },
            {
                "label": "three 4s",
                "kind": "set",
                "count": 3,
                "face": 4,
                "points": 400,
                "dice": [4, 4, 4],
            },
            {
                "label": "three 5s",
                "kind": "set",
                "count": 3,
                "face": 5,
                "points": 500,
                "dice": [5, 5, 5],
            },
            {
                "label": "three 6s",
                "kind": "set",
                "count": 3,
                "face": 6,
                "points": 600,
                "dice": [6, 6, 6],
            },
            {
                "label": "four of a kind",
                "kind": "of_a_kind",
                "count": 4,
                "face": None,
                "points": 1000,
                "dice": [2, 2, 2, 2],
            },
            {
                "label": "five of a kind",
                "kind": "of_a_kind",
                "count": 5,
                "face": None,
                "points": 2000,
                "dice": [2, 2, 2, 2, 2],
            },
            {
                "label": "six of a kind",
                "kind": "of_a_kind",
                "count": 6,
                "face": None,
                "points": 3000,
                "dice": [2, 2, 2, 2, 2, 2],
            },
            {
                "label": "straight 1-2-3-4-5-6",
                "kind": "straight",
                "count": 6,
                "face": None,
                "points": 1500,
                "dice": [1, 2, 3, 4, 5, 6],
            },
            {
                "label": "three pairs",
                "kind": "three_pairs",
                "count": 6,
                "face": None,
                "points": 1500,
                "dice": [1, 1, 2, 2, 3, 3],
            },
            {
                "label": "two triplets",
                "kind": "two_triplets",
                "count": 6,
                "face": None,
                "points": 2500,
                "dice": [1, 1, 1, 2, 2, 2],
            },
        ],
        # SPEC §1: 2.31 %, 7.72 %, 15.74 %, 27.78 %, 44.44 %, 66.67 %.
        "farkle_risk": [
            {"dice": 6, "risk": 5 / 216, "fraction": "5/216"},
            {"dice": 5, "risk": 25 / 324, "fraction": "25/324"},
            {"dice": 4, "risk": 17 / 108, "fraction": "17/108"},
            {"dice": 3, "risk": 5 / 18, "fraction": "5/18"},
            {"dice": 2, "risk": 4 / 9, "fraction": "4/9"},
            {"dice": 1, "risk": 2 / 3, "fraction": "2/3"},
        ],
        "par": 5936,
        "expected_turn": round(farkle.solve("farkle-challenge").expected_turn(), 2),
        "bank_thresholds": [
            {"dice": n, "points": points}
            for n, points in sorted(
                farkle.solve("farkle-challenge").bank_thresholds().items(), reverse=True
            )
        ],
    }
    assert round(body["tables"][0]["expected_turn"], 1) == 593.6


def test_rules_list_every_table_in_order(client):
    body = client.get("/api/rules").json()

    assert [t["id"] for t in body["tables"]] == list(farkle.TABLES)
    assert all(set(t) == set(schemas.RulesTableSerializer().fields) for t in body["tables"])
    assert set(body) == set(schemas.RulesSerializer().fields)


@pytest.mark.parametrize("table_id", list(farkle.TABLES))
def test_rules_risks_are_exact_fractions_of_the_engine(client, table_id):
    table = next(t for t in client.get("/api/rules").json()["tables"] if t["id"] == table_id)

    assert {r["dice"]: Fraction(r["fraction"]) for r in table["farkle_risk"]} == farkle.risk_table(
        table_id
    )
    assert all(r["risk"] == float(Fraction(r["fraction"])) for r in table["farkle_risk"])


@pytest.mark.parametrize("table_id", list(farkle.TABLES))
def test_scoring_groups_cover_every_combo_once(table_id):
    table = farkle.TABLES[table_id]

    groups = scoring_groups(table)

    # Every combination of the engine scores as one of the listed lines (its label, or the
    # merged "n of a kind"), and each line is listed once.
    labels = [g["label"] for g in groups]
    assert len(labels) == len(set(labels))
    by_label = {g["label"]: g["points"] for g in groups}
    for combo in table.combos():
        merged = f"{combo.label.split()[0]} of a kind"
        assert by_label.get(combo.label, by_label.get(merged)) == combo.points, combo
    # The example dice of each line score its points under the table.
    assert all(farkle.score(g["dice"], table) >= g["points"] for g in groups)


def test_scoring_groups_multiplied_kinds_are_listed_per_face():
    groups = {g["label"]: g["points"] for g in scoring_groups(farkle.TABLES["farkle-games"])}

    assert (groups["four 1s"], groups["four 4s"], groups["six 6s"], groups["three pairs"]) == (
        2000,
        800,
        2400,
        750,
    )
    assert "two triplets" not in groups and "four of a kind" not in groups


def test_rules_are_computed_once_and_read_no_database(client):
    # No `db` fixture: pytest-django fails any query, the session's included.
    response = client.get("/api/rules")

    assert response.json() == rules_data()
    assert rules_data() is rules_data()
    assert response["Cache-Control"] == "public, max-age=3600"


def test_rules_list_the_turn_rules_of_royal_and_le_10000(client):
    tables = {t["id"]: t for t in client.get("/api/rules").json()["tables"]}
    assert [r["id"] for r in tables["royal"]["turn_rules"]] == ["extend_sets"]
    assert [r["id"] for r in tables["dix-mille"]["turn_rules"]] == [
        "whole_straights",
        "whole_sets",
        "pair_rethrow",
        "full_hand_must_roll",
    ]
    assert tables["dix-mille"]["dice"] == 5
    assert tables["dix-mille"]["farkle_risk"][3] == {"dice": 2, "risk": 0.375, "fraction": "3/8"}


# Run in a fresh interpreter: import the site the way gunicorn does, then request /rules once.
# A profile hook records which of the costly functions run, before and during the request.
FRESH_PROCESS = """
import json, sys
from django.conf import settings
settings.STORAGES = {**settings.STORAGES, "staticfiles": {
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
settings.WHITENOISE_USE_FINDERS = True
WATCHED = {("farkle/solver.py", "compute"), ("farkle/solver.py", "_groups"),
           ("farkle/solver.py", "decode"), ("farkle/risk.py", "_risk"),
           ("apis/rules.py", "table_data")}
calls = {"start": [], "request": []}
phase = "start"
def watch(frame, event, arg):
    code = frame.f_code
    if event == "call" and ("/".join(code.co_filename.split("/")[-2:]), code.co_name) in WATCHED:
        calls[phase].append(code.co_name)
sys.setprofile(watch)
import farkle_site.wsgi
from django.test import Client
from django.test.utils import setup_test_environment
setup_test_environment()
phase = "request"
response = Client().get("/rules")
sys.setprofile(None)
print(json.dumps({"status": response.status_code, "par": "5,936" in response.text,
                  "calls": calls}))
"""


def test_a_fresh_process_serves_rules_without_solving_or_computing_on_the_request():
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "farkle_site.settings", "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", FRESH_PROCESS], cwd=root, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert (result["status"], result["par"]) == (200, True)
    start, request = result["calls"]["start"], result["calls"]["request"]
    # Never solved: the stored solutions were read once, before any request, and the rules'
    # figures were built then too; the request itself runs none of it.
    assert ("compute" in start, "_groups" in start, start.count("decode")) == (False, False, 1)
    assert start.count("table_data") == len(farkle.TABLES)
    assert request == []
