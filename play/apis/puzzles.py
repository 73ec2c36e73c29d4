"""API views every kind of puzzle shares, parameterised by how the puzzle is found.

A daily is found by its date, a challenge by its code: each app subclasses these views with
its own ``find_puzzle`` (and its own URL, throttles and schema summary). This module, with
``daily.apis.schemas`` (the payload shapes) and ``daily.web.session`` (the request's player), is
what another app may import from ``daily.apis``.
"""

from __future__ import annotations

import datetime
import re
from abc import ABCMeta, abstractmethod
from typing import Any

from django.http import HttpRequest
from django.utils import timezone
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from farkle_site.drf import (
    PlainGet,
    PlainPostIgnoringBody,
    ScopedPlayerThrottle,
    ThrottledAtOnce,
)
from farkle_site.middleware import browser_id_of
from play.apis import schemas
from play.apis.payloads import attempt_data, iso, puzzle_ref, verification_data
from play.models import Attempt, Puzzle
from play.selectors.analysis import reference_score
from play.selectors.leaderboards import (
    Distribution,
    Entry,
    Leaderboard,
    Standing,
    leaderboard_page,
)
from play.selectors.verification import verification_attempt
from play.services.attempts import (
    attempt_start,
    attempt_start_allowed,
    attempt_start_as_new_guest,
    new_guest_start_applies,
)
from play.services.players import display_name_generate, player_id_reserve
from play.web.session import (
    session_bound_to_new_guest,
    session_player,
    session_player_or_create,
)
from play.web.throttles import NewGuestThrottle


def _entry_data(entry: Entry, timed: bool) -> dict[str, Any]:
    data = {
        "rank": entry.rank,
        "name": entry.name,
        "score": entry.score,
        "finished_at": iso(entry.finished_at),
        "attempt": entry.attempt,
        "mine": entry.mine,
    }
    if timed:
        data["time_taken"] = entry.time_taken
    return data


def _standing_data(me: Standing | None) -> dict[str, Any] | None:
    if me is None:
        return None
    return {
        "rank": me.rank,
        "name": me.name,
        "score": me.score,
        "finished_at": iso(me.finished_at),
        "percentile": me.percentile,
        "attempt": me.attempt,
    }


# The distribution's payload, by the identity of the (shared) Distribution the selector gives
# for the same counts: hundreds of tallies turned into dicts once per process between finishes,
# rather than on every read. The object is kept beside its payload so that its id is not reused.
_DISTRIBUTIONS: dict[int, tuple[Distribution, dict[str, Any]]] = {}


def _distribution_data(distribution: Distribution) -> dict[str, Any]:
    cached = _DISTRIBUTIONS.get(id(distribution))
    if cached is not None and cached[0] is distribution:
        return cached[1]
    data = {
        "bucket_width": distribution.bucket_width,
        "histogram": [
            {"start": b.start, "end": b.end, "count": b.count} for b in distribution.histogram
        ],
        "scores": [{"score": t.score, "count": t.count} for t in distribution.scores],
        "mean": distribution.mean,
        "median": distribution.median,
        "best": distribution.best,
    }
    if len(_DISTRIBUTIONS) >= 32:
        _DISTRIBUTIONS.clear()
    _DISTRIBUTIONS[id(distribution)] = (distribution, data)
    return data


def leaderboard_data(
    puzzle: Puzzle,
    board: Leaderboard,
    now: datetime.datetime,
    reference: int | None = None,
    *,
    timed_entries: bool = False,
) -> dict[str, Any]:
    """A leaderboard as the API shows it (a day's or a challenge's), in the JSON shapes its
    serializer documents (``LeaderboardSerializer``; built directly, since turning every score
    of the distribution through DRF's fields cost more than the rest of the read);
    ``reference`` is the optimal player's score when the caller may see it; ``timed_entries``:
    the entries carry ``time_taken`` (a challenge's board)."""
    status = puzzle.status(now)
    return {
        **puzzle_ref(puzzle),
        "status": status,
        # Closed is not yet final: the close still adds the unfinished official games.
        "final": status == "closed" and puzzle.closed_at is not None,
        "accounts": board.accounts,
        "page": board.page,
        "page_size": board.page_size,
        "pages": board.pages,
        "players": board.ranked,
        "entries": [_entry_data(entry, timed_entries) for entry in board.entries],
        "me": _standing_data(board.me),
        "distribution": _distribution_data(board.distribution),
        "reference": None if reference is None else {"label": "optimal", "score": reference},
    }


