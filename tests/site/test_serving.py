"""gunicorn's access line, built by the project's logger (farkle_site/serving.py)."""

import base64
import datetime
import logging
import types
from pathlib import Path

import pytest
import time_machine
from gunicorn import glogging
from gunicorn.config import Config

from farkle_site.serving import Logger
from tests.moments import NOON


def _config(access_format: str | None = None) -> Config:
    config = Config()
    config.set("accesslog", None)
    if access_format is not None:
        config.set("access_log_format", access_format)
    return config


def _request(*, referer: str | None, agent: str | None, user: str | None):
    environ = {
        "REQUEST_METHOD": "POST",
        "RAW_URI": "/api/attempts/7/actions?x=1",
        "PATH_INFO": "/api/attempts/7/actions",
        "QUERY_STRING": "x=1",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "203.0.113.9",
        "wsgi.url_scheme": "http",
    }
    headers = [("HOST", "127.0.0.1")]
    if referer is not None:
        environ["HTTP_REFERER"] = referer
        headers.append(("REFERER", referer))
    if agent is not None:
        environ["HTTP_USER_AGENT"] = agent
        headers.append(("USER-AGENT", agent))
    if user is not None:
        credentials = base64.b64encode(f"{user}:secret".encode()).decode()
        environ["HTTP_AUTHORIZATION"] = f"Basic {credentials}"
    return types.SimpleNamespace(headers=headers), environ


CASES = [
    dict(referer=None, agent=None, user=None, status="200 OK", sent=512),
    dict(referer='https://x.test/?q="a"', agent='Bot "quoted" 1.0', user="ana", status=404, sent=0),
    dict(referer="", agent="Mozilla/5.0", user=None, status="429 Too Many Requests", sent=None),
]


@pytest.mark.parametrize("case", CASES)
@time_machine.travel(NOON, tick=False)
def test_the_default_access_line_is_gunicorns_own(case):
    config = _config()
    request, environ = _request(referer=case["referer"], agent=case["agent"], user=case["user"])
    response = types.SimpleNamespace(
        status=case["status"], sent=case["sent"], headers=[("Content-Type", "application/json")]
    )
    took = datetime.timedelta(microseconds=1234)
    loggers = (Logger(config), glogging.Logger(config))
    atoms = [logger.atoms(response, request, environ, took) for logger in loggers]
    lines = [config.access_log_format % glogging.SafeAtoms(each) for each in atoms]
    assert lines[0] == lines[1]
    # Built from the nine atoms alone: no header or environ entry was copied.
    assert sorted(atoms[0]) == sorted("hlutrsbfa")
    # Spot-checked by hand against the format: address, request line, status, size.
    assert lines[0].startswith("203.0.113.9 - ")
    assert '"POST /api/attempts/7/actions?x=1 HTTP/1.1"' in lines[0]


def _written(path, logger_class, request, environ, response, access_format=None) -> str:
    """What ``logger_class``'s own ``access`` writes to an access log file at ``path``."""
    config = _config(access_format)
    config.set("accesslog", str(path))
    logger = logger_class(config)
    logger.access(response, request, environ, datetime.timedelta(microseconds=1234))
    for handler in logger.access_log.handlers:
        handler.close()
    return path.read_text()


@pytest.mark.parametrize("case", CASES)
@time_machine.travel(NOON, tick=False)
def test_the_default_access_line_written_is_gunicorns_own(case, tmp_path):
    # What reaches the access log file, through each logger's own access(): the same line.
    request, environ = _request(referer=case["referer"], agent=case["agent"], user=case["user"])
    response = types.SimpleNamespace(
        status=case["status"], sent=case["sent"], headers=[("Content-Type", "application/json")]
    )
    ours = _written(tmp_path / "ours", Logger, request, environ, response)
    theirs = _written(tmp_path / "gunicorn", glogging.Logger, request, environ, response)
    assert ours == theirs
    assert ours.count("\n") == 1 and ours.startswith("203.0.113.9 - ")


def test_a_percent_sign_in_the_request_reaches_the_line_as_sent(tmp_path):
    # The line is handed to logging preformatted: a '%' in it must not be read as a format.
    request, environ = _request(referer="https://x.test/?a=%s%d", agent="100% real", user=None)
    response = types.SimpleNamespace(status=200, sent=2, headers=[])
    line = _written(tmp_path / "access", Logger, request, environ, response)
    assert '"https://x.test/?a=%s%d" "100% real"' in line


def test_no_access_log_writes_nothing_and_builds_no_atoms(monkeypatch):
    logger = Logger(_config())
    monkeypatch.setattr(logger, "atoms", lambda *a: pytest.fail("atoms built for no log"))
    request, environ = _request(referer=None, agent=None, user=None)
    response = types.SimpleNamespace(status=200, sent=2, headers=[])
    logger.access(response, request, environ, datetime.timedelta(microseconds=1))


def test_another_format_is_written_by_gunicorns_own_access(tmp_path):
    # Its atoms may ask what the request lacks: gunicorn's SafeAtoms answers '-' for it.
    request, environ = _request(referer=None, agent=None, user=None)
    response = types.SimpleNamespace(status=200, sent=2, headers=[("Content-Type", "text/csv")])
    line = _written(
        tmp_path / "access",
        Logger,
        request,
        environ,
        response,
        access_format="%(h)s %({x-missing}i)s %({content-type}o)s",
    )
    assert line == "203.0.113.9 - text/csv\n"


