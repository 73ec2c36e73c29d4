"""Writes: every function here changes stored data (keyword arguments, ``now`` passed in)."""
