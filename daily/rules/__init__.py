"""Rules of the daily: its calendar."""