def test_another_format_gets_every_atom():
    config = _config("%(h)s %({content-type}o)s %(D)s")
    request, environ = _request(referer=None, agent=None, user=None)
    response = types.SimpleNamespace(
        status=200, sent=2, headers=[("Content-Type", "application/json")]
    )
    took = datetime.timedelta(microseconds=1234)
    line = config.access_log_format % glogging.SafeAtoms(
        Logger(config).atoms(response, request, environ, took)
    )
    assert line == "203.0.113.9 application/json 1234"


def test_the_procfile_serves_with_it():
    procfile = (Path(__file__).resolve().parents[2] / "Procfile").read_text()
    web = next(line for line in procfile.splitlines() if line.startswith("web:"))
    assert "--logger-class farkle_site.serving.Logger" in web


def _logged(logger_class, request, environ, response, arrange) -> None:
    """``logger_class``'s access line, its access log first arranged by ``arrange(log)``."""
    logger = logger_class(_config())
    logger.cfg.set("accesslog", "-")
    logger.setup(logger.cfg)
    log = logger.access_log
    # Only gunicorn's own handler, whatever other tests' log capture left on its logger.
    kept = log.handlers
    log.handlers = [handler for handler in kept if getattr(handler, "_gunicorn", False)]
    arrange(log)
    try:
        logger.access(response, request, environ, datetime.timedelta(microseconds=1234))
    finally:
        for handler in log.handlers:
            handler.flush()
        log.handlers = kept


def _default_line_parts():
    request, environ = _request(referer=None, agent="Mozilla/5.0", user=None)
    response = types.SimpleNamespace(status=200, sent=2, headers=[])
    return request, environ, response


@time_machine.travel(NOON, tick=False)
def test_the_line_to_standard_output_is_written_without_a_log_record(capsys, monkeypatch):
    # The Procfile's access log: gunicorn's stream handler on standard output.
    request, environ, response = _default_line_parts()
    _logged(glogging.Logger, request, environ, response, lambda log: None)
    theirs = capsys.readouterr().out

    def no_record(log):
        monkeypatch.setattr(log, "handle", lambda record: pytest.fail("a log record was made"))

    _logged(Logger, request, environ, response, no_record)
    assert capsys.readouterr().out == theirs
    assert theirs.count("\n") == 1 and theirs.startswith("203.0.113.9 - ")


def _formatted(log):
    for handler in log.handlers:
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s %(message)s"))


def _filtered(log):
    for handler in log.handlers:
        handler.addFilter(lambda record: False)


def _propagated(log):
    log.propagate = True


@pytest.mark.parametrize("arrange", [_formatted, _filtered, _propagated])
@time_machine.travel(NOON, tick=False)
def test_a_log_configuration_that_adds_anything_gets_loggings_way(arrange, capsys):
    # Another format, a filter, the record passed on to the root's handlers: as gunicorn logs.
    request, environ, response = _default_line_parts()
    root = logging.getLogger()
    seen: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())
    root.addHandler(handler)
    try:
        outputs = []
        for logger_class in (glogging.Logger, Logger):
            _logged(logger_class, request, environ, response, arrange)
            outputs.append((capsys.readouterr().out, list(seen)))
            seen.clear()
    finally:
        root.removeHandler(handler)
        logging.getLogger("gunicorn.access").propagate = False
    assert outputs[0] == outputs[1]
    if arrange is _formatted:
        assert outputs[0][0].startswith("INFO gunicorn.access 203.0.113.9 - ")
    if arrange is _filtered:
        assert outputs[0][0] == ""
    if arrange is _propagated:
        assert len(outputs[0][1]) == 1 and outputs[0][1][0].startswith("203.0.113.9 - ")


def test_the_time_is_gunicorns_each_second():
    ours, theirs = Logger(_config()), glogging.Logger(_config())
    for moment in (NOON, NOON + datetime.timedelta(seconds=1), NOON + datetime.timedelta(days=40)):
        with time_machine.travel(moment, tick=False):
            assert ours.now() == theirs.now()


@time_machine.travel(NOON, tick=False)
def test_an_access_file_closed_since_is_opened_again_as_logging_does(tmp_path):
    # A FileHandler whose stream was closed (as a reopen between two requests leaves it for an
    # instant) is opened again by its own emit, both ways.
    request, environ, response = _default_line_parts()
    written = []
    for name, logger_class in (("gunicorn", glogging.Logger), ("ours", Logger)):
        config = _config()
        config.set("accesslog", str(tmp_path / name))
        logger = logger_class(config)
        log = logger.access_log
        kept = log.handlers
        log.handlers = [handler for handler in kept if getattr(handler, "_gunicorn", False)]
        try:
            for handler in log.handlers:
                handler.close()
            logger.access(response, request, environ, datetime.timedelta(microseconds=1234))
            for handler in log.handlers:
                handler.close()
        finally:
            log.handlers = kept
        written.append((tmp_path / name).read_text())
    assert written[0] == written[1]
    assert written[0].count("\n") == 1 and written[0].startswith("203.0.113.9 - ")
