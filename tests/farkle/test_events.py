"""What an action caused, as the engine reports it: hand-written sequences for the seeds' rules."""

import hashlib

from farkle import Event, Game, Keep, Roll, is_farkle, keep_options, roll_vector, score


def seed(i: int) -> bytes:
    return hashlib.sha256(f"events-test-{i}".encode()).digest()


def first_seed(predicate) -> bytes:
    """The first test seed that ``predicate`` accepts (a fixed, repeatable search)."""
    return next(seed(i) for i in range(20_000) if predicate(seed(i)))


def test_a_new_game_has_no_events():
    assert Game.new(seed(0)).events == ()


def test_a_first_throw_farkle_loses_nothing_and_starts_the_next_turn():
    s = first_seed(lambda s: is_farkle(roll_vector(s, 1, 1)))

    game = Game.new(s).apply(Roll())

    assert game.events == (
        Event("rolled", 1, roll=1, dice=tuple(roll_vector(s, 1, 1))),
        Event("farkle", 1, points=0),
        Event("turn_started", 2),
    )


def test_a_farkle_after_a_keep_loses_the_points_at_risk():
    # Seed 000: a 1 kept (100), then the five dice thrown score nothing: the 100 are lost.
    def one_then_farkle(s):
        return 1 in roll_vector(s, 1, 1) and is_farkle(roll_vector(s, 1, 2)[:5])

    s = first_seed(one_then_farkle)
    game = Game.new(s).apply(Roll())
    one = roll_vector(s, 1, 1).index(1)

    game = game.apply(Keep((one,), "roll"))

    assert game.events == (
        Event("kept", 1, positions=(one,), points=100),
        Event("rolled", 1, roll=2, dice=tuple(roll_vector(s, 1, 2)[:5])),
        Event("farkle", 1, points=100),
        Event("turn_started", 2),
    )
    assert [e.to_dict() for e in game.events] == [
        {"kind": "kept", "turn": 1, "positions": [one], "points": 100},
        {"kind": "rolled", "turn": 1, "roll": 2, "dice": roll_vector(s, 1, 2)[:5]},
        {"kind": "farkle", "turn": 1, "points": 100},
        {"kind": "turn_started", "turn": 2},
    ]


def test_hot_dice_bring_six_dice_back_before_the_next_throw():
    def all_six_score_then_more(s):
        return score(roll_vector(s, 1, 1)) is not None and not is_farkle(roll_vector(s, 1, 2))

    s = first_seed(all_six_score_then_more)
    thrown = roll_vector(s, 1, 1)
    game = Game.new(s).apply(Roll())

    game = game.apply(Keep((0, 1, 2, 3, 4, 5), "roll"))

    assert game.events == (
        Event("kept", 1, positions=(0, 1, 2, 3, 4, 5), points=score(thrown)),
        Event("hot_dice", 1, in_hand=6),
        Event("rolled", 1, roll=2, dice=tuple(roll_vector(s, 1, 2))),
    )


def test_dix_mille_a_pair_is_thrown_again_with_the_points_kept():
    # Seed 004: three dice kept, then the two left show a pair that does not score (2-2, 3-3,
    # 4-4, 6-6): it is thrown again, and the points stay at risk.
    def three_kept_then_pair(s):
        first = roll_vector(s, 1, 1, 5)
        second = roll_vector(s, 1, 2, 5)[:2]
        kept = any(len(o.positions) == 3 for o in keep_options(first, "dix-mille"))
        return kept and second[0] == second[1] and second[0] in (2, 3, 4, 6)

    s = first_seed(three_kept_then_pair)
    game = Game.new(s, "dix-mille").apply(Roll())
    option = next(o for o in game.keep_options() if len(o.positions) == 3)
    pair = tuple(roll_vector(s, 1, 2, 5)[:2])

    game = game.apply(Keep(option.positions, "roll"))

    assert game.events == (
        Event("kept", 1, positions=option.positions, points=option.points),
        Event("rolled", 1, roll=2, dice=pair),
        Event("rethrow", 1, dice=pair),
    )
    assert game.apply(Roll()).events[0] == Event(
        "rolled", 1, roll=3, dice=tuple(roll_vector(s, 1, 3, 5)[:2])
    )


def test_a_bank_adds_the_turn_and_starts_the_next():
    s = first_seed(lambda s: 5 in roll_vector(s, 1, 1))
    five = roll_vector(s, 1, 1).index(5)
    game = Game.new(s).apply(Roll())

    game = game.apply(Keep((five,), "bank"))

    assert game.events == (
        Event("kept", 1, positions=(five,), points=50),
        Event("banked", 1, points=50, score=50),
        Event("turn_started", 2),
    )


def test_the_tenth_turn_finishes_the_game():
    game = Game.new(seed(1))
    while not game.finished:
        if game.dice:
            best = max(game.keep_options(), key=lambda o: o.points)
            game = game.apply(Keep(best.positions, "bank"))
        else:
            game = game.apply(Roll())
    last = game.events[-2:]
    banked = last[0] == Event("banked", 10, points=game.turns[-1].points, score=game.score)
    farkled = last[0].kind == "farkle"
    assert (banked or farkled, last[1]) == (True, Event("game_finished", 10, score=game.score))


def test_a_game_ended_by_close_reports_no_action():
    game = Game.new(seed(2)).apply(Roll())
    assert game.ended_by_close().events == ()
