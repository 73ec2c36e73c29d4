"""The daily: players, puzzles and attempts, the daily schedule, leaderboards and rollover."""
