"""The daily: the calendar of dailies, their creation and the rollover, the daily's pages and API;
players, puzzles and attempts are in play/."""
