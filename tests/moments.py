"""Named instants of the tests."""

import datetime

# The tests' "now": noon UTC on 2026-11-29, well inside that day's daily.
NOON = datetime.datetime(2026, 11, 29, 12, 0, tzinfo=datetime.UTC)
