"""Game solutions under house rules solved once and found by other processes in a shared store
(``farkle.solver.share_game_solutions``): what a process finds there is what it would solve."""

from __future__ import annotations

import dataclasses
import json
import logging
import threading

import pytest

from farkle import solver
from farkle.tables import HouseRules

from .test_house_rules import THREE_DICE

RULES = HouseRules(350, 500)


class DictStore:
    """A shared store in a dict, counting its reads and writes."""

    def __init__(self) -> None:
        self.values: dict[str, bytes] = {}
        self.gets = self.sets = 0

    def get(self, key: str) -> bytes | None:
        self.gets += 1
        return self.values.get(key)

    def set(self, key: str, value: bytes) -> None:
        self.sets += 1
        self.values[key] = value


class FailingStore:
    def get(self, key: str) -> bytes | None:
        raise ConnectionError("the store is down")

    def set(self, key: str, value: bytes) -> None:
        raise ConnectionError("the store is down")


@pytest.fixture
def solves(monkeypatch):
    """The solves this process runs, by (table, rules)."""
    done = []
    original = solver.solve_game

    def counting(table, rules=solver.NO_HOUSE_RULES, turns=10):
        done.append((solver.get_table(table).id, rules))
        return original(table, rules, turns)

    monkeypatch.setattr(solver, "solve_game", counting)
    return done


def test_the_bytes_give_back_the_solution_they_were_made_from():
    for table, rules in [(THREE_DICE, RULES), (THREE_DICE, HouseRules(500, 0))]:
        solved = solver.solve_game(table, rules)

        assert solver.decode_game(solver.encode_game(solved), table, rules) == solved


def test_a_site_tables_solution_decodes_to_its_stored_par():
    table, rules = solver.get_table("farkle-challenge"), HouseRules(500, 0)
    solved = solver.game_solution(table, rules)

    found = solver.decode_game(solver.encode_game(solved), table, rules)

    assert found == solved
    assert found.par == solver.stored_house_pars()[table.id]["500-0"]


