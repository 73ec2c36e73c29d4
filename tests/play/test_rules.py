import json
import os
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

import farkle
from play.apis import schemas
from play.apis.rules import rules_data, scoring_groups


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
            {
                "label": "a single 1",
                "kind": "single",
                "count": 1,
                "face": 1,
                "points": 100,
                "dice": [1],
            },
            {
                "label": "a single 5",
                "kind": "single",
                "count": 1,
                "face": 5,
                "points": 50,
                "dice": [5],
            },
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
        # docs/rules.md: 2.31 %, 7.72 %, 15.74 %, 27.78 %, 44.44 %, 66.67 %.
        "farkle_risk": [
            {"dice": 6, "risk": 5 / 216, "fraction": "5/216"},
            {"dice": 5, "risk": 25 / 324, "fraction": "25/324"},
            {"dice": 4, "risk": 17 / 108, "fraction": "17/108"},
            {"dice": 3, "risk": 5 / 18, "fraction": "5/18"},
            {"dice": 2, "risk": 4 / 9, "fraction": "4/9"},
            {"dice": 1, "risk": 2 / 3, "fraction": "2/3"},
        ],
        # The docs' figures for optimal play on seed 000: 593.6 points a turn, par 5,936, and
        # banking always best from 18,200 / 3,100 / 1,050 / 450 / 250 / 350 points with 6 to 1
        # dice left (README, `python -m farkle par`).
        "par": 5936,
        "expected_turn": pytest.approx(593.6, abs=0.05),
        "bank_thresholds": [
            {"dice": 6, "points": 18_200},
            {"dice": 5, "points": 3_100},
            {"dice": 4, "points": 1_050},
            {"dice": 3, "points": 450},
            {"dice": 2, "points": 250},
            {"dice": 1, "points": 350},
        ],
    }


def test_rules_list_every_table_in_order(client):
    body = client.get("/api/rules").json()

    assert [t["id"] for t in body["tables"]] == list(farkle.TABLES)
    assert all(set(t) == set(schemas.RulesTableSerializer().fields) for t in body["tables"])
    assert set(body) == set(schemas.RulesSerializer().fields)


def ordered_throws(n: int) -> Counter:
    """How many of the 6^n ordered outcomes of n dice show each sorted throw."""
    return Counter(tuple(sorted(throw)) for throw in product(range(1, 7), repeat=n))


def brute_force_risk(table: farkle.Table, n: int) -> Fraction:
    """Farkle risk over all 6^n outcomes; seed 004's re-thrown pairs are a new throw, so the
    risk is that of the turn ending: Farkles over the outcomes that are not thrown again."""
    kinds: Counter = Counter()
    for throw, ways in ordered_throws(n).items():
        kinds[farkle.throw_kind(throw, table)] += ways
    return Fraction(kinds[farkle.FARKLE], 6**n - kinds[farkle.RETHROW])


@pytest.mark.parametrize("table_id", list(farkle.TABLES))
def test_rules_risks_are_the_brute_force_over_every_outcome(client, table_id):
    table = next(t for t in client.get("/api/rules").json()["tables"] if t["id"] == table_id)

    rules = farkle.TABLES[table_id]
    expected = [(n, brute_force_risk(rules, n)) for n in range(rules.dice, 0, -1)]
    assert [(r["dice"], Fraction(r["fraction"])) for r in table["farkle_risk"]] == expected
    assert all(r["risk"] == float(Fraction(r["fraction"])) for r in table["farkle_risk"])


def test_rules_risks_of_seed_000_are_the_docs_figures(client):
    # Seed 000 / the docs: 2.31 %, 7.72 %, 15.74 %, 27.78 %, 44.44 %, 66.67 % from 6 to 1 die.
    table = client.get("/api/rules").json()["tables"][0]
    percents = [round(r["risk"] * 100, 2) for r in table["farkle_risk"]]
    assert percents == [2.31, 7.72, 15.74, 27.78, 44.44, 66.67]


