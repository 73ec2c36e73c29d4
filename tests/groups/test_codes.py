import pytest

from challenges.codes import InvalidCode as ChallengeCodeInvalid
from challenges.codes import code_normalise as challenge_code
from groups.codes import InvalidCode, code_display, code_generate, code_normalise


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("G7K4M2Q", "G7K4M2Q"),
        ("g7k 4m2q", "G7K4M2Q"),
        ("G7K-4M2Q", "G7K4M2Q"),
        ("g7k-4m2o", "G7K4M20"),
        ("iLo1234", "1101234"),
    ],
)
def test_group_codes_are_read_as_forgivingly_as_challenge_codes(typed, canonical):
    assert code_normalise(typed) == canonical


@pytest.mark.parametrize("typed", ["", "K7M2QX", "K7M-2QX", "G7K4M2QX", "G7K4M2U", "G7K_4M2Q"])
def test_a_challenge_code_or_anything_else_is_no_group_code(typed):
    with pytest.raises(InvalidCode):
        code_normalise(typed)


def test_a_group_code_is_no_challenge_code():
    code = code_generate()
    assert len(code) == 7 and code_normalise(code) == code
    with pytest.raises(ChallengeCodeInvalid):
        challenge_code(code)


def test_code_display_groups_three_and_four():
    assert code_display("G7K4M2Q") == "G7K-4M2Q"