def test_bytes_of_other_rules_another_table_or_garbled_are_refused():
    solved = solver.solve_game(THREE_DICE, RULES)
    packed = solver.encode_game(solved)
    other_table = dataclasses.replace(THREE_DICE, id="house-three-dice-b")

    assert solver.decode_game(packed, THREE_DICE, HouseRules(350, 1000)) is None
    assert solver.decode_game(packed, other_table, RULES) is None
    assert solver.decode_game(packed[: len(packed) // 2], THREE_DICE, RULES) is None
    assert solver.decode_game(b"not a solution", THREE_DICE, RULES) is None
    head, _, values = packed.partition(b"\n")
    older = head.replace(b'"format": 1', b'"format": 0')
    assert older != head
    assert solver.decode_game(older + b"\n" + values, THREE_DICE, RULES) is None


def test_a_site_tables_bytes_that_disagree_with_its_stored_par_are_refused():
    table, rules = solver.get_table("farkle-challenge"), HouseRules(500, 0)
    solved = solver.game_solution(table, rules)
    start = dict(solved.start)
    start[solved.initial] += 1.0
    # As a solver with another meaning of its numbers, under the same format, would have made.
    other = dataclasses.replace(solved, start=start)

    assert solver.decode_game(solver.encode_game(other), table, rules) is None


def test_one_process_solves_and_another_finds_it_without_solving(new_process, solves):
    store = DictStore()
    solver.share_game_solutions(store)

    first = solver.game_solution(THREE_DICE, RULES)
    assert solves == [(THREE_DICE.id, RULES)]
    assert list(store.values) == [solver.game_solution_key(THREE_DICE, RULES)]

    solver.forget_game_solutions()  # another process, the same store
    again = solver.game_solution(THREE_DICE, RULES)

    assert again == first
    assert solves == [(THREE_DICE.id, RULES)]
    # Kept in the process once found: the store is read once.
    solver.game_solution(THREE_DICE, RULES)
    assert (store.gets, store.sets) == (2, 1)


def test_a_stale_value_in_the_store_is_solved_again_and_replaced(new_process, solves):
    store = DictStore()
    solver.share_game_solutions(store)
    key = solver.game_solution_key(THREE_DICE, RULES)
    store.values[key] = solver.encode_game(solver.solve_game(THREE_DICE, HouseRules(500, 0)))
    solves.clear()

    found = solver.game_solution(THREE_DICE, RULES)

    assert solves == [(THREE_DICE.id, RULES)]
    assert found.rules == RULES
    assert solver.decode_game(store.values[key], THREE_DICE, RULES) == found


def test_a_failing_store_is_a_store_without_it(new_process, solves, caplog):
    solver.share_game_solutions(FailingStore())

    with caplog.at_level(logging.WARNING, logger="farkle.solver"):
        found = solver.game_solution(THREE_DICE, RULES)

    assert found == solver.solve_game(THREE_DICE, RULES)
    assert solves[0] == (THREE_DICE.id, RULES)
    messages = [record.getMessage() for record in caplog.records]
    assert any("Reading a shared game solution failed" in m for m in messages)
    assert any("Sharing a game solution failed" in m for m in messages)


def test_threads_asking_at_once_wait_for_one_solve(new_process, solves):
    barrier = threading.Barrier(4)
    found = []

    def ask() -> None:
        barrier.wait()
        found.append(solver.game_solution(THREE_DICE, RULES))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert solves == [(THREE_DICE.id, RULES)]
    assert len(found) == 4 and all(f is found[0] for f in found)


def _rewritten(packed: bytes, **changes) -> bytes:
    """The same values under a head with ``changes``."""
    line, _, values = packed.partition(b"\n")
    head = {**json.loads(line), **changes}
    return json.dumps(head).encode() + b"\n" + values


def test_bytes_whose_head_does_not_hold_what_a_solve_would_are_refused():
    table, rules = solver.get_table("farkle-challenge"), HouseRules(500, 0)
    packed = solver.encode_game(solver.game_solution(table, rules))
    head = json.loads(packed.partition(b"\n")[0])
    # The states of a 500-point entry alone: opened or not, never a Farkle in a row counted.
    assert len(head["states"]) == 20 and {row for _, _, row in head["states"]} == {0}

    refused = [
        _rewritten(packed, start=[]),
        # One turn's start off its values (the par, the first turn's, unchanged).
        _rewritten(packed, start=[[s, v + (s[0] == 5)] for s, v in head["start"]]),
        _rewritten(packed, start=head["start"][1:]),
        _rewritten(packed, turns=4),
        _rewritten(packed, turns="10"),
        _rewritten(packed, states=head["states"][::-1]),
        _rewritten(packed, bank=head["bank"][1:]),
        _rewritten(packed, farkle=["x"] * len(head["farkle"])),
        _rewritten(packed, hands=head["hands"][1:]),
        b"[" * 200_000,
    ]
    for bad in refused:
        assert solver.decode_game(bad, table, rules) is None
    assert solver.decode_game(memoryview(packed), table, rules) is None
    assert solver.decode_game(12, table, rules) is None


def test_an_unusable_entry_is_solved_again_and_replaced(new_process, solves, caplog):
    store = DictStore()
    solver.share_game_solutions(store)
    key = solver.game_solution_key(THREE_DICE, RULES)
    good = solver.encode_game(solver.solve_game(THREE_DICE, RULES))
    store.values[key] = _rewritten(good, start=[])
    solves.clear()

    with caplog.at_level(logging.WARNING, logger="farkle.solver"):
        found = solver.game_solution(THREE_DICE, RULES)

    assert solves == [(THREE_DICE.id, RULES)]
    assert found == solver.decode_game(good, THREE_DICE, RULES)
    assert solver.decode_game(store.values[key], THREE_DICE, RULES) == found
    assert any("unusable" in record.getMessage() for record in caplog.records)
