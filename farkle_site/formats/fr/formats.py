"""French number formats as the pages' scripts write them (Intl.NumberFormat("fr")): groups of
three separated by a narrow no-break space. Everything else comes from Django's French formats."""

THOUSAND_SEPARATOR = "\u202f"
