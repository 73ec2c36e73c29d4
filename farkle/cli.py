"""``python -m farkle``: score dice, list keeps, show Farkle risks and par from a terminal."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from .errors import FarkleError
from .game import TURNS
from .risk import risk_table
from .scoring import best_split, keeps, score
from .solver import solve
from .tables import DEFAULT_TABLE, TABLES, get_table


def _face(text: str) -> int:
    if text not in {"1", "2", "3", "4", "5", "6"}:
        raise argparse.ArgumentTypeError(f"{text!r} is not a die face (1 to 6)")
    return int(text)


def _cmd_score(args: argparse.Namespace) -> int:
    points = score(args.dice, args.table)
    if points is None:
        print(f"{_show(args.dice)}: does not score (some die cannot be kept)")
        return 1
    split = sorted(best_split(args.dice, args.table), key=lambda c: -c.points)
    groups = " + ".join(f"{c.label} ({c.points:,})" for c in split)
    print(f"{_show(args.dice)}: {points:,} = {groups}")
    return 0


def _cmd_keeps(args: argparse.Namespace) -> int:
    options = keeps(args.dice, args.table)
    if not options:
        print(f"{_show(args.dice)}: Farkle, nothing scores")
        return 0
    print(f"{_show(args.dice)}: {len(options)} valid keeps")
    print(f"{'positions':<14}{'dice':<14}{'points':>7}")
    for positions, points in sorted(options, key=lambda o: (-o[1], o[0])):
        dice = [args.dice[p] for p in positions]
        print(f"{_show(positions):<14}{_show(dice):<14}{points:>7,}")
    return 0


def _cmd_risk(args: argparse.Namespace) -> int:
    print(f"Farkle risk, table {args.table} (exact, over every outcome)")
    print(f"{'dice':>4}  {'risk':>7}  exact")
    for dice, risk in risk_table(args.table).items():
        print(f"{dice:>4}  {float(risk):>7.2%}  {risk.numerator}/{risk.denominator}")
    return 0


def _cmd_par(args: argparse.Namespace) -> int:
    solution = solve(args.table)
    turn = solution.expected_turn()
    print(f"Optimal play, table {args.table}")
    print(f"expected points of one turn: {turn:,.1f}")
    print(f"par of a {TURNS}-turn game:    {turn * TURNS:,.0f}")
    print("banking is always best from these turn points on (by dice left to throw):")
    for dice, threshold in solution.bank_thresholds().items():
        print(f"  {dice} {'die ' if dice == 1 else 'dice'}  {threshold:>6,}")
    return 0


def _show(values: Sequence[int]) -> str:
    return " ".join(map(str, values))


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="python -m farkle", description=__doc__)
    commands = root.add_subparsers(dest="command", required=True)
    table = argparse.ArgumentParser(add_help=False)
    table.add_argument("--table", default=DEFAULT_TABLE, choices=sorted(TABLES))
    for name, handler, helptext in (
        ("score", _cmd_score, "score dice that are all kept, with the best split"),
        ("keeps", _cmd_keeps, "every valid keep of a throw, with its points"),
    ):
        command = commands.add_parser(name, parents=[table], help=helptext)
        command.add_argument("dice", nargs="+", type=_face)
        command.set_defaults(handler=handler)
    for name, handler, helptext in (
        ("risk", _cmd_risk, "Farkle risk by number of dice"),
        ("par", _cmd_par, "expected points under optimal play and banking thresholds"),
    ):
        commands.add_parser(name, parents=[table], help=helptext).set_defaults(handler=handler)
    return root


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    size = get_table(args.table).dice
    if len(getattr(args, "dice", ())) > size:
        parser().error(f"a throw has at most {size} dice")
    try:
        return args.handler(args)
    except FarkleError as error:
        print(f"error: {error.detail}")
        return 2
