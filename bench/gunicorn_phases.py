"""gunicorn's configuration for bench/instructions.py's count of a served request: a request
for ``/healthz?bench-phase`` makes the worker call libc's ``getloadavg`` before serving it, and
callgrind, told to dump its counts before that function, then writes the worker's counts so far
and starts again. Nothing else in a worker, gunicorn's or the site's, asks for the load average
(``getppid``, the in-process count's marker, is gunicorn's check of its parent, each loop)."""

import os

PHASE_QUERY = "bench-phase"


def pre_request(worker, req):
    # gunicorn's own hook, which this one stands in for, logs each request at debug level.
    worker.log.debug("%s %s", req.method, req.path)
    if req.query == PHASE_QUERY:
        os.getloadavg()
