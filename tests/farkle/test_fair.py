import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from farkle import challenge_seed, commitment, daily_seed, roll_vector

from .vectors import load

DICE = load("dice.json")
SECRET = DICE["secret_utf8"].encode()


@pytest.mark.parametrize("daily", DICE["dailies"], ids=lambda d: d["date"])
def test_daily_seed_matches_vectors(daily):
    seed = daily_seed(SECRET, datetime.date.fromisoformat(daily["date"]))
    rolls = [roll_vector(seed, r["turn"], r["roll"]) for r in daily["rolls"]]
    assert (seed.hex(), commitment(seed), rolls) == (
        daily["seed_hex"],
        daily["commitment"],
        [r["dice"] for r in daily["rolls"]],
    )


@pytest.mark.parametrize("challenge", DICE["challenges"], ids=lambda c: c["code"])
def test_challenge_seed_matches_vectors(challenge):
    seed = challenge_seed(SECRET, challenge["code"])
    rolls = [roll_vector(seed, r["turn"], r["roll"]) for r in challenge["rolls"]]
    assert (seed.hex(), commitment(seed), rolls) == (
        challenge["seed_hex"],
        challenge["commitment"],
        [r["dice"] for r in challenge["rolls"]],
    )


def test_challenge_seed_reads_code_case_insensitively():
    assert challenge_seed(SECRET, "k7m2qx") == challenge_seed(SECRET, "K7M2QX")


def test_daily_seed_differs_from_challenge_seed_and_by_secret():
    day = datetime.date(2026, 11, 29)
    seeds = {
        daily_seed(SECRET, day),
        daily_seed(b"other", day),
        daily_seed(SECRET, day + datetime.timedelta(days=1)),
        challenge_seed(SECRET, "2026-11-29"),
    }
    assert len(seeds) == 4


@given(
    seed=st.binary(min_size=32, max_size=32),
    turn=st.integers(1, 10),
    roll=st.integers(1, 40),
    size=st.integers(1, 6),
)
def test_roll_vector_prefix_is_the_smaller_throw(seed, turn, roll, size):
    full = roll_vector(seed, turn, roll)
    assert roll_vector(seed, turn, roll, size) == full[:size]
    assert all(1 <= face <= 6 for face in full)


def test_roll_vector_skips_bytes_from_252():
    # Over many throws every face shows up about equally: 6,000 dice, each face near 1,000.
    seed = bytes(32)
    faces = [f for k in range(1, 1001) for f in roll_vector(seed, 1, k)]
    counts = [faces.count(face) for face in range(1, 7)]
    assert all(850 < count < 1150 for count in counts), counts
