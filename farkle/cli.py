"""``python -m farkle``: score dice, list keeps, show Farkle risks and par from a terminal."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from . import solver
from .analysis import Analysis, GradedDecision, analyse
from .bots import LEVELS, calibration, play
from .errors import FarkleError
from .game import TURNS, Game
from .risk import risk_table
from .scoring import best_split, leftover, score
from .tables import (
    DEFAULT_TABLE,
    ENTRY_MINIMUMS,
    FARKLE_PENALTIES,
    TABLES,
    Combo,
    HouseRules,
    get_table,
)
from .turn import RETHROW, keep_options, throw_kind

# Plain text for -h: the module docstring is reST.
DESCRIPTION = (
    "Score dice, list the keeps of a throw, show Farkle risks and optimal play, grade a "
    "recorded game's decisions, let a bot play a puzzle's dice, on any of the site's scoring "
    "tables (--table, before or after the command)."
)


# The command line's English names of the engine's groups (the site's are in ``play.texts``).
_COUNTS = {1: "one", 3: "three", 4: "four", 5: "five", 6: "six"}
_GROUPS = {"three_pairs": "three pairs", "two_triplets": "two triplets"}


def group_name(combo: Combo) -> str:
    """A scoring group in English: "one 5", "three 2s", "straight 1-2-3-4-5"."""
    if combo.kind == "single":
        return f"one {combo.face}"
    if combo.kind == "set":
        return f"{_COUNTS[combo.count]} {combo.face}s"
    if combo.kind == "straight":
        return "straight " + "-".join(map(str, combo.faces))
    return _GROUPS[combo.kind]


def _face(text: str) -> int:
    if text not in {"1", "2", "3", "4", "5", "6"}:
        raise argparse.ArgumentTypeError(f"{text!r} is not a die face (1 to 6)")
    return int(text)


def _cmd_score(args: argparse.Namespace) -> int:
    points = score(args.dice, args.table)
    if points is None:
        left = leftover(args.dice, args.table)
        print(f"{_show(args.dice)}: does not score, these dice cannot be kept: {_show(left)}")
        return 1
    split = sorted(best_split(args.dice, args.table), key=lambda c: -c.points)
    groups = " + ".join(f"{group_name(c)} ({c.points:,})" for c in split)
    print(f"{_show(args.dice)}: {points:,} = {groups}")
    return 0


def _cmd_keeps(args: argparse.Namespace) -> int:
    options = keep_options(args.dice, args.table)
    if not options:
        if throw_kind(tuple(args.dice), get_table(args.table)) == RETHROW:
            print(
                f"{_show(args.dice)}: nothing scores, but no Farkle: on table {args.table} "
                "this pair is thrown again and the turn's points stay"
            )
        else:
            print(f"{_show(args.dice)}: Farkle, nothing scores")
        return 0
    # Dice of one face are interchangeable: one line per choice of dice, at its first positions.
    choices = {}
    for option in sorted(options, key=lambda o: (-o.points, o.positions)):
        choices.setdefault(tuple(sorted(option.dice)), option)
    print(f"{_show(args.dice)}: {len(choices)} valid keeps")
    print(f"{'positions':<14}{'dice':<14}{'points':>7}")
    for option in choices.values():
        print(f"{_show(option.positions):<14}{_show(option.dice):<14}{option.points:>7,}")
    return 0


def _cmd_risk(args: argparse.Namespace) -> int:
    print(f"Farkle risk, table {args.table} (exact, over every outcome)")
    print(f"{'dice':>4}  {'risk':>7}  exact")
    for dice, risk in risk_table(args.table).items():
        print(f"{dice:>4}  {float(risk):>7.2%}  {risk.numerator}/{risk.denominator}")
    return 0


def _cmd_par(args: argparse.Namespace) -> int:
    solution = solver.solve(args.table)
    turn = solution.expected_turn()
    print(f"Optimal play, table {args.table}")
    print(f"expected points of one turn: {turn:,.1f}")
    print(f"par of a {TURNS}-turn game:    {turn * TURNS:,.0f}")
    rules = HouseRules(args.entry_minimum, args.farkle_penalty)
    if not rules.off:
        par = solver.game_par(args.table, rules)
        print(
            f"with entry minimum {rules.entry_minimum:,} and three-Farkle penalty "
            f"{rules.farkle_penalty:,}: par {par:,.0f}"
        )
    print("banking is always best from these turn points on (by dice left to throw):")
    for dice, threshold in solution.bank_thresholds().items():
        print(f"  {dice} {'die ' if dice == 1 else 'dice'}  {threshold:>6,}")
    return 0


def _cmd_solutions(args: argparse.Namespace) -> int:
    if args.write:
        solver.write()
        print(f"solved {len(TABLES)} tables into {solver.DATA}")
        return 0
    stored = solver.stored()
    stale = [t for t in TABLES if not _same(solver.compute(t), stored[t])]
    for table in TABLES:
        print(f"{table:<18}{'stale' if table in stale else 'matches a fresh solve'}")
    if stale:
        print("run `python -m farkle solutions --write` and commit farkle/data/")
    return 1 if stale else 0


def _same(a: solver.Solution, b: solver.Solution) -> bool:
    return (a.unit, a.cap_units, a.roll, a.tail) == (b.unit, b.cap_units, b.roll, b.tail)


def _seed(text: str) -> bytes:
    try:
        seed = bytes.fromhex(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a hexadecimal seed") from None
    if not seed:
        raise argparse.ArgumentTypeError("the seed is empty")
    return seed


def _read_actions(source: str) -> list:
    """Actions from a JSON file (or - for standard input): a list, or an object's "actions"."""
    try:
        if source == "-":
            data = json.load(sys.stdin)
        else:
            with open(source, encoding="utf-8") as handle:
                data = json.load(handle)
    except OSError as error:
        raise FarkleError("invalid_action", f"cannot read {source}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise FarkleError("invalid_action", f"{source} is not JSON: {error.msg}") from None
    if isinstance(data, dict):
        data = data.get("actions")
    if not isinstance(data, list):
        raise FarkleError("invalid_action", "the actions are a JSON list")
    return data


def _choice(decision: GradedDecision, best: bool) -> str:
    choice = decision.best if best else decision.chosen
    kept = " ".join(str(decision.dice[p]) for p in choice.positions)
    return f"{kept} ({choice.points:,}), {choice.then}"


def _cmd_analyse(args: argparse.Namespace) -> int:
    game = Game.replay(args.seed, _read_actions(args.actions), args.table)
    found = analyse(game)
    state = "finished" if found.finished else "in progress"
    print(f"Analysis, table {args.table}: score {found.score:,} ({state}), par {found.par:,.1f}")
    print(
        f"{'turn':>4} {'throw':>5}  {'dice':<12} {'risk':>6}  {'chosen':<22}{'expected':>9}  "
        f"{'best':<22}{'expected':>9}{'lost':>8}  grade"
    )
    for d in found.decisions:
        print(
            f"{d.turn:>4} {d.roll:>5}  {_show(d.dice):<12} {d.turn_points:>6,}  "
            f"{_choice(d, False):<22}{d.chosen.expected:>9,.1f}  {_choice(d, True):<22}"
            f"{d.best.expected:>9,.1f}{d.lost:>8,.1f}  {d.grade}"
        )
    _totals(found)
    return 0


def _totals(found: Analysis) -> None:
    good = found.grades["best"] + found.grades["good"]
    print(f"expected points lost: {found.lost:,.1f}")
    print(
        f"accuracy: {found.accuracy:.1f}% of par kept ({good} of {len(found.decisions)} "
        "decisions best or good)"
    )
    print("grades: " + ", ".join(f"{g} {n}" for g, n in found.grades.items()))
    print(f"luck (the dice beyond expectation): {found.luck:+,.1f}")
    if found.finished:
        print(
            f"score = par - lost + luck: {found.score:,} = {found.par:,.1f} - {found.lost:,.1f} "
            f"{'+' if found.luck >= 0 else '-'} {abs(found.luck):,.1f}"
        )
    for d in found.costliest:
        print(
            f"costly: turn {d.turn} throw {d.roll}, {_show(d.dice)} with {d.turn_points:,} at "
            f"risk: kept {_choice(d, False)}; best {_choice(d, True)}; lost {d.lost:,.1f}"
        )


def _cmd_bot(args: argparse.Namespace) -> int:
    played = play(args.seed, args.level, args.table)
    print(f"{args.level.capitalize()} on table {args.table}")
    for turn in played.game.turns:
        for index, throw in enumerate(turn.throws, start=1):
            line = f"turn {turn.number:>2} throw {index}: {_show(throw.dice):<12}"
            if throw.rethrow:
                line += "  pair, thrown again"
            elif throw.farkle:
                line += "  Farkle"
            elif throw.keep is not None:
                kept = throw.keep
                then = "bank" if index == len(turn.throws) else "roll"
                line += f"  keep {_show(kept.dice)} ({kept.points:,}), {then}"
            print(line)
        print(f"turn {turn.number:>2} banked {turn.points:,}")
    print(f"score: {played.score:,}")
    return 0


def _cmd_calibrate(args: argparse.Namespace) -> int:
    cuts = calibration(args.games, args.table)
    print(
        f"nonzero expected points lost by Easy and Medium over {args.games} games, "
        f"table {args.table}"
    )
    for name, value in zip(("50th", "75th", "90th"), cuts, strict=True):
        print(f"{name} percentile: {value:,.1f}")
    return 0


def _show(values: Sequence[int]) -> str:
    return " ".join(map(str, values))


def _parsers() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    root = argparse.ArgumentParser(prog="python -m farkle", description=DESCRIPTION)
    choices = sorted(TABLES)
    tables = f"scoring table: {', '.join(TABLES)} (default {DEFAULT_TABLE})"
    root.add_argument("--table", default=DEFAULT_TABLE, choices=choices, metavar="ID", help=tables)
    commands = root.add_subparsers(dest="command", required=True)
    # After the command too; SUPPRESS keeps a --table given before it.
    table = argparse.ArgumentParser(add_help=False)
    table.add_argument(
        "--table", default=argparse.SUPPRESS, choices=choices, metavar="ID", help=tables
    )
    subs = {}
    for name, handler, helptext in (
        ("score", _cmd_score, "score dice that are all kept, with the best split"),
        ("keeps", _cmd_keeps, "every valid keep of a throw, with its points"),
    ):
        subs[name] = commands.add_parser(name, parents=[table], help=helptext, description=helptext)
        subs[name].add_argument("dice", nargs="+", type=_face, help="faces 1 to 6")
        subs[name].set_defaults(handler=handler)
    for name, handler, helptext in (
        ("risk", _cmd_risk, "Farkle risk by number of dice"),
        ("par", _cmd_par, "expected points under optimal play and banking thresholds"),
    ):
        subs[name] = commands.add_parser(name, parents=[table], help=helptext, description=helptext)
        subs[name].set_defaults(handler=handler)
    # House rules (seed 000 «Paramètres», seeds 001 and 004): challenges only.
    subs["par"].add_argument(
        "--entry-minimum", type=int, default=0, choices=ENTRY_MINIMUMS, help="house rule"
    )
    subs["par"].add_argument(
        "--farkle-penalty", type=int, default=0, choices=FARKLE_PENALTIES, help="house rule"
    )
    helptext = "grade every decision of a recorded game against optimal play"
    subs["analyse"] = commands.add_parser(
        "analyse", parents=[table], help=helptext, description=helptext
    )
    subs["analyse"].add_argument("--seed", required=True, type=_seed, help="the puzzle's seed, hex")
    subs["analyse"].add_argument(
        "actions", metavar="ACTIONS", help="JSON file of the game's actions, - for standard input"
    )
    subs["analyse"].set_defaults(handler=_cmd_analyse)
    helptext = "let a bot play a puzzle's dice, turn by turn"
    subs["bot"] = commands.add_parser("bot", parents=[table], help=helptext, description=helptext)
    subs["bot"].add_argument(
        "--level", default="hard", choices=LEVELS, help="easy, medium or hard (optimal)"
    )
    subs["bot"].add_argument("--seed", required=True, type=_seed, help="the puzzle's seed, hex")
    subs["bot"].set_defaults(handler=_cmd_bot)
    helptext = "percentiles of the weaker bots' losses, which the grades are calibrated on"
    subs["calibrate"] = commands.add_parser(
        "calibrate", parents=[table], help=helptext, description=helptext
    )
    subs["calibrate"].add_argument("--games", type=int, default=2000, help="games per bot")
    subs["calibrate"].set_defaults(handler=_cmd_calibrate)
    helptext = "check the stored solutions of every table against a fresh solve"
    subs["solutions"] = commands.add_parser("solutions", help=helptext, description=helptext)
    subs["solutions"].add_argument(
        "--write", action="store_true", help="solve every table and write farkle/data/"
    )
    subs["solutions"].set_defaults(handler=_cmd_solutions)
    return root, subs


def parser() -> argparse.ArgumentParser:
    """The command line's argument parser."""
    return _parsers()[0]


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; the exit status."""
    root, subs = _parsers()
    args = root.parse_args(argv)
    size = get_table(args.table).dice
    if len(getattr(args, "dice", ())) > size:
        subs[args.command].error(f"a throw has at most {size} dice on table {args.table}")
    try:
        return args.handler(args)
    except FarkleError as error:
        print(f"error: {error.detail}")
        return 2