def leaderboard_for_request(
    request: Request | HttpRequest,
    puzzle: Puzzle,
    now: datetime.datetime,
    query: dict[str, Any],
    *,
    timed_entries: bool = False,
) -> dict[str, Any]:
    """The leaderboard of a puzzle (a day's or a challenge's) for the request's player and its
    query's ``page`` and ``accounts``, as ``LeaderboardQuerySerializer`` validates them."""
    player = session_player(request)
    board = leaderboard_page(
        puzzle=puzzle, page=query["page"], now=now, player=player, accounts=query["accounts"]
    )
    reference = reference_score(puzzle=puzzle, player=player, now=now, ranked=board.me is not None)
    return leaderboard_data(puzzle, board, now, reference, timed_entries=timed_entries)


_PAGE = re.compile(r"[1-9][0-9]{0,8}")
# ``accounts`` as the site's pages send it (static/js/board.js), and its plain opposites: DRF's
# BooleanField reads each so.
_ACCOUNTS = {"1": True, "true": True, "0": False, "false": False}


def leaderboard_query(text: str) -> dict[str, Any] | None:
    """A leaderboard's ``page`` and ``accounts`` as ``LeaderboardQuerySerializer`` reads them
    from the query string ``text``, when it is plainly written: each at most once, the page in
    digits, accounts as the site's pages write it, nothing else. None for anything else (an
    unknown parameter, an escape, a page of ten digits), which the serializer reads or refuses
    with its messages. A leaderboard's pages are read through the plain lane (issue 15); a test
    holds this to the serializer."""
    query: dict[str, Any] = {"page": 1, "accounts": False}
    seen = set()
    for part in text.split("&") if text else ():
        name, equals, value = part.partition("=")
        if not equals or name in seen:
            return None
        seen.add(name)
        if name == "page" and _PAGE.fullmatch(value):
            query["page"] = int(value)
        elif name == "accounts" and value in _ACCOUNTS:
            query["accounts"] = _ACCOUNTS[value]
        else:
            return None
    return query


def verification_response(request: Request, puzzle) -> Response:
    """The facts to verify a puzzle by, for ``?attempt=<id>`` (shared with the challenges)."""
    query = schemas.VerifyQuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    now = timezone.now()
    attempt = verification_attempt(
        puzzle=puzzle,
        attempt_id=query.validated_data.get("attempt"),
        player=session_player(request),
        now=now,
    )
    return Response(verification_data(puzzle, attempt, now))


# Class comments, not docstrings, on these bases: the OpenAPI schema would show a docstring
# as the description of every view built on them.
class PuzzleApi(APIView, metaclass=ABCMeta):
    # A view of one puzzle, found from the URL's keyword arguments by ``find_puzzle``; each kind
    # of puzzle (a day, a challenge) says how.

    @abstractmethod
    def find_puzzle(self, *, now: datetime.datetime, **url_kwargs: Any) -> Puzzle:
        """The puzzle the URL names (a refusal when it names none). A view with
        ``puzzle_counters`` off may get a process's copy, not proven to be of the row that
        stands: ``proven_puzzle`` proves it."""

    def proven_puzzle(self, puzzle: Puzzle, *, now: datetime.datetime) -> Puzzle:
        """``puzzle`` as its row stands (read again if the copy was not of it)."""
        return puzzle


