"""Commands sent on each thread's own connection to Redis (farkle_site/redis_wire.py, issue 15),
seen through the throttles' script: the counts of redis-py's client, through a Redis that
restarted, lost its scripts, or is gone, in threads and in a forked child; and replies cut off
halfway, by a proxy in front of the test's Redis."""

import contextlib
import os
import socket
import threading
import uuid
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis

from farkle_site import ratelimit, redis_wire
from tests.helpers import REDIS, redis_commands_sent


def counter() -> str:
    return f"test:{uuid.uuid4().hex}"


def own_connection():
    return redis_wire._connections.by_url[REDIS]


def test_counts_and_reads_as_redis_holds_them(shared_redis):
    name = counter()
    shared_redis.set(f"farkle:rl:{name}:value", b"stored")
    first = ratelimit.hit_all([(f"{name}:a", 60), (f"{name}:b", 60)], now=1_000_030.0)
    second = ratelimit.read_and_hit_all(
        f"farkle:rl:{name}:value", [(f"{name}:a", 60)], now=1_000_031.0
    )
    # Windows of 60 s numbered from the epoch: 1,000,030 falls in window 16,667, 50 s left.
    assert first == [ratelimit.Hit(1, 50.0), ratelimit.Hit(1, 50.0)]
    assert second == (b"stored", [ratelimit.Hit(2, 49.0)])
    assert int(shared_redis.get(f"farkle:rl:{name}:a:16667")) == 2
    assert 0 < shared_redis.ttl(f"farkle:rl:{name}:a:16667") <= 61


def test_a_server_that_lost_its_scripts_is_sent_the_source(shared_redis, monkeypatch):
    name = counter()
    ratelimit.hit_all([(name, 60)])
    shared_redis.script_flush()  # as a restarted Redis: it knows no script
    commands = redis_commands_sent(monkeypatch)
    assert ratelimit.hit_all([(name, 60)])[0].count == 2
    assert ratelimit.hit_all([(name, 60)])[0].count == 3
    # The SHA refused once, the script loaded (as redis-py's Script does) and sent by its SHA
    # again, and known from then on.
    assert commands == ["EVALSHA", "SCRIPT", "EVALSHA", "EVALSHA"]


def test_a_connection_the_server_dropped_is_made_again_and_counts_once(shared_redis, monkeypatch):
    name = counter()
    ratelimit.hit_all([(name, 60)])
    host, port = own_connection()._sock.getsockname()[:2]
    assert shared_redis.client_kill(f"{host}:{port}")
    commands = redis_commands_sent(monkeypatch)
    assert ratelimit.hit_all([(name, 60)])[0].count == 2
    # Sent on the dropped connection (never counted), then once more on a new one.
    assert commands == ["EVALSHA", "EVALSHA"]
    assert own_connection()._sock.getsockname()[1] != port


def test_an_unreachable_server_is_a_connection_error_at_once_then_a_reachable_one_counts(
    settings, shared_redis, monkeypatch
):
    attempts = []
    # Each attempt opens a socket (redis-py's TCP connection, its _connect).
    connect = redis.connection.Connection._connect
    monkeypatch.setattr(
        redis.connection.Connection,
        "_connect",
        lambda self: attempts.append(self) or connect(self),
    )
    # Port 9 (discard) has no Redis: the error the API answers 503 for, after one try only (a
    # connection that was never open is not made again).
    settings.CACHE_URL = "redis://127.0.0.1:9/0"
    with pytest.raises(redis.ConnectionError):
        ratelimit.hit_all([(counter(), 60)])
    assert len(attempts) == 1
    settings.CACHE_URL = REDIS
    assert ratelimit.hit_all([(counter(), 60)])[0].count == 1


