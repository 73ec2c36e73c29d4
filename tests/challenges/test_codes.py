import pytest
from hypothesis import given
from hypothesis import strategies as st

from challenges.codes import ALPHABET, InvalidCode, code_display, code_generate, code_normalise


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("K7M2QX", "K7M2QX"),
        ("k7m 2qx", "K7M2QX"),
        ("K7M-2QX", "K7M2QX"),
        (" k7m - 2qx ", "K7M2QX"),
        ("K7M2QO", "K7M2Q0"),
        ("iLo123", "110123"),
    ],
)
def test_code_normalise_forgives_case_spaces_dashes_and_lookalikes(typed, canonical):
    assert code_normalise(typed) == canonical


@pytest.mark.parametrize("typed", ["", "K7M2Q", "K7M2QXX", "K7M2QU", "K7M2Q!", "К7М2QX", "K7M_2QX"])
def test_code_normalise_refuses_what_cannot_be_a_code(typed):
    with pytest.raises(InvalidCode):
        code_normalise(typed)


def test_code_display_groups_in_threes():
    assert code_display("K7M2QX") == "K7M-2QX"


@given(st.integers(0, 200))
def test_generated_codes_are_canonical(_):
    code = code_generate()
    assert len(code) == 6 and set(code) <= set(ALPHABET)
    assert code_normalise(code_display(code).lower()) == code


def test_generated_codes_are_not_sequential():
    codes = [code_generate() for _ in range(200)]
    assert len(set(codes)) == 200
