"""gunicorn's logger with an access line that costs what its format uses (the Procfile's
``--logger-class``). A logger class named on the command line stands in for gunicorn's own
choice of its statsd logger: to send statsd metrics, drop the option."""

from __future__ import annotations

import logging
import time
import traceback

from gunicorn import glogging
from gunicorn.config import AccessLogFormat


class Logger(glogging.Logger):
    """For the default access format, only its nine atoms are built. gunicorn builds every one it
    knows, with each request header, response header and WSGI environ entry besides (about 60,
    each copied again to escape its quotes): the line cost 33 µs a request, 15 now (in process,
    a request of the benchmarks' size). Any other format gets gunicorn's atoms.

    The default line is also written without gunicorn's ``SafeAtoms``, a dict whose every lookup
    runs Python code to answer '-' for the atoms a format may ask and the request lacks: the
    nine atoms here are always there. Their quotes are escaped as it escapes them, and the line
    goes to the same logger, preformatted (a log record's message is the whole line, with no
    arguments: a formatter of a ``--log-config`` that reads ``record.args`` would find none). A
    line cost about 60 µs in all, 30 now (in process).

    Where the line would only be written as it is (gunicorn's own handlers of a file or a stream,
    its ``%(message)s`` format, no filter), it is written so, under each handler's lock, without
    a log record: ``logging`` finds the caller's frame, the thread's and the process's names,
    and formats the line again: 0.04 million instructions of a served action's 3.2 (issue 15).
    A log configuration that adds anything to the access log gets ``logging``'s way. The time
    atom is formatted once a second, not once a request.
    """

    _now = (None, "")

    def access(self, resp, req, environ, request_time):
        if self.cfg.access_log_format != AccessLogFormat.default:
            return super().access(resp, req, environ, request_time)
        if not self.access_log_enabled:
            return
        atoms = self.atoms(resp, req, environ, request_time)
        escaped = {
            name: value.replace('"', '\\"') if isinstance(value, str) else value
            for name, value in atoms.items()
        }
        try:
            line = self.cfg.access_log_format % escaped
            handlers = self._plain_handlers()
            if handlers is None:
                # No arguments: logging leaves a '%' in the line alone.
                self.access_log.info(line)
                return
            for handler in handlers:
                _write_plainly(handler, self.access_log, line)
        except Exception:
            self.error(traceback.format_exc())

    def _plain_handlers(self) -> list[logging.Handler] | None:
        """The access log's handlers when each would write the line as it is, else None."""
        log = self.access_log
        if (
            log.filters
            or log.propagate
            or not log.isEnabledFor(logging.INFO)
            or self.access_fmt != "%(message)s"
        ):
            return None
        handlers = log.handlers
        for handler in handlers:
            if (
                type(handler) not in _PLAIN_HANDLERS
                or handler.filters
                or handler.level > logging.INFO
                or type(handler.formatter) is not logging.Formatter
                or handler.formatter._fmt != "%(message)s"
            ):
                return None
        return handlers

    def now(self):
        # gunicorn's format, from the same clock: formatted again only when the second turns.
        second = int(time.time())
        cached = self._now
        if cached[0] != second:
            cached = (second, time.strftime("[%d/%b/%Y:%H:%M:%S %z]", time.localtime(second)))
            self._now = cached
        return cached[1]

    def atoms(self, resp, req, environ, request_time):
        if self.cfg.access_log_format != AccessLogFormat.default:
            return super().atoms(resp, req, environ, request_time)
        status = resp.status
        if isinstance(status, str):
            status = status.split(None, 1)[0]
        sent = getattr(resp, "sent", None)
        return {
            "h": environ.get("REMOTE_ADDR", "-"),
            "l": "-",
            "u": self._get_user(environ) or "-",
            "t": self.now(),
            "r": f"{environ['REQUEST_METHOD']} {environ['RAW_URI']} {environ['SERVER_PROTOCOL']}",
            "s": status,
            "b": sent is not None and str(sent) or "-",
            "f": environ.get("HTTP_REFERER", "-"),
            "a": environ.get("HTTP_USER_AGENT", "-"),
        }


_PLAIN_HANDLERS = (logging.StreamHandler, logging.FileHandler)


def _write_plainly(handler: logging.StreamHandler, log: logging.Logger, line: str) -> None:
    """What ``handler.handle`` does with a record of ``line`` at INFO formatted as
    ``%(message)s``: the line and the handler's terminator, flushed, under its lock."""

    def record() -> logging.LogRecord:
        return log.makeRecord(log.name, logging.INFO, "", 0, line, (), None)

    handler.acquire()
    try:
        if handler.stream is None:
            # A FileHandler opened lazily (``delay``), or closed since: its emit opens it again.
            handler.emit(record())
            return
        handler.stream.write(line + handler.terminator)
        handler.flush()
    except RecursionError:
        raise
    except Exception:
        handler.handleError(record())
    finally:
        handler.release()
