import hashlib
import io
import json

import pytest

from farkle import TABLES, Game, Roll, roll_vector
from farkle.bots import play
from farkle.cli import main


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().out


def test_cli_score_prints_score_and_split(capsys):
    assert run(capsys, "score", "1", "1", "1", "1", "5", "5") == (
        0,
        "1 1 1 1 5 5: 1,200 = three 1s (1,000) + one 1 (100) + one 5 (50) + one 5 (50)\n",
    )


def test_cli_score_of_dice_that_cannot_all_score_names_them(capsys):
    # Seed 000: four 2s score 1,000 but a pair of 3s is not three pairs: the 3s are left.
    assert run(capsys, "score", "2", "2", "2", "2", "3", "3") == (
        1,
        "2 2 2 2 3 3: does not score, these dice cannot be kept: 3 3\n",
    )


@pytest.mark.parametrize(
    ("argv", "left"),
    [
        (("score", "1", "2", "5", "6"), "2 6"),
        (("score", "4", "4", "4", "3"), "3"),
        (("score", "2", "3", "4", "6"), "2 3 4 6"),
        # Seed 004's straight needs all five dice; 2-3-4-6 alone does not score there.
        (("score", "--table", "dix-mille", "1", "2", "3", "4", "6"), "2 3 4 6"),
    ],
)
def test_cli_score_names_each_die_that_cannot_be_kept(capsys, argv, left):
    code, out = run(capsys, *argv)
    assert (code, out.rsplit(": ", 1)[1]) == (1, f"{left}\n")


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


def test_cli_table_option_before_the_command(capsys):
    # Seed 001 (farkle.games): four of a kind is twice the triple, 4-4-4-4 = 800.
    assert run(capsys, "--table", "farkle-games", "score", "4", "4", "4", "4") == (
        0,
        "4 4 4 4: 800 = four 4s (800)\n",
    )
    # Seed 004 deals five dice: the risk table starts at 5.
    code, out = run(capsys, "--table", "dix-mille", "risk")
    assert (code, out.splitlines()[0], out.splitlines()[2][:4]) == (
        0,
        "Farkle risk, table dix-mille (exact, over every outcome)",
        "   5",
    )


def test_cli_table_after_the_command_wins_over_before(capsys):
    code, out = run(capsys, "--table", "dix-mille", "score", "--table", "farkle-games", "4", "4")
    assert (code, out) == (1, "4 4: does not score, these dice cannot be kept: 4 4\n")


def test_cli_help_is_plain_text(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["-h"])
    out = capsys.readouterr().out
    assert exit_.value.code == 0
    assert "Score dice, list the keeps of a throw" in out
    # reST markup of the module docstring never reaches the terminal.
    assert "``" not in out and ":func:" not in out


@pytest.mark.parametrize(
    ("argv", "usage", "limit"),
    [
        (("score", "1", "1", "1", "1", "1", "1", "1"), "python -m farkle score", 6),
        (
            ("keeps", "--table", "dix-mille", "1", "1", "1", "1", "1", "1"),
            "python -m farkle keeps",
            5,
        ),
        (
            ("--table", "dix-mille", "score", "5", "5", "5", "5", "5", "5"),
            "python -m farkle score",
            5,
        ),
    ],
)
def test_cli_too_many_dice_prints_the_command_usage(capsys, argv, usage, limit):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert err.startswith(f"usage: {usage} [-h] [--table ID] dice [dice ...]")
    assert f"{usage}: error: a throw has at most {limit} dice" in err


def test_cli_keeps_dix_mille_keeps_a_triple_whole(capsys):
    # Seed 004: «Avec [1-1-1-5-5], il peut garder les trois 1, les trois 1 et un 5, les trois 1
    # et les deux 5, un seul 5 ou les deux 5.» Five choices, never one or two of the 1s.
    code, out = run(capsys, "keeps", "--table", "dix-mille", "1", "1", "1", "5", "5")
    assert code == 0
    assert out.splitlines() == [
        "1 1 1 5 5: 5 valid keeps",
        "positions     dice           points",
        "0 1 2 3 4     1 1 1 5 5       1,100",
        "0 1 2 3       1 1 1 5         1,050",
        "0 1 2         1 1 1           1,000",
        "3 4           5 5               100",
        "3             5                  50",
    ]


def test_cli_keeps_dix_mille_pair_is_thrown_again(capsys):
    # Seed 004: «Un double qui ne marque pas (2-2, 3-3, 4-4, 6-6) ne rince pas le tour : le
    # joueur relance ces deux dés et garde ses points.»
    assert run(capsys, "--table", "dix-mille", "keeps", "2", "2") == (
        0,
        "2 2: nothing scores, but no Farkle: on table dix-mille this pair is thrown again and "
        "the turn's points stay\n",
    )
    # Elsewhere the same pair is a Farkle, and so is a pair of different faces there.
    assert run(capsys, "keeps", "2", "2") == (0, "2 2: Farkle, nothing scores\n")
    assert run(capsys, "keeps", "--table", "dix-mille", "2", "3") == (
        0,
        "2 3: Farkle, nothing scores\n",
    )


@pytest.mark.parametrize(
    "argv",
    [
        ("score", "7"),
        ("score",),
        ("score", "1", "1", "1", "1", "1", "1", "1"),
        ("risk", "--table", "x"),
        ("--table", "x", "risk"),
    ],
)
def test_cli_refuses_bad_input(argv):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2


