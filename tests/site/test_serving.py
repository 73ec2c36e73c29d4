"""gunicorn's access line, built by the project's logger (farkle_site/serving.py)."""

import base64
import datetime
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
