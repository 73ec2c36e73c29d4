"""DRF plumbing every endpoint shares: CSRF for every browser session, a bounded JSON parser,
and throttles keyed by player or address. (Kept apart from ``farkle_site.errors``: DRF imports
these classes while ``rest_framework.views`` is still loading.)"""

import functools
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from json.encoder import encode_basestring_ascii
from typing import Any

import orjson
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from rest_framework import exceptions
from rest_framework.authentication import SessionAuthentication
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.parsers import JSONParser
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from farkle_site import ratelimit


class CsrfSessionAuthentication(SessionAuthentication):
    """Session authentication that checks CSRF on every unsafe request, users or guests.

    DRF's session authentication checks CSRF only for logged-in users, but a guest's session
    holds a player too: a cross-site form must not be able to act for it.
    """

    def authenticate(self, request):
        # Checked on Django's request: a forged form is refused as such (403), before DRF's
        # parsers would refuse its content type (415).
        self.enforce_csrf(request._request)
        user = getattr(request._request, "user", None)
        if user is None or not user.is_active or not user.is_authenticated:
            return None
        return (user, None)


# No request of the API nests deeper than an action's list of dice (2 levels).
API_MAX_JSON_DEPTH = 32


def _depth_exceeds(value: Any, limit: int) -> bool:
    """Whether parsed JSON nests deeper than ``limit`` (iterative: deep input cannot recurse)."""
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            pending.extend((child, depth + 1) for child in children)
    return False


class BoundedJSONParser(JSONParser):
    """JSON only, refusing bodies larger than any real request before reading them, and bodies
    nested deeper than any real request."""

    def parse(self, stream, media_type=None, parser_context=None):
        request = (parser_context or {}).get("request")
        length = request.META.get("CONTENT_LENGTH") if request is not None else None
        try:
            too_large = int(length or 0) > settings.API_MAX_BODY_BYTES
        except ValueError:
            too_large = True
        if too_large:
            raise exceptions.ParseError(
                f"The request body is larger than {settings.API_MAX_BODY_BYTES} bytes."
            )
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            # Python's json recurses once per level: a 2 KB body of brackets exhausts the stack.
            raise exceptions.ParseError("The JSON is nested too deeply.") from None
        if _depth_exceeds(data, API_MAX_JSON_DEPTH):
            raise exceptions.ParseError("The JSON is nested too deeply.")
        return data


class JsonNegotiation(DefaultContentNegotiation):
    """DRF's content negotiation, with the everyday case decided without parsing anything.

    A view that renders JSON only, asked for JSON (the site's scripts, API clients) or for
    anything (no Accept header, ``*/*``), with no ``?format=``, gets JSON with exactly the media
    type DRF would give; everything else is DRF's to decide (a 406, the schema's formats). DRF's
    parsing of the header and its look-up of ``?format=`` (a raised KeyError) cost a few percent
    of a game action's CPU (issue 15).
    """

    PLAIN = frozenset((None, "*/*", "application/json"))

    def select_renderer(self, request, renderers, format_suffix=None):
        if (
            len(renderers) == 1
            and format_suffix is None
            and renderers[0].media_type == "application/json"
            and request.META.get("HTTP_ACCEPT") in self.PLAIN
            and self.settings.URL_FORMAT_OVERRIDE not in request.query_params
        ):
            return renderers[0], renderers[0].media_type
        return super().select_renderer(request, renderers, format_suffix)