def test_cli_solutions_checks_the_stored_data_against_a_fresh_solve(capsys):
    code, out = run(capsys, "solutions")
    assert code == 0
    assert out.splitlines() == [f"{t:<18}matches a fresh solve" for t in TABLES]


SEED_HEX = "00" * 31 + "2a"


def _actions_file(tmp_path, actions) -> str:
    path = tmp_path / "actions.json"
    path.write_text(json.dumps(actions))
    return str(path)


def _first_throw_with_1_and_5() -> tuple[str, tuple[int, ...]]:
    for i in range(1000):
        seed = hashlib.sha256(bytes([i % 256, i // 256])).hexdigest()
        dice = Game.new(bytes.fromhex(seed)).apply(Roll()).dice
        if 1 in dice and 5 in dice:
            return seed, dice
    raise AssertionError("no such throw")


def test_cli_analyse_grades_a_keep_of_the_5_banked(capsys, tmp_path):
    seed, dice = _first_throw_with_1_and_5()
    five = dice.index(5)
    actions = [{"action": "roll"}, {"action": "keep", "dice": [five], "then": "bank"}]
    code, out = run(capsys, "analyse", "--seed", seed, _actions_file(tmp_path, actions))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Analysis, table farkle-challenge: score 50 (in progress), par 5,935.8"
    row = lines[2].split()
    # turn 1, throw 1, the dice, nothing at risk, then "5 (50), bank" worth the 50 banked.
    assert row[:2] == ["1", "1"]
    assert row[2 + len(dice) : 2 + len(dice) + 5] == ["0", "5", "(50),", "bank", "50.0"]
    best, lost = float(row[-3].replace(",", "")), float(row[-2].replace(",", ""))
    # The best choice is worth at least keeping the 1 and the 5 and banking.
    assert best >= 150
    assert lost == pytest.approx(best - 50, abs=0.11)
    assert f"expected points lost: {row[-2]}" in lines
    assert row[-1] == "blunder"
    accuracy = 100 * (1 - float(row[-2].replace(",", "")) / 5935.8)
    assert f"accuracy: {accuracy:.1f}% of par kept (0 of 1 decisions best or good)" in lines
    assert any(line.startswith("costly: turn 1 throw 1") for line in lines)


def test_cli_analyse_of_the_optimal_game_loses_nothing_and_reads_stdin(capsys, monkeypatch):
    played = play(bytes.fromhex(SEED_HEX), "hard")
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps({"actions": list(played.actions)})))
    code, out = run(capsys, "analyse", "--seed", SEED_HEX, "-")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == (
        f"Analysis, table farkle-challenge: score {played.score:,} (finished), par 5,935.8"
    )
    assert "expected points lost: 0.0" in lines
    assert any(line.startswith("accuracy: 100.0% of par kept (") for line in lines)
    identity = next(line for line in lines if line.startswith("score = par - lost + luck"))
    luck = next(line for line in lines if line.startswith("luck"))
    sign = 1 if luck.split(": ")[1][0] == "+" else -1
    value = sign * float(luck.split(": ")[1][1:].replace(",", ""))
    assert value == pytest.approx(played.score - 5935.8, abs=0.1)
    assert identity.startswith(f"score = par - lost + luck: {played.score:,} = 5,935.8 - 0.0 ")


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        ("not json", "error: "),
        ({"actions": 3}, "error: the actions are a JSON list"),
        ([{"action": "keep", "dice": [0], "then": "bank"}], "error: Roll the dice first."),
    ],
)
def test_cli_analyse_refuses_bad_actions(capsys, tmp_path, actions, message):
    path = tmp_path / "actions.json"
    path.write_text(actions if isinstance(actions, str) else json.dumps(actions))
    code, out = run(capsys, "analyse", "--seed", SEED_HEX, str(path))
    assert code == 2
    assert out.startswith(message)


def test_cli_analyse_refuses_a_missing_file_and_a_bad_seed(capsys, tmp_path):
    code, out = run(capsys, "analyse", "--seed", SEED_HEX, str(tmp_path / "none.json"))
    assert (code, out.startswith("error: cannot read")) == (2, True)
    with pytest.raises(SystemExit) as exit_:
        main(["analyse", "--seed", "xyz", "-"])
    assert exit_.value.code == 2
    assert "is not a hexadecimal seed" in capsys.readouterr().err


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_cli_bot_prints_its_game_turn_by_turn(capsys, level):
    code, out = run(capsys, "bot", "--level", level, "--seed", SEED_HEX, "--table", "royal")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"{level.capitalize()} on table royal"
    banked = [int(line.rsplit(" ", 1)[1].replace(",", "")) for line in lines if "banked" in line]
    assert len(banked) == 10
    assert lines[-1] == f"score: {sum(banked):,}"
    # The throws printed are the puzzle's: each turn's first throw is its roll vector.
    firsts = [line for line in lines if " throw 1: " in line]
    assert len(firsts) == 10
    for turn, line in enumerate(firsts, start=1):
        faces = roll_vector(bytes.fromhex(SEED_HEX), turn, 1, 6)
        assert line.split(": ", 1)[1].startswith(" ".join(map(str, faces)))


def test_cli_bot_and_analyse_help_are_plain_text(capsys):
    for command in ("bot", "analyse"):
        with pytest.raises(SystemExit) as exit_:
            main([command, "-h"])
        out = capsys.readouterr().out
        assert exit_.value.code == 0
        assert "--seed SEED" in out
        assert "``" not in out
    with pytest.raises(SystemExit):
        main(["bot", "--level", "expert", "--seed", SEED_HEX])