def test_each_thread_counts_on_a_connection_of_its_own(shared_redis):
    name = counter()
    seen = []

    def count() -> None:
        for _ in range(5):
            ratelimit.hit_all([(name, 60)])
        seen.append(own_connection())

    threads = [threading.Thread(target=count) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({id(connection) for connection in seen}) == 4
    # Twenty hits from four threads, none lost: the next is the 21st.
    assert ratelimit.hit_all([(name, 60)])[0].count == 21


def test_a_forked_child_makes_a_connection_of_its_own(shared_redis):
    name = counter()
    ratelimit.hit_all([(name, 60)])
    parents = own_connection()
    socket = parents._sock.getsockname()
    pid = os.fork()
    if pid == 0:  # the child: report by its exit status only, touching nothing else
        try:
            fresh = REDIS not in redis_wire._connections.by_url
            counted = ratelimit.hit_all([(name, 60)])[0].count == 2
            mine = own_connection() is not parents
            os._exit(0 if fresh and counted and mine else 1)
        except BaseException:
            os._exit(2)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    # The parent's connection was left alone by the child (which closed its copy on exit).
    assert ratelimit.hit_all([(name, 60)])[0].count == 3
    assert own_connection() is parents
    assert parents._sock.getsockname() == socket


def test_a_reply_later_than_the_socket_timeout_is_dropped_with_its_connection(
    settings, shared_redis
):
    # Redis holds writes back while paused: the script's reply comes after the client's
    # timeout. The connection is closed, never read again: the next script gets its own reply.
    url = f"{REDIS}?socket_timeout=0.2"
    settings.CACHE_URL = url
    name = counter()
    assert ratelimit.hit_all([(name, 60)])[0].count == 1
    shared_redis.client_pause(2000, all=False)
    try:
        with pytest.raises(redis.TimeoutError):
            ratelimit.hit_all([(name, 60)])
        assert not redis_wire._connections.by_url[url].is_connected
    finally:
        shared_redis.client_unpause()
    # The timed-out script was dropped with its client, never run: this is the second hit.
    assert ratelimit.hit_all([(name, 60)])[0].count == 2


class CuttingProxy:
    """A TCP proxy in front of the test's Redis that can cut a reply halfway: after a request
    naming ``marker`` passes through, the next bytes the server sends are passed on only in part,
    then the client's connection is closed (a server or a network gone mid-reply)."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.marker: bytes | None = None
        self.connections = 0
        self.sockets: list[socket.socket] = []
        self.threads = [threading.Thread(target=self._accept)]
        self.threads[0].start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # shut down
            self.connections += 1
            server = socket.create_connection(self.upstream)
            self.sockets += [client, server]
            state = {"cut": False}
            for pump in (self._requests, self._replies):
                thread = threading.Thread(target=pump, args=(client, server, state))
                thread.start()
                self.threads.append(thread)

    def _requests(self, client, server, state) -> None:
        while data := _received(client):
            if self.marker is not None and self.marker in data:
                self.marker, state["cut"] = None, True
            server.sendall(data)
        _shut(server)

    def _replies(self, client, server, state) -> None:
        while data := _received(server):
            if state["cut"]:
                # One byte: no reply is shorter (RESP3's null is three: "_\r\n").
                client.sendall(data[:1])
                break
            client.sendall(data)
        _shut(client)

    def close(self) -> None:
        # A thread blocked in accept() or recv() wakes only once its socket is shut down.
        _shut(self.listener)
        for each in self.sockets:
            _shut(each)
        for thread in self.threads:
            thread.join(timeout=5)
        for each in (self.listener, *self.sockets):
            each.close()


def _received(connection) -> bytes:
    try:
        return connection.recv(65536)
    except OSError:
        return b""


def _shut(connection) -> None:
    with contextlib.suppress(OSError):  # not connected, or shut already
        connection.shutdown(socket.SHUT_RDWR)


@pytest.fixture
def proxy():
    """The proxy in front of the test's Redis, and the test's Redis URL through it (its
    database and credentials kept, a client timeout added so that no test can hang)."""
    upstream = redis.Redis.from_url(REDIS).connection_pool.connection_kwargs
    if "host" not in upstream or urlsplit(REDIS).scheme != "redis":
        pytest.skip("the proxy speaks plain TCP: not for a Unix socket or TLS")
    proxy = CuttingProxy((upstream["host"], upstream["port"]))
    parts = urlsplit(REDIS)
    credentials = parts.netloc.rpartition("@")[0]
    netloc = f"{credentials}@127.0.0.1:{proxy.port}" if credentials else f"127.0.0.1:{proxy.port}"
    query = f"{parts.query}&socket_timeout=5" if parts.query else "socket_timeout=5"
    proxy.url = urlunsplit(parts._replace(netloc=netloc, query=query))
    yield proxy
    # This thread's connections through the proxy, closed with it.
    connection = redis_wire._connections.by_url.pop(proxy.url, None)
    if connection is not None:
        connection.disconnect()
    proxy.close()


def test_a_reply_cut_halfway_on_an_open_connection_is_read_whole_on_a_new_one(shared_redis, proxy):
    name = counter()
    assert redis_wire.command(proxy.url, "SET", f"farkle:rl:{name}", "stored") == b"OK"
    assert redis_wire.command(proxy.url, "SET", f"farkle:rl:{name}:b", "other") == b"OK"
    proxy.marker = f"farkle:rl:{name}:b".encode()
    # The reply ("$5\r\nother\r\n") arrives as "$", then the connection ends: the open
    # connection is made again and the command sent once more, its reply read whole.
    assert redis_wire.command(proxy.url, "GET", f"farkle:rl:{name}:b") == b"other"
    assert proxy.connections == 2
    # The next command, on the new connection, reads its own reply.
    assert redis_wire.command(proxy.url, "GET", f"farkle:rl:{name}") == b"stored"
    assert proxy.connections == 2


def test_a_reply_cut_on_a_new_connection_is_an_error_then_the_next_command_connects(proxy):
    name = f"farkle:rl:{counter()}"
    outcome = []

    def first_commands_of_a_thread() -> None:
        try:
            try:
                redis_wire.command(proxy.url, "GET", name)
            except redis.ConnectionError as error:
                outcome.append(error)
            outcome.append(redis_wire.command(proxy.url, "GET", name))
        finally:
            redis_wire._connections.by_url.pop(proxy.url).disconnect()

    proxy.marker = name.encode()
    thread = threading.Thread(target=first_commands_of_a_thread)
    thread.start()
    thread.join()
    # A connection made for the command is not made again: the error is the caller's (the
    # API's 503); the thread's next command connects anew and reads its own reply.
    assert isinstance(outcome[0], redis.ConnectionError)
    assert outcome[1:] == [None]
    assert proxy.connections == 2