def independent_solution(table: farkle.Table, cap: int = 30_000) -> tuple[float, dict[int, int]]:
    """Expected points of a turn and the banking thresholds by plain value iteration, written
    here apart from the engine's solver: only the rules (keeps, re-thrown pairs) come from it.

    A state is (dice in hand, sets kept in the hand) and the turn points in 50-point steps;
    from ``cap`` up the player banks. Returns the turn's value and, per dice in hand with no
    sets, the points from which rolling never beats banking."""
    unit, top = 50, cap // 50
    moves, rethrown, pending = {}, {}, [(table.dice, ())]
    while pending:
        hand = pending.pop()
        if hand in moves:
            continue
        dice, sets = hand
        merged: Counter = Counter()
        rethrown[hand] = Fraction(0)
        for throw, ways in ordered_throws(dice).items():
            p = Fraction(ways, 6**dice)
            if farkle.throw_kind(throw, table, sets) == farkle.RETHROW:
                rethrown[hand] += p
                continue
            best: dict = {}
            for option in farkle.keep_options(throw, table, sets):
                positions, points, after = option.positions, option.points, option.sets
                left = dice - len(positions)
                # Hot dice: every die scored, all of them come back (seed 004: must be thrown).
                key = (
                    ((left, after), True)
                    if left
                    else ((table.dice, ()), not table.full_hand_must_roll)
                )
                best[key] = max(best.get(key, 0), points // unit)
            if best:
                merged[tuple(sorted(best.items()))] += p
        moves[hand] = [(float(p), options) for options, p in merged.items()]
        pending += [h for options in merged for (h, _), _ in options]
    # roll[h][u]: throwing from h with u steps at risk; keep[h][u]: the best of that and banking.
    size = top + 1 + max(g for m in moves.values() for _, options in m for _, g in options)
    roll = {h: [u * unit for u in range(size)] for h in moves}
    keep = {h: [u * unit for u in range(size)] for h in moves}
    for u in range(top, -1, -1):
        for hand, options_by_throw in moves.items():
            total = sum(
                p * max((keep if may_bank else roll)[h][u + g] for (h, may_bank), g in options)
                for p, options in options_by_throw
            )
            roll[hand][u] = total / (1 - float(rethrown[hand]))
            keep[hand][u] = max(u * unit, roll[hand][u])
    assert all(values[top] <= top * unit for values in roll.values()), "cap too low"
    thresholds = {}
    for n in range(table.dice, 0, -1):
        u = top
        while u > 0 and roll[(n, ())][u - 1] <= (u - 1) * unit:
            u -= 1
        thresholds[n] = u * unit
    return roll[(table.dice, ())][0], thresholds


@pytest.mark.parametrize("table_id", list(farkle.TABLES))
def test_rules_optimal_play_matches_an_independent_value_iteration(client, table_id):
    table = next(t for t in client.get("/api/rules").json()["tables"] if t["id"] == table_id)

    turn, thresholds = independent_solution(farkle.TABLES[table_id])
    assert table["expected_turn"] == pytest.approx(turn, abs=0.006)
    assert table["par"] == round(turn * 10)
    assert table["bank_thresholds"] == [{"dice": n, "points": p} for n, p in thresholds.items()]


@pytest.mark.parametrize("table_id", list(farkle.TABLES))
def test_scoring_groups_cover_every_combo_once(table_id):
    table = farkle.TABLES[table_id]

    groups = scoring_groups(table)

    # Every combination of the engine scores as one of the listed lines (by its kind, count and
    # face, or as the merged "n of a kind"), and each line is listed once.
    labels = [g["label"] for g in groups]
    assert len(labels) == len(set(labels))
    by_parts = {(g["kind"], g["count"], g["face"]): g["points"] for g in groups}
    straights = {tuple(g["dice"]): g["points"] for g in groups if g["kind"] == "straight"}
    for combo in table.combos():
        count = len(combo.faces)
        if combo.kind == "straight":
            assert straights[combo.faces] == combo.points, combo
            continue
        face = combo.faces[0] if combo.kind in ("single", "set") else None
        merged = by_parts.get(("of_a_kind", count, None))
        assert by_parts.get((combo.kind, count, face), merged) == combo.points, combo
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
NAMES = {name for _, name in WATCHED}
calls = {"start": [], "request": []}
phase = "start"
def watch(frame, event, arg):
    code = frame.f_code
    if event != "call" or code.co_name not in NAMES:
        return
    if ("/".join(code.co_filename.split("/")[-2:]), code.co_name) in WATCHED:
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


def test_rules_api_names_things_in_english_whoever_asks(client):
    # The payload is cached publicly: the same English for every reader, ids beside each text.
    tables = {
        t["id"]: t
        for t in client.get("/api/rules", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9").json()["tables"]
    }

    assert tables["farkle-games"]["name"] == "Classic (farkle.games)"
    assert tables["farkle-challenge"]["scoring"][0]["label"] == "a single 1"
    assert tables["dix-mille"]["turn_rules"][0] == {
        "id": "whole_straights",
        "text": "A thrown straight is kept whole, never split for its 1 or its 5.",
    }


@pytest.mark.django_db
def test_rules_page_names_tables_and_groups_in_the_readers_language(client):
    english = client.get("/rules").content.decode()
    french = client.get("/rules", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9").content.decode()

    # The French of seed 001's table and of a single die, from the translation catalogue.
    assert ("Classic (farkle.games)" in english, "a single 1" in english) == (True, True)
    assert ("Classique (farkle.games)" in french, "un 1 seul" in french) == (True, True)
    assert "Classic (farkle.games)" not in french
