"""The replay page's steps: each throw of a finished game with the player's choice, the optimal
one and the points lost, built from the analysis payload (so the page shows what the API shows)."""

from __future__ import annotations

from typing import Any

from play.texts import BOT_NAMES, GRADE_NAMES


def _faces(dice: list[int], positions: list[int]) -> list[int]:
    return [dice[i] for i in positions]


def replay_steps(data: dict[str, Any]) -> list[dict[str, Any]]:
    """One step per throw, in order: its dice (kept ones marked), the choice, the best, the loss."""
    decisions = {(d["turn"], d["roll"]): d for d in data["decisions"]}
    # A decision's number, as the retries API takes it (the analysis's order).
    numbers = {(d["turn"], d["roll"]): i for i, d in enumerate(data["decisions"])}
    costly = {
        (data["decisions"][i]["turn"], data["decisions"][i]["roll"]) for i in data["costliest"]
    }
    steps = []
    for number, throw in enumerate(data["throws"], start=1):
        decision = decisions.get((throw["turn"], throw["roll"]))
        kept = set(decision["chosen"]["dice"]) if decision else set()
        step = {
            "number": number,
            "turn": throw["turn"],
            "roll": throw["roll"],
            "kind": throw["kind"],
            "luck": throw["luck"],
            "dice": [{"face": face, "kept": i in kept} for i, face in enumerate(throw["dice"])],
            "decision": None,
            "costly": (throw["turn"], throw["roll"]) in costly,
        }
        if decision:
            chosen, best = decision["chosen"], decision["best"]
            step["decision"] = {
                "index": numbers[(throw["turn"], throw["roll"])],
                "turn_points": decision["turn_points"],
                "chosen": {**chosen, "faces": _faces(throw["dice"], chosen["dice"])},
                "best": {**best, "faces": _faces(throw["dice"], best["dice"])},
                "same": (chosen["dice"], chosen["then"]) == (best["dice"], best["then"]),
                "lost": decision["lost"],
                "grade": decision["grade"],
                "grade_name": GRADE_NAMES[decision["grade"]],
            }
        steps.append(step)
    return steps


def turn_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The game turn by turn beside the bots' (once their games may be shown)."""
    bots = [b for b in data["bots"] or [] if b["turns"] is not None]
    rows = []
    for index, turn in enumerate(data["turns"]):
        rows.append(
            {
                "turn": turn["turn"],
                "points": turn["points"],
                "farkle": turn["farkle"],
                "bots": [
                    {
                        "points": b["turns"][index]["points"],
                        "farkle": b["turns"][index]["farkle"],
                        "throws": [t["dice"] for t in b["turns"][index]["throws"]],
                    }
                    for b in bots
                ],
            }
        )
    return rows


def bot_columns(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The bots whose games the page may show, with their names and scores."""
    return [
        {"level": b["level"], "name": BOT_NAMES[b["level"]], "score": b["score"]}
        for b in data["bots"] or []
        if b["turns"] is not None
    ]
