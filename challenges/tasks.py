"""Celery tasks of challenges: solving a ruled challenge's game off the request path."""

from __future__ import annotations

from celery import shared_task

from challenges import solutions
from farkle import solver
from farkle.tables import HouseRules


@shared_task(name="challenges.solve_house_rules")
def solve_house_rules_task(table: str, entry_minimum: int, farkle_penalty: int) -> dict:
    """Solve the ten-turn game of ``table`` under these house rules into the shared cache, or
    keep it there longer if it is there (challenges/solutions.py). Safe to run again."""
    rules = HouseRules(entry_minimum=entry_minimum, farkle_penalty=farkle_penalty)
    solved = solutions.prepare(table, rules)
    return {"table": table, "rules": solver.house_key(rules), "solved": solved}
