"""Optimal play of one turn: the expected value of every state under play that maximises points.

A state is the turn's points at risk and the hand — dice in hand, and (seed 003's tables only)
the sets kept in the hand that new dice may extend — at the moment the player chooses between
rolling and banking. Keeping more points never hurts, so after a throw only the best-scoring keep
for each next hand matters; throws with the same such options are merged. Values are filled from
high turn points down, since every keep adds points. Far enough up, banking is always best, which
bounds the table (``cap``).

Solving every table takes a second or more, so the site never solves: ``compute`` runs the value
iteration, ``python -m farkle solutions --write`` stores its results under ``farkle/data/``
(committed, and checked against a fresh solve by the tests), and ``solve`` reads them back in
milliseconds. Data rather than solving at start-up, because every process (each web worker,
Celery, ``manage.py``, each test run) would otherwise pay the solve, and the per-decision
analysis and bots read the same tables.
"""

from __future__ import annotations

import array
import hashlib
import json
import logging
import lzma
import sys
import threading
import zlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property, reduce
from math import gcd
from pathlib import Path
from typing import Any, Protocol

from .outcomes import throws
from .tables import (
    DEFAULT_TABLE,
    ENTRY_MINIMUMS,
    FARKLE_PENALTIES,
    NO_HOUSE_RULES,
    TABLES,
    HouseRules,
    Table,
    get_table,
)
from .turn import RETHROW, Hand, Sets, keep_options, throw_kind

# Far above any threshold of the seeds' tables: with six dice, rolling stops paying off well
# before 20,000 points at risk, and the cap is checked after solving.
DEFAULT_CAP = 40_000

# The stored solutions: an index (JSON: per table its hands and constants) and every value
# array packed as little-endian doubles, compressed, in the index's order.
DATA = Path(__file__).resolve().parent / "data"
INDEX_FILE = "solutions.json"
VALUES_FILE = "solutions.f64.xz"
# Par of every site table under every combination of house rules (a few seconds each to solve).
HOUSE_PARS_FILE = "house_pars.json"
# Changes when the meaning of the stored numbers changes.
FORMAT = 1

logger = logging.getLogger(__name__)

# After a throw: the next hand, the units gained, and whether banking is allowed there.
Option = tuple[Hand, int, bool]


@dataclass(frozen=True)
class Decision:
    """The best play after a throw: which positions to keep, then roll or bank."""

    positions: tuple[int, ...]
    then: str
    expected: float


@dataclass(frozen=True)
class Solution:
    """Expected values of a table's states; points are counted in ``unit`` steps."""

    table: Table
    unit: int
    cap_units: int
    # roll[hand][u]: expected banked points when throwing from ``hand`` with u units at risk.
    roll: dict[Hand, list[float]]
    # tail[hand] = (a, b): beyond the cap every state banks, so throwing from ``hand`` with u
    # units at risk is worth exactly unit × (u × a + b).
    tail: dict[Hand, tuple[float, float]]

    def roll_value(self, turn_points: int, dice: int, sets: Sets = ()) -> float:
        """Expected banked points of throwing ``dice`` dice with ``turn_points`` at risk."""
        hand = (dice, sets)
        u = self._units(turn_points)
        if u <= self.cap_units:
            return self.roll[hand][u]
        a, b = self.tail[hand]
        return self.unit * (u * a + b)

    def value(self, turn_points: int, dice: int, sets: Sets = ()) -> float:
        """Expected banked points with ``turn_points`` at risk and ``dice`` in hand, played best."""
        return max(float(turn_points), self.roll_value(turn_points, dice, sets))

    def should_roll(self, turn_points: int, dice: int, sets: Sets = ()) -> bool:
        """Whether rolling ``dice`` dice beats banking ``turn_points``."""
        return self.roll_value(turn_points, dice, sets) > turn_points

    def expected_turn(self) -> float:
        """Expected points of one turn, from a full hand and nothing at risk."""
        return self.roll[(self.table.dice, ())][0]

    def best(
        self, turn_points: int, throw: tuple[int, ...] | list[int], sets: Sets = ()
    ) -> Decision | None:
        """The best keep of a throw and what to do next; None when there is nothing to keep."""
        choices = []
        for option in keep_options(throw, self.table, sets):
            total = turn_points + option.points
            roll = self.roll_value(total, *option.hand)
            then = "roll" if not option.may_bank or roll > total else "bank"
            worth = roll if then == "roll" else float(total)
            # Prefer more points, then fewer dice kept (more left to throw), on exact ties.
            choices.append((worth, option.points, -len(option.positions), option.positions, then))
        if not choices:
            return None
        expected, _, _, positions, then = max(choices)
        return Decision(positions=positions, then=then, expected=expected)

    def bank_thresholds(self) -> dict[int, int]:
        """Per dice in hand (no sets kept), the turn points from which banking is always best."""
        found = {}
        for n in range(self.table.dice, 0, -1):
            roll = self.roll[(n, ())]
            u = self.cap_units
            while u > 0 and roll[u - 1] <= (u - 1) * self.unit:
                u -= 1
            found[n] = u * self.unit
        return found

    @cached_property
    def groups(self) -> dict[Hand, list[tuple[float, tuple[Option, ...]]]]:
        """Each hand's scoring throws as (probability, options), enumerated on first use."""
        return {hand: found[0] for hand, found in self._throws.items()}

    @cached_property
    def rethrow(self) -> dict[Hand, float]:
        """Each hand's probability of a throw that is thrown again (seed 004's pairs)."""
        return {hand: found[1] for hand, found in self._throws.items()}

    @cached_property
    def _throws(self) -> dict[Hand, tuple[list[tuple[float, tuple[Option, ...]]], float]]:
        # For analysis only (a turn's distribution, say): the values never need them.
        return {hand: _groups(self.table, hand, self.unit) for hand in self.roll}

    def _units(self, turn_points: int) -> int:
        if turn_points < 0 or turn_points % self.unit:
            raise ValueError(f"Turn points are a multiple of {self.unit}.")
        return turn_points // self.unit


