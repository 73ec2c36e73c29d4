"""The scoring tables, their Farkle risks and what optimal play earns on them.

The optimal-play figures come from the solutions stored in ``farkle/data/`` (``farkle.solve``
never solves a site table); ``farkle_site.wsgi`` builds ``rules_data`` before the first request.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache
from typing import Any

from django.utils import translation
from django.utils.decorators import method_decorator
from django.views.decorators.cache import cache_control
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import farkle
from play.apis import schemas
from play.apis.payloads import par
from play.texts import group_label, table_name, turn_rule_text


def scoring_groups(table: farkle.Table) -> list[dict[str, Any]]:
    """The table's scoring groups as a player reads them: the engine lists every set of faces
    ("three pairs" twenty times, "four 2s" to "four 6s"); here a group worth the same whatever
    its faces is one line ("three pairs", "four of a kind"), with one example of its dice."""
    combos = table.combos()
    kind_points: dict[int, list[int]] = defaultdict(list)
    for combo in combos:
        if combo.kind == "set" and combo.count >= 4:
            kind_points[combo.count].append(combo.points)
    # n of a kind is one line when every face has it and pays the same for it.
    merged = {n for n, points in kind_points.items() if len(points) == 6 and len(set(points)) == 1}
    # Merged groups are shown with a face that scores nothing alone: four 1s would also read as
    # three 1s and a single 1.
    plain = next(face for face in range(1, 7) if face not in table.singles)
    lines: dict[tuple, dict[str, Any]] = {}
    for combo in combos:
        kind, face, dice = combo.kind, combo.face, list(combo.faces)
        if kind == "set" and combo.count in merged:
            kind, face, dice = "of_a_kind", None, [plain] * combo.count
        # One line per group as named: straights by their run, the others by kind, count, face.
        key = (kind, combo.count, face, tuple(dice) if kind == "straight" else ())
        lines.setdefault(
            key,
            {
                "label": group_label(kind, combo.count, face, dice),
                "kind": kind,
                "count": combo.count,
                "face": face,
                "points": combo.points,
                "dice": dice,
            },
        )
    return list(lines.values())


def table_data(table: farkle.Table) -> dict[str, Any]:
    """One table as ``GET /api/rules`` lists it."""
    solution = farkle.solve(table.id)
    return {
        "id": table.id,
        "name": table_name(table.id),
        "source": table.source,
        "turn_rules": [{"id": rule, "text": turn_rule_text(rule)} for rule in table.turn_rules()],
        "dice": table.dice,
        "scoring": scoring_groups(table),
        "farkle_risk": [
            {"dice": dice, "risk": float(risk), "fraction": str(risk)}
            for dice, risk in farkle.risk_table(table.id).items()
        ],
        "par": par(table.id),
        "expected_turn": round(solution.expected_turn(), 2),
        "bank_thresholds": [
            {"dice": dice, "points": points}
            for dice, points in sorted(solution.bank_thresholds().items(), reverse=True)
        ],
    }


@cache
def rules_data() -> dict[str, Any]:
    """Every table the site offers; pure, so computed once per process.

    In English whoever asks: the payload is cached publicly, and the ids beside each text let a
    client name things in its own language (the rules page does, through ``play.texts``).
    """
    with translation.override("en"):
        return {
            "daily_table": farkle.DEFAULT_TABLE,
            "turns": farkle.TURNS,
            "tables": [table_data(table) for table in farkle.TABLES.values()],
        }


# The rules change only with a deploy: clients and proxies may keep them for an hour.
@method_decorator(cache_control(public=True, max_age=3600), name="get")
class RulesApi(APIView):
    # Nothing here depends on who asks.
    authentication_classes: list = []

    @extend_schema(
        responses=schemas.RulesSerializer,
        summary="The scoring tables: groups, Farkle risk, par and when to bank",
    )
    def get(self, request: Request) -> Response:
        return Response(rules_data())
