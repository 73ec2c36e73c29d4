"""gunicorn's logger with an access line that costs what its format uses (the Procfile's
``--logger-class``). A logger class named on the command line stands in for gunicorn's own
choice of its statsd logger: to send statsd metrics, drop the option."""

from __future__ import annotations

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
    """

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
            # No arguments: logging leaves a '%' in the line alone.
            self.access_log.info(self.cfg.access_log_format % escaped)
        except Exception:
            self.error(traceback.format_exc())

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