def _groups(table: Table, hand: Hand, unit: int) -> tuple[list[tuple[float, tuple]], float]:
    """A hand's throws merged by their best gain per next hand, and its rethrow probability."""
    dice, sets = hand
    merged: dict[tuple[Option, ...], float] = defaultdict(float)
    rethrow = 0.0
    for throw, probability in throws(dice):
        if throw_kind(throw, table, sets) == RETHROW:
            rethrow += float(probability)
            continue
        best: dict[tuple[Hand, bool], int] = {}
        for option in keep_options(throw, table, sets):
            key = (option.hand, option.may_bank)
            best[key] = max(best.get(key, 0), option.points // unit)
        options = tuple(sorted((h, gain, may_bank) for (h, may_bank), gain in best.items()))
        if options:
            merged[options] += float(probability)
    return [(p, options) for options, p in merged.items()], rethrow


def compute(table: str | Table = DEFAULT_TABLE, cap: int = DEFAULT_CAP) -> Solution:
    """Solve a table by value iteration (seconds: the site reads ``solve``'s stored data)."""
    t = get_table(table)
    unit = reduce(gcd, (c.points for c in t.combos()))
    top = cap // unit
    # Every hand reachable from a full one.
    groups, rethrow = {}, {}
    pending = [(t.dice, ())]
    while pending:
        hand = pending.pop()
        if hand in groups:
            continue
        groups[hand], rethrow[hand] = _groups(t, hand, unit)
        pending += [h for _, options in groups[hand] for h, _, _ in options if h not in groups]
    reach = top + max(c.points for c in t.combos()) * 3 // unit + 1
    # value[hand][u]: what the hand is worth when the player may still choose to bank; beyond
    # ``top`` the player banks. roll[hand][u]: what throwing from it is worth.
    value = {h: [float(u * unit) for u in range(reach + 1)] for h in groups}
    roll = {h: [float(u * unit) for u in range(reach + 1)] for h in groups}
    for u in range(top, -1, -1):
        for hand, options_by_throw in groups.items():
            expected = 0.0
            for probability, options in options_by_throw:
                expected += probability * max(
                    (value if may_bank else roll)[h][u + gain] for h, gain, may_bank in options
                )
            # A pair thrown again leaves the state as it was: solve the loop exactly.
            expected /= 1 - rethrow[hand]
            roll[hand][u] = expected
            value[hand][u] = max(u * unit, expected)
    for values in roll.values():
        if values[top] > top * unit:
            raise ValueError(f"Cap {cap} is too low for {t.id}: rolling still pays there.")
    # Beyond the cap one throw's expectation is exact: every state after it banks.
    tail = {}
    for hand, options_by_throw in groups.items():
        scoring = sum(p for p, _ in options_by_throw)
        gained = sum(p * max(gain for _, gain, _ in options) for p, options in options_by_throw)
        tail[hand] = (scoring / (1 - rethrow[hand]), gained / (1 - rethrow[hand]))
    return Solution(
        table=t,
        unit=unit,
        cap_units=top,
        roll={h: values[: top + 1] for h, values in roll.items()},
        tail=tail,
    )


@cache
def solve(table: str | Table = DEFAULT_TABLE, cap: int = DEFAULT_CAP) -> Solution:
    """A table's solution: the stored one for the site's tables, computed for any other."""
    t = get_table(table)
    if cap == DEFAULT_CAP and TABLES.get(t.id) is t:
        return stored()[t.id]
    return compute(t, cap)


def fingerprint(table: Table) -> str:
    """A digest of a table's rules, to tell stored solutions made for other rules."""
    return hashlib.sha256(repr(table).encode()).hexdigest()[:16]


def encode(solutions: Iterable[Solution]) -> tuple[str, bytes]:
    """The stored form of solutions: the index's JSON text and the compressed values."""
    index: dict[str, Any] = {"format": FORMAT, "cap": DEFAULT_CAP, "tables": {}}
    values = array.array("d")
    for solution in solutions:
        hands = []
        for hand in sorted(solution.roll):
            dice, sets = hand
            hands.append([dice, [list(s) for s in sets], list(solution.tail[hand])])
            values.extend(solution.roll[hand])
        index["tables"][solution.table.id] = {
            "fingerprint": fingerprint(solution.table),
            "unit": solution.unit,
            "cap_units": solution.cap_units,
            "hands": hands,
        }
    if sys.byteorder == "big":
        values.byteswap()
    return _index_text(index), lzma.compress(values.tobytes(), preset=9)


def _index_text(index: dict[str, Any]) -> str:
    """The index as JSON with one line per hand, so that a change of rules reads as a diff."""
    lines = ["{", f' "format": {index["format"]},', f' "cap": {index["cap"]},', ' "tables": {']
    tables = list(index["tables"].items())
    for i, (table_id, entry) in enumerate(tables):
        lines.append(f"  {json.dumps(table_id)}: {{")
        for key in ("fingerprint", "unit", "cap_units"):
            lines.append(f"   {json.dumps(key)}: {json.dumps(entry[key])},")
        lines.append('   "hands": [')
        hands = [f"    {json.dumps(hand)}" for hand in entry["hands"]]
        lines.append(",\n".join(hands))
        lines.append("   ]")
        lines.append("  }" + ("," if i < len(tables) - 1 else ""))
    lines += [" }", "}", ""]
    return "\n".join(lines)


def decode(text: str, packed: bytes) -> dict[str, Solution]:
    """Solutions from their stored form; ValueError when they were made for other rules."""
    index = json.loads(text)
    if index["format"] != FORMAT or index["cap"] != DEFAULT_CAP:
        raise ValueError("Stale solutions: run `python -m farkle solutions --write`.")
    values = array.array("d")
    values.frombytes(lzma.decompress(packed))
    if sys.byteorder == "big":
        values.byteswap()
    found, at = {}, 0
    for table_id, entry in index["tables"].items():
        table = TABLES[table_id]
        if entry["fingerprint"] != fingerprint(table):
            raise ValueError(
                f"The stored solution of {table_id} is for other rules: "
                "run `python -m farkle solutions --write`."
            )
        size = entry["cap_units"] + 1
        roll, tail = {}, {}
        for dice, sets, (a, b) in entry["hands"]:
            hand = (dice, tuple((face, count) for face, count in sets))
            roll[hand] = values[at : at + size].tolist()
            tail[hand] = (a, b)
            at += size
        found[table_id] = Solution(
            table=table, unit=entry["unit"], cap_units=entry["cap_units"], roll=roll, tail=tail
        )
    if set(found) != set(TABLES) or at != len(values):
        raise ValueError("Stale solutions: run `python -m farkle solutions --write`.")
    return found


@cache
def stored(directory: Path = DATA) -> dict[str, Solution]:
    """Every site table's solution, read from the files ``write`` made (once per process)."""
    return decode((directory / INDEX_FILE).read_text(), (directory / VALUES_FILE).read_bytes())


def write(directory: Path = DATA) -> None:
    """Solve every site table afresh and store the solutions in ``directory``."""
    text, packed = encode(compute(table) for table in TABLES.values())
    directory.mkdir(parents=True, exist_ok=True)
    (directory / INDEX_FILE).write_text(text)
    (directory / VALUES_FILE).write_bytes(packed)
    # The house pars build on the stored turn solutions just written.
    stored.cache_clear()
    solve.cache_clear()
    forget_game_solutions()
    if directory == DATA:
        (directory / HOUSE_PARS_FILE).write_text(house_pars_text())


# House rules (challenges only): the value of a turn depends on the game around it. A game-level
# state is (turns left, opened, Farkles in a row); from the last turn back, each state's turn is
# solved exactly with its own end rewards: banking u points is worth u plus the next state's
# value (opened, no Farkle in a row), a Farkle the next state's value (one more in a row, or the
# penalty at the third, seed 004), and before opening a bank needs the entry minimum.
# The penalty is counted in full: seed 000's floor at 0 only ever lowers a penalty, so ``par``
# is a lower bound of the exact optimum with the floor, short of it by at most the penalty times
# the chance that a third Farkle in a row finds less than the penalty banked (docs/rules.md).
GameState = tuple[int, bool, int]


@dataclass(frozen=True)
class GameSolution:
    """Optimal play of a ten-turn game under house rules, state by game-level state."""

    solution: Solution
    rules: HouseRules
    turns: int
    # start[(turns left, opened, Farkles in a row)]: expected points still to come at the start
    # of a turn (score changes from here on, penalties included).
    start: dict[GameState, float]
    # roll[state][hand][u]: the same when throwing from ``hand`` with u units at risk.
    roll: dict[GameState, dict[Hand, list[float]]]
    # bank[state]: what banking is worth beyond the turn's points (the next state's value).
    bank: dict[GameState, float]
    # farkle[state]: what a Farkle leaves (the next state's value, the penalty taken).
    farkle: dict[GameState, float]

    @property
    def par(self) -> float:
        """Expected final score of the whole game under optimal play."""
        return self.start[self.initial]

    @property
    def initial(self) -> GameState:
        """The game-level state of a new game."""
        return (self.turns, not self.rules.entry_minimum, 0)

    def roll_value(self, state: GameState, turn_points: int, dice: int, sets: Sets = ()) -> float:
        """Expected points still to come when throwing ``dice`` with ``turn_points`` at risk."""
        u = self.solution._units(turn_points)
        values = self.roll[state][(dice, sets)]
        if u < len(values):
            return values[u]
        # Beyond the cap every state banks: one throw's expectation, as in the plain tail.
        scoring, _ = self.solution.tail[(dice, sets)]
        plain = self.solution.roll_value(turn_points, dice, sets)
        return plain + scoring * self.bank[state] + (1 - scoring) * self.farkle[state]

    def may_bank(self, state: GameState, turn_points: int) -> bool:
        """Whether the entry minimum lets the player bank ``turn_points`` in ``state``."""
        return state[1] or turn_points >= self.rules.entry_minimum

    def value(self, state: GameState, turn_points: int, dice: int, sets: Sets = ()) -> float:
        """Expected points still to come at a decision with ``turn_points`` at risk, played best."""
        roll = self.roll_value(state, turn_points, dice, sets)
        if not self.may_bank(state, turn_points):
            return roll
        return max(turn_points + self.bank[state], roll)

    def best(
        self,
        state: GameState,
        turn_points: int,
        throw: tuple[int, ...] | list[int],
        sets: Sets = (),
    ) -> Decision | None:
        """The best keep of a throw in ``state`` and what to do next; None for a Farkle."""
        choices = []
        for option in keep_options(throw, self.solution.table, sets):
            total = turn_points + option.points
            roll = self.roll_value(state, total, *option.hand)
            bank = total + self.bank[state]
            can_bank = option.may_bank and self.may_bank(state, total)
            then = "bank" if can_bank and bank >= roll else "roll"
            worth = bank if then == "bank" else roll
            choices.append((worth, option.points, -len(option.positions), option.positions, then))
        if not choices:
            return None
        expected, _, _, positions, then = max(choices)
        return Decision(positions=positions, then=then, expected=expected)


def _turn_under(
    solution: Solution, bank_next: float, farkle_next: float, minimum: int
) -> dict[Hand, list[float]]:
    """Throw values of one turn whose bank is worth u + ``bank_next`` (from ``minimum`` points
    on) and whose Farkle is worth ``farkle_next``."""
    unit, top = solution.unit, solution.cap_units
    groups, rethrow = solution.groups, solution.rethrow
    hands = list(groups)
    reach = top + max(g for found in groups.values() for _, o in found for _, g, _ in o) + 1
    lowest = -(-minimum // unit)

    def bank(u: int) -> float:
        return u * unit + bank_next if u >= lowest else float("-inf")

    value = {h: [bank(u) for u in range(reach + 1)] for h in hands}
    roll = {h: [u * unit + bank_next for u in range(reach + 1)] for h in hands}
    # Per hand: the Farkle's share of the value, the rethrow divisor, and each throw's options
    # bound to the very lists they read, which the loop fills in place.
    plan = []
    for hand in hands:
        found = groups[hand]
        farkle = (1 - rethrow[hand] - sum(p for p, _ in found)) * farkle_next
        bound = [
            (p, [((value if may_bank else roll)[h], gain) for h, gain, may_bank in options])
            for p, options in found
        ]
        plan.append((value[hand], roll[hand], farkle, 1 - rethrow[hand], bound))
    for u in range(top, -1, -1):
        banked = bank(u)
        for values, rolls, farkle, divisor, bound in plan:
            expected = farkle
            for probability, options in bound:
                expected += probability * max([lst[u + gain] for lst, gain in options])
            expected /= divisor
            rolls[u] = expected
            values[u] = banked if banked > expected else expected
    for hand in hands:
        if roll[hand][top] > bank(top):
            raise ValueError(f"Cap too low for {solution.table.id} under house rules.")
    return {h: values[: top + 1] for h, values in roll.items()}


# A game's turns (seed 000).
TURNS = 10


def _turn_states(rules: HouseRules) -> list[tuple[bool, int]]:
    """(opened, Farkles in a row) a turn can start in under ``rules``."""
    return [
        (opened, in_row)
        for opened in ((True, False) if rules.entry_minimum else (True,))
        for in_row in range(3 if rules.farkle_penalty and opened else 1)
    ]


def game_states(rules: HouseRules, turns: int = TURNS) -> list[GameState]:
    """Every game-level state with a turn still to play under ``rules``, sorted."""
    return sorted((t, o, r) for t in range(1, turns + 1) for o, r in _turn_states(rules))


def solve_game(
    table: str | Table = DEFAULT_TABLE, rules: HouseRules = NO_HOUSE_RULES, turns: int = TURNS
) -> GameSolution:
    """Solve a whole game under house rules by dynamic programming over game-level states."""
    solution = solve(table)
    full = (solution.table.dice, ())
    start: dict[GameState, float] = {}
    rolls: dict[GameState, dict[Hand, list[float]]] = {}
    banks: dict[GameState, float] = {}
    farkles: dict[GameState, float] = {}
    for t in range(turns + 1):
        for opened, in_row in _turn_states(rules):
            state = (t, opened, in_row)
            if t == 0:
                start[state] = 0.0
                continue
            bank_next = start[(t - 1, True, 0)]
            if not opened or not rules.farkle_penalty:
                # Seed 004: before opening a lost turn gives no cross.
                farkle_next = start[(t - 1, opened, 0)]
            elif in_row == 2:
                farkle_next = start[(t - 1, True, 0)] - rules.farkle_penalty
            else:
                farkle_next = start[(t - 1, True, in_row + 1)]
            minimum = 0 if opened else rules.entry_minimum
            if bank_next == farkle_next and not minimum:
                # Nothing after the turn depends on it: the plain turn, shifted.
                rolls[state] = {h: [v + bank_next for v in vs] for h, vs in solution.roll.items()}
            else:
                rolls[state] = _turn_under(solution, bank_next, farkle_next, minimum)
            banks[state] = bank_next
            farkles[state] = farkle_next
            start[state] = rolls[state][full][0]
    return GameSolution(
        solution=solution,
        rules=rules,
        turns=turns,
        start=start,
        roll=rolls,
        bank=banks,
        farkle=farkles,
    )


class SharedStore(Protocol):
    """Bytes kept under a key for every process of a deployment (the site's cache): where game
    solutions solved once are found by the others. Either may fail; nothing is then shared."""

    def get(self, key: str) -> bytes | None: ...

    def set(self, key: str, value: bytes) -> None: ...


# The game solutions this process solved or was given, and the store that shares them (the site
# sets one; the engine alone solves in each process).
_games: dict[tuple[Table, HouseRules], GameSolution] = {}
_solving: defaultdict[tuple[Table, HouseRules], threading.Lock] = defaultdict(threading.Lock)
_games_lock = threading.Lock()
_shared: SharedStore | None = None


def share_game_solutions(store: SharedStore | None) -> None:
    """Find the game solutions other processes solved in ``store``, and put each solved here
    there (None: solve each in this process, as without a store)."""
    global _shared
    _shared = store


def forget_game_solutions() -> None:
    """Drop this process's game solutions (the store keeps its own). Its locks stay: a thread
    solving meanwhile keeps others of the same table and rules waiting for it."""
    with _games_lock:
        _games.clear()


def game_solution(
    table: str | Table = DEFAULT_TABLE, rules: HouseRules = NO_HOUSE_RULES
) -> GameSolution:
    """The ten-turn game's solution under ``rules``: solved once for every process sharing a
    store (seconds: 2.3-6.6 s on farkle-challenge, 18 s on royal with both rules), found there
    by the others in milliseconds, and kept in each process that needed it."""
    t = get_table(table)
    # Frozen tables compare by every field, as the store's fingerprint (their repr) does, without
    # hashing that text at every call (the Hard bot asks once per throw).
    key = (t, rules)
    found = _games.get(key)
    if found is not None:
        return found
    with _games_lock:
        lock = _solving[key]
    # One thread solves; the others of this process wait for its solution, not a solve each.
    with lock:
        found = _games.get(key)
        if found is None:
            found = _shared_game(t, rules)
            if found is None:
                found = solve_game(t, rules)
                _share_game(found)
            _games[key] = found
    return found


def game_solution_key(table: Table, rules: HouseRules) -> str:
    """The store's key of a game solution: the table's rules, the house rules and the format."""
    return f"farkle:game-solution:{FORMAT}:{fingerprint(table)}:{house_key(rules)}:{DEFAULT_CAP}"


def _shared_game(table: Table, rules: HouseRules) -> GameSolution | None:
    store = _shared
    if store is None:
        return None
    try:
        packed = store.get(game_solution_key(table, rules))
    except Exception as error:  # a store that fails is a store without it
        logger.warning("Reading a shared game solution failed: %r", error)
        return None
    if packed is None:
        return None
    found = decode_game(packed, table, rules)
    if found is None:
        # The caller then solves and overwrites it: a damaged entry fails no request.
        logger.warning("The shared game solution of %s under %s is unusable", table.id, rules)
    return found


def _share_game(found: GameSolution) -> None:
    store = _shared
    if store is None:
        return
    try:
        store.set(game_solution_key(found.solution.table, found.rules), encode_game(found))
    except Exception as error:
        logger.warning("Sharing a game solution failed: %r", error)


def encode_game(found: GameSolution) -> bytes:
    """A game solution as bytes: a JSON line of its states and their end values, then every
    throw value, state by state and hand by hand, as little-endian doubles, compressed."""
    states = sorted(found.roll)
    hands = sorted(found.solution.roll)
    head = {
        "format": FORMAT,
        "fingerprint": fingerprint(found.solution.table),
        "rules": house_key(found.rules),
        "turns": found.turns,
        "states": [list(state) for state in states],
        "hands": [[dice, [list(s) for s in sets]] for dice, sets in hands],
        "start": [[list(state), value] for state, value in found.start.items()],
        "bank": [found.bank[state] for state in states],
        "farkle": [found.farkle[state] for state in states],
    }
    values = array.array("d")
    for state in states:
        for hand in hands:
            values.extend(found.roll[state][hand])
    if sys.byteorder == "big":
        values.byteswap()
    return json.dumps(head).encode() + b"\n" + zlib.compress(values.tobytes(), 1)


def decode_game(packed: object, table: Table, rules: HouseRules) -> GameSolution | None:
    """The game solution ``encode_game`` made for ``table`` and ``rules``; None when the bytes
    are of another table, rules or format, or do not hold what a solve would (its states, its
    hands, its values, and for a site table the stored par)."""
    if not isinstance(packed, bytes):
        return None
    try:
        line, _, compressed = packed.partition(b"\n")
        head = json.loads(line)
        if (head["format"], head["fingerprint"], head["rules"], head["turns"]) != (
            FORMAT,
            fingerprint(table),
            house_key(rules),
            TURNS,
        ):
            return None
        solution = solve(table)
        states = [(t, bool(opened), row) for t, opened, row in head["states"]]
        hands = [(dice, tuple((f, c) for f, c in sets)) for dice, sets in head["hands"]]
        if states != game_states(rules) or hands != sorted(solution.roll):
            return None
        values = array.array("d")
        values.frombytes(zlib.decompress(compressed))
        if sys.byteorder == "big":
            values.byteswap()
        size = solution.cap_units + 1
        if len(values) != len(states) * len(hands) * size:
            return None
        roll, at = {}, 0
        for state in states:
            roll[state] = {}
            for hand in hands:
                roll[state][hand] = values[at : at + size].tolist()
                at += size
        start = {(t, bool(o), r): float(v) for (t, o, r), v in head["start"]}
        found = GameSolution(
            solution=solution,
            rules=rules,
            turns=TURNS,
            start=start,
            roll=roll,
            bank=dict(zip(states, map(float, head["bank"]), strict=True)),
            farkle=dict(zip(states, map(float, head["farkle"]), strict=True)),
        )
        if set(start) != {(0, o, r) for _, o, r in states} | set(states):
            return None
        # A turn's start is its full hand's first throw value: the head and the values agree.
        full = (table.dice, ())
        if any(start[state] != roll[state][full][0] for state in states):
            return None
        # The stored par, where there is one, is what this process would solve.
        stored = stored_house_pars().get(table.id, {}).get(house_key(rules))
        if TABLES.get(table.id) is table and stored is not None and found.par != stored:
            return None
    except (ValueError, KeyError, TypeError, IndexError, RecursionError, zlib.error):
        return None
    return found


def game_par(table: str | Table = DEFAULT_TABLE, rules: HouseRules = NO_HOUSE_RULES) -> float:
    """Expected ten-turn score under optimal play with ``rules`` (without: ten times a turn)."""
    t = get_table(table)
    if rules.off:
        return solve(t).expected_turn() * 10
    if TABLES.get(t.id) is t:
        found = stored_house_pars().get(t.id, {}).get(house_key(rules))
        if found is not None:
            return found
    return game_solution(t, rules).par


def house_key(rules: HouseRules) -> str:
    """The stored pars' key of a combination of house rules: "entry-penalty"."""
    return f"{rules.entry_minimum}-{rules.farkle_penalty}"


def house_combinations() -> list[HouseRules]:
    """Every combination of the seeds' house rules with at least one of them on."""
    found = [HouseRules(e, p) for e in ENTRY_MINIMUMS for p in FARKLE_PENALTIES]
    return [rules for rules in found if not rules.off]


def house_pars_text() -> str:
    """The stored pars under house rules, solved afresh, as JSON text."""
    found: dict[str, Any] = {}
    for table_id, table in TABLES.items():
        pars = {house_key(r): solve_game(table, r).par for r in house_combinations()}
        found[table_id] = {"fingerprint": fingerprint(table), "pars": pars}
    return json.dumps({"format": FORMAT, "tables": found}, indent=1) + "\n"


@cache
def stored_house_pars(directory: Path = DATA) -> dict[str, dict[str, float]]:
    """The stored pars under house rules by table, for tables whose rules have not changed."""
    path = directory / HOUSE_PARS_FILE
    if not path.exists():
        return {}
    data = json.loads(path.read_text())
    if data["format"] != FORMAT:
        return {}
    return {
        table_id: entry["pars"]
        for table_id, entry in data["tables"].items()
        if table_id in TABLES and entry["fingerprint"] == fingerprint(TABLES[table_id])
    }
