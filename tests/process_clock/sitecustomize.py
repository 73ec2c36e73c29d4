"""Imported by every Python process a test starts (its PYTHONPATH names this folder, see
tests/clock.py): the process's clock starts at the test's frozen instant and runs on from there,
so a server or a worker agrees with the test on the date. Nothing happens without the variable.
"""

import datetime
import os

_start = os.environ.get("FARKLE_TEST_PROCESS_CLOCK")
if _start:
    import time

    import time_machine

    # "<instant> <real time then>": the instant plus the real time gone since, the same in every
    # process whenever it started. Running, not frozen: such a process waits on time of its own
    # (timeouts, a visibility timeout, a worker's heartbeat).
    _instant, _then = _start.split()
    _now = datetime.datetime.fromisoformat(_instant).timestamp() + time.time() - float(_then)
    time_machine.travel(_now, tick=True).start()
