"""The midnight rush's client in `bench/api.py` (one thread, non-blocking sockets): how it reads
an answer, and that each of its browsers keeps its cookies and sends its CSRF token, also when
the site closes the connection after the first answer. `test_benches.py` runs it against the
site itself; these hold it to what a browser does where the site never goes."""

from __future__ import annotations

import gc
import importlib
import socketserver
import sys
import threading

import pytest

from tests.repository_guard import ROOT

_WHOLE = (
    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
    b"Set-Cookie: csrftoken=abc; expires=Thu, 02 Dec 2027 00:00:00 GMT; Path=/\r\n"
    b"Set-Cookie: fd_browser=b-1; HttpOnly; Path=/\r\nContent-Length: 13\r\n\r\n"
    b'{"day": "x1"}'
)


@pytest.fixture(scope="module")
def bench_api():
    before = set(sys.modules)
    with pytest.MonkeyPatch.context() as patch:
        # The bench imports its neighbours as top-level modules, as `python bench/api.py` does.
        patch.syspath_prepend(str(ROOT / "bench"))
        yield importlib.import_module("api")
    # Nor do those top-level names ("api", "databases") outlive these tests.
    for name in set(sys.modules) - before:
        if str(ROOT / "bench") in (getattr(sys.modules[name], "__file__", None) or ""):
            del sys.modules[name]


def test_a_whole_answer_is_read_with_its_cookies(bench_api):
    status, headers, cookies, body = bench_api.split_response(_WHOLE)

    assert (status, headers[b"content-type"], body) == (200, b"application/json", b'{"day": "x1"}')
    assert cookies == [
        b"csrftoken=abc; expires=Thu, 02 Dec 2027 00:00:00 GMT; Path=/",
        b"fd_browser=b-1; HttpOnly; Path=/",
    ]


def test_an_answer_split_across_reads_is_awaited_to_its_last_byte(bench_api):
    for cut in range(len(_WHOLE)):
        assert bench_api.split_response(_WHOLE[:cut]) is None, cut


@pytest.mark.parametrize(
    "answer",
    [
        _WHOLE + b"HTTP/1.1",  # more than one answer to one request: out of step
        _WHOLE.replace(b"Content-Length: 13\r\n", b"Transfer-Encoding: chunked\r\n"),
        b"garbage\r\n\r\n",
        b"HTTP/1.1 OK\r\nContent-Length: 0\r\n\r\n",
    ],
    ids=["bytes after it", "no length", "no status line", "no status"],
)
def test_an_answer_the_site_never_gives_is_refused(bench_api, answer):
    with pytest.raises(ValueError):
        bench_api.split_response(answer)


class _Site(socketserver.ThreadingTCPServer):
    """Answers today's daily with its cookies then closes the connection, and starts a game
    only with the CSRF cookie's token and the cookies sent back: what a browser must do."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.requests: list[bytes] = []
        self.lock = threading.Lock()


class _Handler(socketserver.StreamRequestHandler):
    def handle(self) -> None:
        while True:
            head = b""
            while not head.endswith(b"\r\n\r\n"):
                line = self.rfile.readline()
                if not line:
                    return
                head += line
            with self.server.lock:
                self.server.requests.append(head)
            if head.startswith(b"GET /api/daily/today "):
                body = b'{"day": "x1"}'
                self.wfile.write(
                    b"HTTP/1.1 200 OK\r\nSet-Cookie: csrftoken=tok9; Path=/\r\n"
                    b"Set-Cookie: fd_browser=b-7; HttpOnly\r\nConnection: close\r\n"
                    b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
                )
                return
            good = (
                head.startswith(b"POST /api/daily/today/attempts ")
                and b"\r\nX-CSRFToken: tok9\r\n" in head
                and b"\r\nCookie: csrftoken=tok9; fd_browser=b-7\r\n" in head
            )
            status, body = (b"201 Created", b'{"official": true}') if good else (b"403 No", b"{}")
            self.wfile.write(
                b"HTTP/1.1 %s\r\nContent-Length: %d\r\n\r\n%s" % (status, len(body), body)
            )


def test_each_browser_starts_with_its_cookies_and_token_on_a_new_connection_if_closed(bench_api):
    site = _Site()
    serving = threading.Thread(target=site.serve_forever, daemon=True)
    serving.start()
    try:
        _, samples = bench_api.rush_phase(site.server_address[1], players=5, concurrency=2)
    finally:
        site.shutdown()
        site.server_close()

    assert samples.errors == []
    # Two requests each, each answered once, and each browser's start after its read.
    assert len(samples.seconds) == 10
    kinds = sorted(request.split(b" ", 1)[0] for request in site.requests)
    assert kinds == [b"GET"] * 5 + [b"POST"] * 5


def test_a_timed_phase_runs_with_the_clients_heap_set_apart_and_hands_it_back(bench_api):
    # What the bench held before the phase is out of its collector's walks during it (a full
    # collection would otherwise time every game the client holds into a request in flight),
    # and handed back after, even when the phase fails.
    held = [[index] for index in range(1000)]
    seen = {}

    @bench_api.client_heap_apart
    def phase(fail: bool):
        seen["frozen"] = gc.get_freeze_count()
        seen["walked"] = any(o is held[0] for o in gc.get_objects())
        if fail:
            raise RuntimeError("the phase failed")

    # As in the bench's own process, nothing else here is frozen (gc.unfreeze hands back all).
    assert gc.get_freeze_count() == 0
    phase(False)
    assert seen["frozen"] >= len(held)
    assert not seen["walked"]
    assert gc.get_freeze_count() == 0
    with pytest.raises(RuntimeError):
        phase(True)
    assert gc.get_freeze_count() == 0
    assert any(o is held[0] for o in gc.get_objects())
