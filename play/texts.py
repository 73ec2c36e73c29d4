"""The site's words for the engine's ids: table names, turn rules, scoring groups, and the
rules page's worked examples.

The engine (``farkle``) names things by id only (a table's id, a turn rule's id, a group's kind,
count and face); this module is the one place that says them to people, lazily translated, for
the rules API (in English, see ``play.apis.rules``) and the pages (in the reader's language).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

TABLE_NAMES: dict[str, Promise] = {
    "farkle-challenge": _("Farkle Challenge"),
    "farkle-games": _("Classic (farkle.games)"),
    "dice-game-depot": _("Dice Game Depot"),
    "popular": _("Popular (Wikipedia)"),
    "kingdom-come": _("Kingdom Come: Deliverance"),
    "smart-box": _("Smart Box Design"),
    "royal": _("Royal Farkle"),
    "dix-mille": _("Le 10.000"),
}

# Keyed by ``farkle.TURN_RULES``: seed 003's extended sets, seed 004's other rules.
TURN_RULE_TEXTS: dict[str, Promise] = {
    "extend_sets": _(
        "A set kept earlier in the hand grows with newly thrown dice of its face "
        "(6-6-6 kept, then a 6 thrown: 6-6-6-6, worth 600 more)."
    ),
    "whole_straights": _("A thrown straight is kept whole, never split for its 1 or its 5."),
    "whole_sets": _(
        "Three or more dice of one face in a throw are kept all together or not at all "
        "(from 1-1-1-5-5: the three 1s, never one or two of them)."
    ),
    "pair_rethrow": _(
        "Two dice showing a pair that does not score (2-2, 3-3, 4-4, 6-6) are thrown "
        "again; the turn's points stay."
    ),
    "full_hand_must_roll": _(
        "Once every die has scored, all of them must be thrown again: no banking on a full hand."
    ),
}

# One phrase per count rather than a number word spliced in: languages agree differently.
_FACES_PHRASES: dict[int, Promise] = {
    1: _("a single %(face)s"),
    3: _("three %(face)ss"),
    4: _("four %(face)ss"),
    5: _("five %(face)ss"),
    6: _("six %(face)ss"),
}
_OF_A_KIND: dict[int, Promise] = {
    4: _("four of a kind"),
    5: _("five of a kind"),
    6: _("six of a kind"),
}
_STRAIGHT = _("straight %(run)s")
_GROUPS: dict[str, Promise] = {
    "three_pairs": _("three pairs"),
    "two_triplets": _("two triplets"),
}

# Worked examples of the rules page (docs/rules.md); their points come from the engine.
WORKED_EXAMPLES: list[tuple[tuple[int, ...], Promise]] = [
    ((1, 1, 1, 1), _("three 1s and a single 1 beat four of a kind")),
    ((1, 1, 1, 1, 5, 5), _("three 1s, a 1 and two 5s")),
    ((3, 3, 3, 5, 5, 5), _("two triplets")),
    ((4, 4, 4, 4, 4, 4), _("six of a kind")),
    ((1, 2, 3, 4, 5, 6), _("a straight")),
    ((2, 2, 3, 3, 6, 6), _("three pairs of different values")),
    ((2, 2, 2, 2, 3, 3), _("not three pairs: the four 2s score, the 3s cannot be kept")),
    ((2, 3, 4, 6), _("a Farkle: nothing scores")),
]


def table_name(table_id: str) -> str:
    """A scoring table's name in the current language (its id for an unknown table)."""
    name = TABLE_NAMES.get(table_id)
    return table_id if name is None else str(name)


def turn_rule_text(rule_id: str) -> str:
    """What a turn rule of ``farkle.TURN_RULES`` means, in the current language."""
    return str(TURN_RULE_TEXTS[rule_id])


def group_label(kind: str, count: int, face: int | None, dice: Sequence[int]) -> str:
    """A scoring group named in the current language from its parts: ``kind`` is a
    ``farkle.Combo`` kind or ``of_a_kind`` (that many of any face, all paying the same)."""
    if kind in _GROUPS:
        return str(_GROUPS[kind])
    if kind == "straight":
        return str(_STRAIGHT) % {"run": "-".join(map(str, dice))}
    if kind == "of_a_kind":
        return str(_OF_A_KIND[count])
    return str(_FACES_PHRASES[count]) % {"face": face}


# Issue 12: the grade of a decision by the expected points it lost (farkle.analysis.GRADES).
GRADE_NAMES = {
    "best": _("best"),
    "good": _("good"),
    "inaccuracy": _("inaccuracy"),
    "mistake": _("mistake"),
    "blunder": _("blunder"),
}
BOT_NAMES = {"easy": _("Easy"), "medium": _("Medium"), "hard": _("Hard (optimal)")}
