"""Imported by every Python process a test starts (its PYTHONPATH names this folder, see
tests/clock.py): the process's clock starts at the test's frozen instant and runs on from there,
so a server or a worker agrees with the test on the date. Nothing happens without the variable.
"""

import datetime
import os

_start = os.environ.get("FARKLE_TEST_PROCESS_CLOCK")
if _start:
    import time_machine

    # Running, not frozen: such a process waits on time of its own (timeouts, a visibility
    # timeout, a worker's heartbeat).
    time_machine.travel(datetime.datetime.fromisoformat(_start), tick=True).start()
