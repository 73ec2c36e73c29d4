"""Play: players, puzzles, attempts and score counts, and what every kind of puzzle shares to play
them (services, selectors, API bases, the session's player)."""
