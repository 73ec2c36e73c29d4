import pytest
from hypothesis import example, given
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


# Crockford's base-32, written out from its definition: digits, then letters without I, L, O, U.
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
# How a player may type each canonical character: either case, and O for 0, I or L for 1. The
# canonical character comes last: Hypothesis favours the first choices.
TYPINGS = {c: [c.lower(), c] for c in CROCKFORD} | {
    "0": ["o", "O", "0"],
    "1": ["l", "I", "L", "i", "1"],
}


@st.composite
def typed_codes(draw) -> tuple[str, str]:
    """A canonical code and one way a player might type it."""
    code = draw(st.text(alphabet=CROCKFORD, min_size=6, max_size=6))
    typed = draw(st.sampled_from(["", " "]))
    for character in code:
        typed += draw(st.sampled_from(TYPINGS[character]))
        typed += draw(st.sampled_from(["", "", " ", "-", " - "]))
    return code, typed


@given(typed_codes())
@example(("011111", "o-IiLl1"))
@example(("100000", " l oO0 00 "))
def test_any_typing_of_a_code_normalises_to_it(pair):
    code, typed = pair
    assert code_normalise(typed) == code


@given(st.text(alphabet=CROCKFORD, min_size=6, max_size=6))
def test_displayed_codes_read_back(code):
    assert code_normalise(code_display(code).lower()) == code


def test_generated_codes_are_canonical():
    codes = [code_generate() for _ in range(2000)]
    assert all(len(code) == 6 and set(code) <= set(CROCKFORD) for code in codes)
    assert all(code_normalise(code) == code for code in codes)
    assert ALPHABET == CROCKFORD
    # Every character of the alphabet is drawn (2,000 codes: a missing one has odds below 1e-80).
    assert set("".join(codes)) == set(CROCKFORD)


def test_generated_codes_are_not_sequential():
    # As numbers in base 32, random codes are spread over 32**6 values: a counter (from any start)
    # or a small stride gives neighbours, and leaves its leading characters nearly constant.
    codes = [code_generate() for _ in range(3200)]
    values = [
        int(code.translate(str.maketrans(CROCKFORD, "0123456789ABCDEFGHIJKLMNOPQRSTUV")), 32)
        for code in codes
    ]
    gaps = [abs(b - a) for a, b in zip(values, values[1:], strict=False)]
    # Two random codes fall within 32**4 of each other with odds about 2 in 1,024.
    assert sum(gap < 32**4 for gap in gaps) < 40
    # Each position takes each of the 32 characters about 100 times: a chi-squared statistic
    # (31 degrees of freedom) above 90 has odds below one in a million.
    for position in range(6):
        counts = [0] * 32
        for value in values:
            counts[value // 32 ** (5 - position) % 32] += 1
        assert sum((count - 100) ** 2 / 100 for count in counts) < 90, position
