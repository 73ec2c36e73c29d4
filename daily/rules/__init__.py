"""Rules of the site that are not the game's: the calendar of dailies, what a name may be."""
