"""Foresight bench: how often the check holds honest and cheating simulated players.

Each policy plays many ten-turn games on independent seeds; every game gets its p-value. For
honest players the share of games with p <= α must stay at or below α (the test is valid for
any strategy), so the ratio "share / α" should be at most about 1 (below 1: conservative), and
no game is held (p < 1e-5). Cheaters who see the next throw should be held as often as their
evidence allows.

Run with ``python bench/foresight.py [--games N] [--salt S]`` from the repository root.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from farkle import DEFAULT_TABLE, TURNS, solve  # noqa: E402
from farkle import foresight as fs  # noqa: E402

ALPHAS = (0.05, 0.01, 0.001)


def run(name: str, policy: fs.Policy, games: int, salt: str) -> dict:
    """Play ``games`` games with ``policy``; their p-values, scores and choices."""
    ps, scores, choices, departures = [], [], [], []
    for i in range(games):
        seed = hashlib.sha256(f"{salt}:{name}:{i}".encode()).digest()
        game, actions = fs.play_out(seed, policy, random.Random(f"{salt}:{i}"))
        found = fs.choices(seed, actions)
        check = fs.check_choices(found)
        ps.append(check.p)
        scores.append(game.score)
        choices.append(len(found))
        departures.append(check.departures)
    return {"p": ps, "score": scores, "choices": choices, "departures": departures}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="games per policy")
    parser.add_argument("--salt", default="bench", help="varies the seeds")
    args = parser.parse_args()
    par = solve(DEFAULT_TABLE).expected_turn() * TURNS
    print(f"{args.games:,} games per policy, table {DEFAULT_TABLE}, par {par:,.0f}")
    print(f"held: p < {fs.HOLD_BELOW:g}; 'p<=α / α' above about 1 would be an invalid test\n")
    header = (
        f"{'policy':30} {'mean':>6} {'choices':>7} {'depart':>6} {'held':>7}"
        + "".join(f" {'p<=' + format(a, 'g') + ' / α':>13}" for a in ALPHAS)
        + f" {'median p':>9} {'min p':>9}"
    )
    started = time.perf_counter()
    for group, policies in (("honest", fs.HONEST), ("cheating", fs.CHEATERS)):
        print(f"-- {group}")
        print(header)
        for name, policy in policies.items():
            r = run(name, policy, args.games, args.salt)
            n = len(r["p"])
            held = sum(p < fs.HOLD_BELOW for p in r["p"])
            ratios = "".join(f" {sum(p <= a for p in r['p']) / n / a:>13.2f}" for a in ALPHAS)
            print(
                f"{name:30} {statistics.mean(r['score']):>6,.0f}"
                f" {statistics.mean(r['choices']):>7.1f} {statistics.mean(r['departures']):>6.1f}"
                f" {held / n:>7.2%}{ratios}"
                f" {statistics.median(r['p']):>9.2e} {min(r['p']):>9.2e}"
            )
            if group == "cheating":
                # The game scored 10,900: how often are games that rich held?
                rich = [p for s, p in zip(r["score"], r["p"], strict=True) if s >= 10_000]
                if rich:
                    share = sum(p < fs.HOLD_BELOW for p in rich) / len(rich)
                    print(f"{'':30} scoring 10,000 or more: {len(rich)} games, {share:.1%} held")
                kept = [s for s, p in zip(r["score"], r["p"], strict=True) if p >= fs.HOLD_BELOW]
                if kept:
                    print(
                        f"{'':30} not held: {len(kept)} games, mean score"
                        f" {statistics.mean(kept):,.0f} (par {par:,.0f}), best {max(kept):,}"
                    )
        print()
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