class FastJSONRenderer(JSONRenderer):
    """DRF's JSON renderer, with the everyday payload encoded by orjson: the same JSON as DRF's,
    in about a tenth of the time (the answer's encoding was 5 % of a game action's CPU, and a
    leaderboard's distribution is 11 KB).

    With no indent asked, orjson encodes, and every character past ``~`` it wrote (in JSON only a
    string holds one) is escaped as DRF escapes it (``UNICODE_JSON`` off: accents, the line and
    paragraph separators, DEL). Anything orjson refuses or leaves to DRF's encoder (datetimes,
    dataclasses, Decimals, lazy strings, keys that are not strings, integers beyond 64 bits, lone
    surrogates, iterators, which the first attempt would use up) is DRF's to encode, as before.
    Three things differ, none in meaning: a float may be written another way (1e-05 as 0.00001),
    a NaN or an infinity, which DRF refuses (an error), is written null, and a plain ``Enum``
    member, which DRF refuses too, is written as its value.
    """

    _OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS

    def render(self, data, accepted_media_type=None, renderer_context=None):
        plain = (
            data is not None
            and self.ensure_ascii
            and self.compact
            and (not accepted_media_type or ";" not in accepted_media_type)
            and (renderer_context or {}).get("indent") is None
        )
        if plain:
            try:
                encoded = orjson.dumps(data, default=_fast_default, option=self._OPTIONS)
            except TypeError:  # orjson.JSONEncodeError included
                pass
            else:
                if encoded.isascii() and b"\x7f" not in encoded:
                    return encoded
                return _BEYOND_TILDE.sub(_json_escape, encoded.decode()).encode()
        return super().render(data, accepted_media_type, renderer_context)


_drf_default = JSONRenderer.encoder_class().default
# Runs of what only a JSON string can hold past "~", escaped by Python's own ASCII encoder (the
# one DRF's json.dumps uses), quotes dropped.
_BEYOND_TILDE = re.compile(r"[\x7f-\U0010ffff]+")


def _json_escape(match: re.Match) -> str:
    return encode_basestring_ascii(match.group())[1:-1]


def _fast_default(value: Any) -> Any:
    # An iterator is used up by reading it: left whole to DRF's encoder, which reads it once.
    if isinstance(value, Iterator):
        raise TypeError("an iterator is DRF's to encode")
    return _drf_default(value)


class ScopedPlayerThrottle(SimpleRateThrottle):
    """Rate limit by the view's ``throttle_scope``, per player when the browser has one."""

    scope_attribute = "throttle_scope"

    def __init__(self):
        # The scope, hence the rate, is only known once the view is (as ScopedRateThrottle).
        pass

    def allow_request(self, request, view):
        counter = self.counter(request, view)
        if counter is None:
            return True
        # Counted already by the session's read (SessionCountedThrottles), or now: a fixed window
        # counted atomically in the shared cache (farkle_site.ratelimit), in place of DRF's
        # history of timestamps read and written back by each request.
        hit = getattr(request.session, "counted", {}).pop(counter, None)
        if hit is None:
            hit = ratelimit.hit(*counter, now=self.timer())
        return self.judge(hit)

    def expected_counter(self, request, view, player_id: int) -> tuple[str, int] | None:
        """The counter of this request if its session holds ``player_id``, found without reading
        the session; None when this throttle would not count it."""
        self.scope = getattr(view, self.scope_attribute, None)
        if not self.scope:
            return None
        return self._counter(request, view, key=self._key(f"player-{player_id}"))

    def counter(self, request, view) -> tuple[str, int] | None:
        """The counter this request counts on (its key, its window in seconds), or None when
        this throttle lets the request through uncounted."""
        self.scope = getattr(view, self.scope_attribute, None)
        if not self.scope:
            return None
        return self._counter(request, view)

    def _counter(self, request, view, *, key: str | None = None) -> tuple[str, int] | None:
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        self.key = key if key is not None else self.get_cache_key(request, view)
        return None if self.key is None else (self.key, self.duration)

    def judge(self, hit: ratelimit.Hit) -> bool:
        """Whether the request is allowed, given its counter's count (and when its window ends)."""
        self._wait = hit.window_left
        return hit.count <= self.num_requests

    def wait(self) -> float:
        return self._wait

    def get_rate(self):
        # Read at each request, not once at import as DRF does, so the settings stay the truth.
        rates = api_settings.DEFAULT_THROTTLE_RATES
        if self.scope not in rates:
            raise ImproperlyConfigured(f"No throttle rate for the scope {self.scope!r}.")
        return rates[self.scope]

    def get_cache_key(self, request, view):
        player_id = request.session.get(settings.PLAYER_SESSION_KEY)
        ident = f"player-{player_id}" if player_id else f"address-{self.get_ident(request)}"
        return self._key(ident)

    def _key(self, ident: str) -> str:
        return self.cache_format % {"scope": self.scope, "ident": ident}