class PuzzleAttemptsApi(PlainPostIgnoringBody, ThrottledAtOnce, PuzzleApi):
    # Start an attempt: the player's first on an open puzzle is official, any later practice.
    # Its throttles (per player, and per address for a new guest) count in one round trip. A
    # fresh browser's second request (the midnight rush): served through the plain lane.

    throttle_classes = [ScopedPlayerThrottle, NewGuestThrottle]
    throttle_scope = "attempt_start"
    # A start reads the puzzle's fixed fields only (its times, table, options), never its counters.
    puzzle_counters = False

    def post(self, request: Request, **url_kwargs: Any) -> Response:
        payload, code = self.plain_post(request._request, **url_kwargs)
        return Response(payload, status=code)

    def plain_post(self, request: HttpRequest, **url_kwargs: Any) -> tuple[dict, int]:
        now = timezone.now()
        puzzle = self.find_puzzle(now=now, **url_kwargs)
        # Refused before the session's player is created: a refusal stores nothing.
        attempt_start_allowed(puzzle=puzzle, now=now)
        attempt = _start_as_new_guest(request, puzzle=puzzle, now=now)
        if attempt is None:
            # The usual way writes with the ORM, which checks nothing of a copy: prove it first.
            puzzle = self.proven_puzzle(puzzle, now=now)
            player = session_player_or_create(request, now=now)
            attempt = attempt_start(player=player, puzzle=puzzle, now=now)
        return attempt_data(attempt, attempt.game()), status.HTTP_201_CREATED


def _start_as_new_guest(
    request: HttpRequest, *, puzzle: Puzzle, now: datetime.datetime
) -> Attempt | None:
    """A fresh browser's official attempt on ``puzzle``, its guest and its session, in one
    statement that proves the puzzle's row (the midnight rush); None, with nothing stored and
    the session as it was, for any other browser."""
    user = getattr(request, "user", None)
    if session_player(request) is not None or (user is not None and user.is_authenticated):
        return None
    # Checked before an id is reserved and the session signed for nothing.
    if not new_guest_start_applies(puzzle=puzzle, now=now):
        return None
    player_id = player_id_reserve()
    if player_id is None:
        return None
    with session_bound_to_new_guest(request, player_id) as binding:
        attempt = attempt_start_as_new_guest(
            player_id=player_id,
            name=display_name_generate(),
            browser_id=browser_id_of(request),
            session_row=binding.row,
            puzzle=puzzle,
            now=now,
        )
        binding.created = attempt is not None
    return attempt


class PuzzleLeaderboardApi(PlainGet, PuzzleApi):
    # A puzzle's leaderboard for ``?page=&accounts=``, with ``leaderboard_extra`` fields. The
    # payload is built in the shapes of ``get_serializer_class()``, which documents it (and a
    # test holds the two equal); ``timed_entries``: its entries have ``time_taken``. Served
    # through the plain lane (farkle_site.drf) when its query string is plainly written.

    timed_entries = False

    def leaderboard_extra(self, puzzle: Puzzle) -> dict[str, Any]:
        """Fields a kind of puzzle adds to its leaderboard."""
        return {}

    def get(self, request: Request, **url_kwargs: Any) -> Response:
        return Response(self._board(request, None, url_kwargs))

    def plain_query(self, text: str) -> dict[str, Any] | None:
        return leaderboard_query(text)

    def plain_get(
        self, request: HttpRequest, query: dict[str, Any], **url_kwargs: Any
    ) -> tuple[dict[str, Any], int]:
        return self._board(request, query, url_kwargs), status.HTTP_200_OK

    def _board(self, request, query: dict[str, Any] | None, url_kwargs: dict) -> dict[str, Any]:
        # ``query``: read by the plain lane, or None for DRF's serializer to read (and refuse),
        # after the puzzle, whose refusal comes first either way.
        now = timezone.now()
        puzzle = self.find_puzzle(now=now, **url_kwargs)
        if query is None:
            serializer = schemas.LeaderboardQuerySerializer(data=request.query_params)
            serializer.is_valid(raise_exception=True)
            query = serializer.validated_data
        board = leaderboard_for_request(
            request, puzzle, now, query, timed_entries=self.timed_entries
        )
        return {**board, **self.leaderboard_extra(puzzle)}

    @abstractmethod
    def get_serializer_class(self) -> type:
        """The serializer that shapes (and documents) this leaderboard."""


class PuzzleVerificationApi(PuzzleApi):
    # The facts to verify a puzzle by, for ``?attempt=<id>``.

    def get(self, request: Request, **url_kwargs: Any) -> Response:
        return verification_response(request, self.find_puzzle(now=timezone.now(), **url_kwargs))
