"""A challenge's options in plain words (issue 14): the choices of the creation form, and how a
challenge's page, its leaderboard and its share text say which options it was created with."""

from __future__ import annotations

from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _

import farkle
from play.models import TURN_SECONDS, Puzzle


def _points(value: int) -> str:
    return number_format(value, force_grouping=True)


def option_choices() -> dict[str, Any]:
    """The creation form's choices for each option, off first (the default)."""
    return {
        "entry_minimums": [
            {"value": 0, "label": _("Off")},
            *(
                {
                    "value": n,
                    "label": _("%(points)s points") % {"points": _points(n)},
                }
                for n in farkle.ENTRY_MINIMUMS
                if n
            ),
        ],
        "farkle_penalties": [
            {"value": 0, "label": _("Off")},
            *(
                {
                    "value": n,
                    "label": _("%(points)s points") % {"points": _points(n)},
                }
                for n in farkle.FARKLE_PENALTIES
                if n
            ),
        ],
        "turn_seconds": [
            {"value": "", "label": _("Off")},
            *(
                {"value": s, "label": _("%(seconds)s seconds") % {"seconds": s}}
                for s in TURN_SECONDS
            ),
        ],
    }


def options_lines(puzzle: Puzzle) -> list[str]:
    """Each option the challenge plays with, in a sentence; one sentence when none is on."""
    lines = []
    if puzzle.entry_minimum:
        lines.append(
            _("Entry minimum: no bank below %(points)s points in one turn until your first bank.")
            % {"points": _points(puzzle.entry_minimum)}
        )
    if puzzle.farkle_penalty:
        lines.append(
            _(
                "Three Farkles in a row cost %(points)s points, never below 0; a bank clears "
                "the count."
            )
            % {"points": _points(puzzle.farkle_penalty)}
        )
    if puzzle.turn_seconds:
        lines.append(
            _(
                "A clock of %(seconds)s seconds per turn, from the turn's first throw: when it "
                "runs out the turn ends with nothing banked."
            )
            % {"seconds": puzzle.turn_seconds}
        )
    if not lines:
        lines.append(_("No house rule and no clock: the table applies exactly."))
    return lines


def options_short(puzzle: Puzzle) -> str:
    """The options in a few words, for the share text; empty when none is on."""
    parts = []
    if puzzle.entry_minimum:
        parts.append(_("open at %(points)s") % {"points": _points(puzzle.entry_minimum)})
    if puzzle.farkle_penalty:
        parts.append(_("3 Farkles −%(points)s") % {"points": _points(puzzle.farkle_penalty)})
    if puzzle.turn_seconds:
        parts.append(_("%(seconds)s s per turn") % {"seconds": puzzle.turn_seconds})
    return ", ".join(parts)


def tie_break_note(puzzle: Puzzle) -> str:
    """How equal scores are ordered on the challenge's leaderboard."""
    if puzzle.turn_seconds:
        return _(
            "Timed challenge: equal scores are ranked by total time taken, the quickest first "
            "(each turn's time from its first throw to its end)."
        )
    return _("Equal scores share a rank; the earlier finish is listed first.")
