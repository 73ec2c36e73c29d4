"""API views every kind of puzzle shares, parameterised by how the puzzle is found.

A daily is found by its date, a challenge by its code: each app subclasses these views with
its own ``find_puzzle`` (and its own URL, throttles and schema summary). This module, with
``play.apis.schemas`` (the payload shapes) and ``play.web.session`` (the request's player), is
what another app may import from ``daily.apis``.
"""

from __future__ import annotations

import datetime
from abc import ABCMeta, abstractmethod
from typing import Any

from django.utils import timezone
from django.utils.cache import patch_cache_control
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from farkle_site.drf import ScopedPlayerThrottle
from play.apis import schemas
from play.apis.payloads import attempt_data, iso, puzzle_ref, verification_data
from play.models import Puzzle
from play.selectors.analysis import reference_score
from play.selectors.leaderboards import (
    Distribution,
    Entry,
    Leaderboard,
    Standing,
    leaderboard_shown,
)
from play.selectors.verification import verification_attempt
from play.services.attempts import (
    StalePuzzle,
    attempt_game,
    attempt_start,
    attempt_start_allowed,
)
from play.web.session import session_player, session_player_or_create
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


def _distribution_data(distribution: Distribution) -> dict[str, Any]:
    return {
        "bucket_width": distribution.bucket_width,
        "histogram": [
            {"start": b.start, "end": b.end, "count": b.count} for b in distribution.histogram
        ],
        "scores": [{"score": t.score, "count": t.count} for t in distribution.scores],
        "mean": distribution.mean,
        "median": distribution.median,
        "best": distribution.best,
    }


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
        # docs/play.md: false while the caller may not see the scores (only how many finished).
        "revealed": board.revealed,
        "accounts": board.accounts,
        "page": board.page,
        "page_size": board.page_size,
        "pages": board.pages,
        "players": board.ranked,
        "entries": [_entry_data(entry, timed_entries) for entry in board.entries],
        "me": _standing_data(board.me),
        "distribution": None
        if board.distribution is None
        else _distribution_data(board.distribution),
        "reference": None if reference is None else {"label": "optimal", "score": reference},
    }


def leaderboard_for_request(
    request: Request,
    puzzle: Puzzle,
    now: datetime.datetime,
    query: dict[str, Any],
    *,
    timed_entries: bool = False,
) -> dict[str, Any]:
    """The leaderboard of a puzzle (a day's or a challenge's) for the request's player and its
    query's ``page`` and ``accounts``, as ``LeaderboardQuerySerializer`` validates them: its
    scores only once the puzzle has closed or the player's official game on it is finished
    (``leaderboard_shown``), before that how many have finished."""
    player = session_player(request)
    board = leaderboard_shown(
        puzzle=puzzle, page=query["page"], now=now, player=player, accounts=query["accounts"]
    )
    # Revealed is the reference's own condition (closed, or the caller finished), known here.
    reference = (
        reference_score(puzzle=puzzle, player=player, now=now, ranked=True)
        if board.revealed
        else None
    )
    return leaderboard_data(puzzle, board, now, reference, timed_entries=timed_entries)


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
        """The puzzle the URL names (a refusal when it names none)."""

    def find_puzzle_to_start(self, *, now: datetime.datetime, **url_kwargs: Any) -> Puzzle:
        """The puzzle the URL names, for a start; a kind of puzzle may give a copy not read from
        its row (``puzzle_read`` False), which the start proves (``attempt_start``)."""
        return self.find_puzzle(now=now, **url_kwargs)

    # Whether ``find_puzzle_to_start`` reads the puzzle's row.
    puzzle_read = True


class PuzzleAttemptsApi(PuzzleApi):
    # Start an attempt: the player's first on an open puzzle is official, any later practice.

    throttle_classes = [ScopedPlayerThrottle, NewGuestThrottle]
    throttle_scope = "attempt_start"

    def post(self, request: Request, **url_kwargs: Any) -> Response:
        now = timezone.now()
        puzzle = self.find_puzzle_to_start(now=now, **url_kwargs)
        # Refused before the session's player is created: a refusal stores nothing.
        attempt_start_allowed(puzzle=puzzle, now=now)
        player = session_player_or_create(request, now=now)
        try:
            attempt = attempt_start(player=player, puzzle=puzzle, now=now, read=self.puzzle_read)
        except StalePuzzle:
            # The copy was not the row as it stands (or a practice start needs the row): read.
            puzzle = self.find_puzzle(now=now, **url_kwargs)
            attempt_start_allowed(puzzle=puzzle, now=now)
            attempt = attempt_start(player=player, puzzle=puzzle, now=now)
        # Its game remembered here: the first action, often served by this process, then reads
        # no row (play/game_cache.py).
        game = attempt_game(attempt)
        return Response(attempt_data(attempt, game), status=status.HTTP_201_CREATED)


class PuzzleLeaderboardApi(PuzzleApi):
    # A puzzle's leaderboard for ``?page=&accounts=``, with ``leaderboard_extra`` fields. The
    # payload is built in the shapes of ``get_serializer_class()``, which documents it (and a
    # test holds the two equal); ``timed_entries``: its entries have ``time_taken``.

    timed_entries = False

    def leaderboard_extra(self, puzzle: Puzzle) -> dict[str, Any]:
        """Fields a kind of puzzle adds to its leaderboard."""
        return {}

    def get(self, request: Request, **url_kwargs: Any) -> Response:
        # The puzzle first: its refusal (404) comes before the query's (400).
        now = timezone.now()
        puzzle = self.find_puzzle(now=now, **url_kwargs)
        serializer = schemas.LeaderboardQuerySerializer(data=request.query_params)
        serializer.is_valid(raise_exception=True)
        board = leaderboard_for_request(
            request, puzzle, now, serializer.validated_data, timed_entries=self.timed_entries
        )
        response = Response({**board, **self.leaderboard_extra(puzzle)})
        # The answer depends on the caller (their scores hidden until they finish): no shared
        # cache may keep it for another, and none serves it again unasked.
        patch_cache_control(response, private=True, no_cache=True)
        return response

    @abstractmethod
    def get_serializer_class(self) -> type:
        """The serializer that shapes (and documents) this leaderboard."""


class PuzzleVerificationApi(PuzzleApi):
    # The facts to verify a puzzle by, for ``?attempt=<id>``.

    def get(self, request: Request, **url_kwargs: Any) -> Response:
        return verification_response(request, self.find_puzzle(now=timezone.now(), **url_kwargs))
