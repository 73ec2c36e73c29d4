"""The walkthrough of ``/learn``: a first game that teaches, on fixed teaching dice.

The throws below are written here by hand and drawn from no seed: they are nobody's puzzle, so
showing them reveals nothing of an open daily or challenge. What they are worth, which keeps
they allow and what a keep leaves in hand all come from the engine (``farkle``), never from
numbers typed here or in the page's script.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import farkle

# The daily's table: the walkthrough teaches the game the player is about to play.
TABLE = farkle.DEFAULT_TABLE


@dataclass(frozen=True)
class Lesson:
    # The step's name, which the page's texts are keyed by.
    name: str
    throw: tuple[int, ...]
    # The positions the player is asked to keep (none on a Farkle), and what ends the step:
    # "roll" (keep and roll on), "bank" (keep and bank) or "next" (a Farkle: on to a new turn).
    keep: tuple[int, ...]
    then: str


# Turn 1 keeps a 1, a 5 and three 4s, rolls the last die on and Farkles; turn 2 keeps all six
# (hot dice), rolls all six again and banks a 1.
LESSONS: tuple[Lesson, ...] = (
    Lesson("keep", (4, 1, 4, 6, 4, 5), (0, 1, 2, 4, 5), "roll"),
    Lesson("farkle", (3,), (), "next"),
    Lesson("hot", (5, 2, 1, 2, 5, 2), (0, 1, 2, 3, 4, 5), "roll"),
    Lesson("bank", (6, 1, 3, 4, 3, 2), (1,), "bank"),
)


def _keeps(throw: Sequence[int]) -> list[dict]:
    return [
        {"positions": list(option.positions), "points": option.points}
        for option in farkle.keep_options(throw, TABLE)
    ]


def teaching_steps() -> dict:
    """The walkthrough's steps as the page reads them (JSON-ready), the points worked out by
    the engine as the turns go, and the final score."""
    steps = []
    score = 0
    at_stake = 0
    for lesson in LESSONS:
        step = {
            "name": lesson.name,
            "throw": list(lesson.throw),
            "kind": farkle.throw_kind(lesson.throw, TABLE),
            "keeps": _keeps(lesson.throw),
            "keep": list(lesson.keep),
            "then": lesson.then,
            "at_stake_before": at_stake,
        }
        if step["kind"] == farkle.FARKLE:
            step["lost"] = at_stake
            at_stake = 0
        else:
            option = farkle.keep_option(lesson.throw, lesson.keep, TABLE)
            at_stake += option.points
            step.update(
                points=option.points,
                hot_dice=option.hot_dice,
                dice_left=option.dice_left,
                at_stake_after=at_stake,
            )
            if lesson.then == "bank":
                score += at_stake
                at_stake = 0
        step["score_after"] = score
        steps.append(step)
    return {"steps": steps, "score": score}


def teaching_facts() -> dict:
    """The scoring facts the first step's sentence states, from the engine."""
    return {
        "one": farkle.score([1], TABLE),
        "five": farkle.score([5], TABLE),
        "three_fours": farkle.score([4, 4, 4], TABLE),
    }
