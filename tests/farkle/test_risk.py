from fractions import Fraction

import pytest

from farkle import farkle_risk, risk_table


def test_risk_table_equals_spec():
    # docs/rules.md (and seed 000): 2.31 %, 7.72 %, 15.74 %, 27.78 %, 44.44 %, 66.67 %.
    assert {n: round(float(r) * 100, 2) for n, r in risk_table().items()} == {
        6: 2.31,
        5: 7.72,
        4: 15.74,
        3: 27.78,
        2: 44.44,
        1: 66.67,
    }


def test_risk_is_exact():
    assert farkle_risk(1) == Fraction(2, 3)
    assert farkle_risk(2) == Fraction(16, 36)
    assert farkle_risk(6) == Fraction(5, 216)


def test_risk_without_three_pairs_is_higher_with_six_dice():
    assert farkle_risk(6, "kingdom-come") > farkle_risk(6)


@pytest.mark.parametrize("dice", [0, 7])
def test_risk_refuses_impossible_dice_counts(dice):
    with pytest.raises(ValueError):
        farkle_risk(dice)
