"""Rules of the site that are not the game's: UTC days, what a name may be."""