class ScopedAddressThrottle(ScopedPlayerThrottle):
    """Rate limit per client address (behind NUM_PROXIES), whoever the player, by the view's
    ``address_throttle_scope`` (or ``throttle_scope`` when the view throttles only by address)."""

    def counter(self, request, view):
        self.scope_attribute = (
            "address_throttle_scope"
            if hasattr(view, "address_throttle_scope")
            else "throttle_scope"
        )
        return super().counter(request, view)

    def expected_counter(self, request, view, player_id):
        # Counted on its own: an address throttle needs no session.
        return None

    def get_cache_key(self, request, view):
        return self._key(self.get_ident(request))


class ThrottledAtOnce:
    """A view (a mixin before APIView) whose throttles are counted in one round trip to the
    shared cache (``ratelimit.hit_all``) rather than one each; refused as DRF refuses, with the
    longest wait of the throttles that refuse. Every throttle of the view must be a
    ``ScopedPlayerThrottle``."""

    def check_throttles(self, request):
        counted = []
        for throttle in self.get_throttles():
            counter = throttle.counter(request, self)
            if counter is not None:
                counted.append((throttle, counter))
        hits = ratelimit.hit_all([counter for _, counter in counted])
        waits = [
            throttle.wait()
            for (throttle, _), hit in zip(counted, hits, strict=True)
            if not throttle.judge(hit)
        ]
        if waits:
            self.throttled(request, max(waits))


# The player each session held when this process last served it, by session key: a guess of
# the throttles' counters that the session's own read then checks (SessionCountedThrottles).
_SESSION_PLAYERS: OrderedDict[str, int] = OrderedDict()
_SESSION_PLAYERS_SIZE = 4096
_session_players_lock = threading.Lock()


def _expected_player(session_key: str) -> int | None:
    with _session_players_lock:
        return _SESSION_PLAYERS.get(session_key)


def _remember_player(session_key: str, player_id: int | None) -> None:
    with _session_players_lock:
        if player_id is None:
            _SESSION_PLAYERS.pop(session_key, None)
            return
        _SESSION_PLAYERS[session_key] = player_id
        _SESSION_PLAYERS.move_to_end(session_key)
        while len(_SESSION_PLAYERS) > _SESSION_PLAYERS_SIZE:
            _SESSION_PLAYERS.popitem(last=False)


class SessionCountedThrottles:
    """A view (a mixin before APIView) whose per-player throttles are counted by the script that
    reads the browser's session from Redis (``SessionStore.count_on_load``): one round trip to
    Redis per request, not two (issue 15: a game action's session read, then its throttle).

    The counters are named after the session's player, known only once the session is read, so
    they are those of the player this process last saw in the session with the same key (a
    secret of that browser's). The session's read settles it: a throttle whose real counter was
    counted takes that count, and one whose counter was not (the session holds another player
    under the same key now: one bound to it since, or the session was flushed as it was read)
    counts its own, so each request counts once on its player's counter; a wrong guess counts
    one more on the counter of the player the same browser held before, never on another
    browser's. A session this process has not seen (a login or a logout gives a new key) counts
    as before. Not for a ``ThrottledAtOnce`` view: its throttles count apart from the read.
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # Checked once, as the view is defined: it would count each request twice.
        if issubclass(cls, ThrottledAtOnce):
            raise ImproperlyConfigured("A ThrottledAtOnce view counts apart from the session.")

    def initial(self, request, *args, **kwargs):
        key = self.count_with_session(request)
        super().initial(request, *args, **kwargs)
        self.remember_session_player(request, key)

    def count_with_session(self, request) -> str | None:
        """Ask the session's read, not yet made, to count the throttles' expected counters; the
        session's key (None for a browser without one)."""
        session = request.session
        key = session.session_key
        player_id = _expected_player(key) if key else None
        count_on_load = getattr(session, "count_on_load", None)
        if player_id is not None and count_on_load is not None:
            expected = (t.expected_counter(request, self, player_id) for t in self.get_throttles())
            count_on_load([counter for counter in expected if counter is not None])
        return key

    def remember_session_player(self, request, key: str | None) -> None:
        """Remember the player the session holds, for the next request's guess."""
        if key:
            _remember_player(key, request.session.get(settings.PLAYER_SESSION_KEY))


