import datetime
import hashlib
import hmac

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


# Throws of the 2026-11-29 vector daily whose first HMAC block holds bytes from 252 up. The bytes
# are checked against hashlib below; each face is byte % 6 + 1 worked out by hand, a byte from
# 252 skipped (252 = 6 x 42: 252 to 255 would favour the faces 1 to 4).
SKIPS = [
    # turn 1, throw 40: f4 aa fc c8 cb 57 63 = 244 170 [252] 200 203 87 99
    #   244 % 6 = 4 -> 5, 170 % 6 = 2 -> 3, 200 -> 3, 203 -> 6, 87 -> 4, 99 -> 4
    (1, 40, "f4aafcc8cb5763", [5, 3, 3, 6, 4, 4]),
    # turn 5, throw 5: c5 a2 4a fd 6c 10 fc a8 = 197 162 74 [253] 108 16 [252] 168
    #   197 -> 6, 162 -> 1, 74 -> 3, 108 -> 1, 16 -> 5, 168 -> 1
    (5, 5, "c5a24afd6c10fca8", [6, 1, 3, 1, 5, 1]),
    # turn 2, throw 70: fc a3 08 14 af 21 33 = [252] 163 8 20 175 33 51
    #   163 -> 2, 8 -> 3, 20 -> 3, 175 -> 2, 33 -> 4, 51 -> 4
    (2, 70, "fca30814af213304", [2, 3, 3, 2, 4, 4]),
]


@pytest.mark.parametrize(("turn", "roll", "head", "faces"), SKIPS, ids=lambda v: str(v))
def test_roll_vector_skips_bytes_from_252(turn, roll, head, faces):
    seed = bytes.fromhex(DICE["dailies"][0]["seed_hex"])
    digest = hmac.new(seed, f"roll:{turn}:{roll}:0".encode(), hashlib.sha256).digest()
    assert digest.hex().startswith(head)
    assert roll_vector(seed, turn, roll) == faces
    assert roll_vector(seed, turn, roll, 3) == faces[:3]


def test_a_throw_kept_for_the_next_reader_cannot_be_changed_by_one():
    # Each throw's faces are kept per process (farkle.fair.throw_faces): a caller changing the
    # list it was given must not change what the next replay of the game throws.
    seed = bytes.fromhex(DICE["dailies"][0]["seed_hex"])
    given_out = roll_vector(seed, 1, 40)
    given_out[0] = 99
    assert roll_vector(seed, 1, 40) == [5, 3, 3, 6, 4, 4]
