"""Friend challenges: short codes, links and their leaderboards."""