class PlainLane:
    """A view (a mixin before APIView) whose everyday requests are served without DRF's request
    and response objects, which cost a game action 12 % of its instructions (issue 15), and a
    fresh browser's two requests about as much.

    An everyday request has JSON or anything accepted in return, no query string but one the
    view reads plainly (``plain_query``), a CSRF check that passes, the site's own
    authentication, permission, parser, negotiation and renderer, and what the kind of lane
    asks (``plain_serve``). It is then authenticated, throttled, handled and refused exactly as
    DRF would do it, in the same order, with the same classes and the same exception handler;
    anything else, before anything was counted, is DRF's from the start (its refusals, its 415,
    its 406, OPTIONS, HEAD). The view's DRF method and its plain
    one share the work, so the two ways answer alike: the tests send every case both ways and
    compare the answers. What differs is the object: a plain answer is Django's
    ``HttpResponse``, with no DRF ``.data``.

    Each kind of lane names its ``plain_method`` and defines ``plain_serve(request,
    url_kwargs, query)``: the request's work, called once it is authenticated and throttled,
    that gives its payload and status; None to leave the request to DRF.
    """

    plain_method = ""

    def plain_query(self, text: str) -> dict | None:
        """The query string's parameters, read as the view's DRF method reads them, when the
        lane may serve it; None to leave the request to DRF. A view reads none by default: only
        an empty query string is the lane's."""
        return None if text else {}

    def dispatch(self, request, *args, **kwargs):
        serve = self._plain_request(request, kwargs) if _LANE_OPEN else None
        if serve is None:
            return super().dispatch(request, *args, **kwargs)
        self.args, self.kwargs, self.request = args, kwargs, request
        self.headers = self.default_response_headers
        renderer = self.renderer_classes[0]()
        counted = isinstance(self, SessionCountedThrottles)
        try:
            key = self.count_with_session(request) if counted else None
            # DRF's order: authentication (the user, whose read is the session's), permissions,
            # throttles; the CSRF check, which comes first, was passed.
            request.user.is_authenticated  # noqa: B018 - the lazy user is read as DRF reads it
            self.check_permissions(request)
            self.check_throttles(request)
            if counted:
                self.remember_session_player(request, key)
            payload, status = serve()
        except Exception as exc:
            response = self._refusal(request, exc)
            response.accepted_renderer = renderer
            response.accepted_media_type = renderer.media_type
            response.renderer_context = self.get_renderer_context()
        else:
            content = renderer.render(payload, renderer.media_type, self.get_renderer_context())
            response = HttpResponse(content, status=status, content_type=renderer.media_type)
        for name, value in self.headers.items():
            response[name] = value
        return response

    def _refusal(self, request, exc: Exception):
        # DRF's ``handle_exception``: a bug goes on to be a 500.
        if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
            auth_header = self.get_authenticate_header(request)
            if auth_header:
                exc.auth_header = auth_header
            else:
                exc.status_code = 403
        response = self.get_exception_handler()(exc, self.get_exception_handler_context())
        if response is None:
            raise exc
        response.exception = True
        return response

    def _plain_request(self, request, url_kwargs: dict) -> Callable[[], tuple[Any, int]] | None:
        meta = request.META
        if (
            request.method != self.plain_method
            or meta.get("HTTP_ACCEPT") not in JsonNegotiation.PLAIN
            or "format" in url_kwargs
            or not self._lane_fits()
            # DRF's test client may force a user, which only DRF's request knows of.
            or getattr(request, "_force_auth_user", None) is not None
            or getattr(request, "_force_auth_token", None) is not None
        ):
            return None
        query = self.plain_query(meta.get("QUERY_STRING", ""))
        if query is None:
            return None
        serve = self.plain_serve(request, url_kwargs, query)
        if serve is None:
            return None
        # A check of its own per request, as DRF's: the middleware keeps the trusted origins it
        # has read, which the settings may change.
        check = _CsrfCheck(_no_response)
        if check.process_request(request) is not None:
            return None
        if check.process_view(request, None, (), {}) is not None:
            return None
        return serve

    def _lane_fits(self) -> bool:
        # The classes the lane stands in for; a view that changes any of them is DRF's.
        renderers, parsers = self.renderer_classes, self.parser_classes
        return (
            self.authentication_classes == [CsrfSessionAuthentication]
            and all(permission is AllowAny for permission in self.permission_classes)
            and len(renderers) == 1
            and issubclass(renderers[0], FastJSONRenderer)
            and renderers[0].charset is None
            and bool(parsers)
            and issubclass(parsers[0], BoundedJSONParser)
            and issubclass(self.content_negotiation_class, JsonNegotiation)
            and self.versioning_class is None
            and self.plain_method.lower() in self.http_method_names
        )


