import pytest

from farkle.cli import main


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().out


def test_cli_score_prints_score_and_split(capsys):
    assert run(capsys, "score", "1", "1", "1", "1", "5", "5") == (
        0,
        "1 1 1 1 5 5: 1,200 = three 1s (1,000) + one 1 (100) + one 5 (50) + one 5 (50)\n",
    )


def test_cli_score_of_dice_that_cannot_all_score(capsys):
    assert run(capsys, "score", "2", "2", "2", "2", "3", "3") == (
        1,
        "2 2 2 2 3 3: does not score (some die cannot be kept)\n",
    )


def test_cli_keeps_lists_every_keep(capsys):
    code, out = run(capsys, "keeps", "1", "5", "2", "2", "3", "6")
    assert code == 0
    assert out.splitlines()[2:] == [
        "0 1           1 5               150",
        "0             1                 100",
        "1             5                  50",
    ]


def test_cli_risk_prints_the_table(capsys):
    code, out = run(capsys, "risk")
    assert code == 0
    assert "   6    2.31%  5/216" in out.splitlines()
    assert "   1   66.67%  2/3" in out.splitlines()


def test_cli_par_prints_turn_and_game(capsys):
    code, out = run(capsys, "par")
    assert code == 0
    assert "expected points of one turn: 593.6" in out
    assert "par of a 10-turn game:    5,936" in out


def test_cli_table_option(capsys):
    code, out = run(capsys, "score", "--table", "farkle-games", "4", "4", "4", "4")
    assert (code, out) == (0, "4 4 4 4: 800 = four 4s (800)\n")


@pytest.mark.parametrize(
    "argv",
    [
        ("score", "7"),
        ("score",),
        ("score", "1", "1", "1", "1", "1", "1", "1"),
        ("risk", "--table", "x"),
    ],
)
def test_cli_refuses_bad_input(argv):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