class PlainJsonPost(PlainLane):
    """A lane (``PlainLane``) for a POST of a JSON object: the site's most frequent request, a
    game action. Plain means, besides: sent as ``application/json`` within
    ``API_MAX_BODY_BYTES``, and accepted by the view's ``plain_data``.

    The view defines ``plain_data(body) -> dict | None`` (the body's validated data when it is
    plainly valid, None to leave it to DRF's validation) and ``plain_post(request, data,
    **url_kwargs) -> (payload, status)`` (the work, raising as its ``post`` would).
    """

    plain_method = "POST"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # Checked once, as the view is defined. The lane counts the throttles in the session's
        # read, as that mixin does.
        if not issubclass(cls, SessionCountedThrottles):
            raise ImproperlyConfigured("A PlainJsonPost view counts with SessionCountedThrottles.")
        missing = [name for name in ("plain_data", "plain_post") if not hasattr(cls, name)]
        if missing:
            raise ImproperlyConfigured(f"A PlainJsonPost view defines {' and '.join(missing)}.")

    def plain_serve(self, request, url_kwargs, query):
        meta = request.META
        if meta.get("CONTENT_TYPE") != "application/json":
            return None
        try:
            if not 0 < int(meta.get("CONTENT_LENGTH") or 0) <= settings.API_MAX_BODY_BYTES:
                return None
            # As DRF's JSON parser reads it: UTF-8, no NaN nor infinities.
            body = json.loads(request.body.decode("utf-8"), parse_constant=_refuse_constant)
        except (ValueError, RecursionError, OSError):
            # A malformed length or body (UnicodeDecodeError included), one nested too deeply
            # for Python's JSON, or a body the client stopped sending: DRF's, which refuses each
            # at its turn, after the CSRF check and the throttles.
            return None
        data = self.plain_data(body) if type(body) is dict else None
        if data is None:
            return None
        return functools.partial(self.plain_post, request, data, **url_kwargs)


class PlainPostIgnoringBody(PlainLane):
    """A lane (``PlainLane``) for a POST whose body the view never reads, nor DRF for it (only
    the CSRF check may read a form's token, the same both ways): a start, the midnight rush's
    second request. The view defines ``plain_post(request, **url_kwargs) -> (payload, status)``."""

    plain_method = "POST"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if not hasattr(cls, "plain_post"):
            raise ImproperlyConfigured("A PlainPostIgnoringBody view defines plain_post.")

    def plain_serve(self, request, url_kwargs, query):
        return functools.partial(self.plain_post, request, **url_kwargs)


class PlainGet(PlainLane):
    """A lane (``PlainLane``) for a GET: today's daily, the midnight rush's first request, and a
    leaderboard's page. The view defines ``plain_get(request, query, **url_kwargs) -> (payload,
    status)``, ``query`` being what its ``plain_query`` read."""

    plain_method = "GET"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if not hasattr(cls, "plain_get"):
            raise ImproperlyConfigured("A PlainGet view defines plain_get.")

    def plain_serve(self, request, url_kwargs, query):
        return functools.partial(self.plain_get, request, query, **url_kwargs)


# Tests close the lane to obtain DRF's own answers, which the lane's must equal.
_LANE_OPEN = True


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def _no_response(request):  # pragma: no cover - the check never calls its view
    return None


class _CsrfCheck(CsrfViewMiddleware):
    """Django's CSRF check, as DRF's session authentication runs it, that tells without answering
    (DRF's ``CSRFCheck``)."""

    def _reject(self, request, reason):
        return reason
