"""The site's pages for friend challenges: create one, enter a code, play one."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_safe

import farkle
from challenges import selectors, services
from challenges.codes import InvalidCode, code_display, code_normalise
from challenges.texts import option_choices, options_lines, options_short, tie_break_note
from farkle_site.codes import GROUP_LENGTH, crockford_display, crockford_read_as
from farkle_site.domain import DomainError
from farkle_site.drf import page_throttle_wait
from farkle_site.views import too_many_requests
from play.apis.payloads import par
from play.selectors.attempts import retry_unfinished
from play.texts import table_name
from play.web.session import session_player

# Page lookups count against the same per-address limit as the API's (docs/play.md).
LOOKUP_SCOPE = "challenge_lookup"


@require_safe
@ensure_csrf_cookie
def new(request: HttpRequest) -> HttpResponse:
    """Create a challenge: title, scoring table, lifetime; then its link and code."""
    tables = [{"id": table_id, "name": table_name(table_id)} for table_id in farkle.TABLES]
    return render(
        request,
        "challenges/new.html",
        {
            "tables": tables,
            "default_table": farkle.DEFAULT_TABLE,
            "days_default": services.DAYS_DEFAULT,
            "days_max": services.DAYS_MAX,
            "title_max": services.TITLE_MAX_LENGTH,
            **option_choices(),
        },
    )


@require_safe
@ensure_csrf_cookie
def enter(request: HttpRequest) -> HttpResponse:
    """Type a code (any case, dashes and spaces, O for 0, I or L for 1) and go to its page."""
    typed = request.GET.get("code")
    error = other = None
    if typed is not None:
        try:
            return redirect("challenge", code=code_normalise(typed[:40]))
        except InvalidCode:
            error = _("A code is 6 characters of 0-9 and A-Z, like K7M-2QX.")
        # A group's code typed here (one character longer): say so and lead to the group.
        group_code = crockford_read_as(typed[:40], length=GROUP_LENGTH)
        if group_code is not None:
            shown = crockford_display(group_code)
            error = _("%(code)s is a group's code, not a challenge's.") % {"code": shown}
            other = {
                "url": reverse("group", kwargs={"code": group_code}),
                "text": _("Open the group %(code)s") % {"code": shown},
            }
    return render(
        request,
        "challenges/enter.html",
        {"typed": (typed or "")[:40], "error": error, "other": other},
        status=400 if error else 200,
    )


@require_safe
@ensure_csrf_cookie
def challenge(request: HttpRequest, code: str) -> HttpResponse:
    """A challenge: play it, and its leaderboard."""
    wait = page_throttle_wait(request, LOOKUP_SCOPE)
    if wait is not None:
        return too_many_requests(
            request, wait=wait, message=_("Too many challenge codes were looked up from here.")
        )
    try:
        found = selectors.challenge_get(code=code)
    except DomainError as error:
        message = (
            _("“%(code)s” is not a challenge code: a code is 6 characters like K7M-2QX.")
            if error.code == "invalid_code"
            else _("No challenge has the code %(code)s. Check it with whoever sent it.")
        )
        return render(
            request,
            "404.html",
            {"message": message % {"code": code[:40]}, "challenge_missing": True},
            status=404,
        )
    puzzle = found.puzzle
    if code != puzzle.code:
        return redirect("challenge", code=puzzle.code)
    now = timezone.now()
    short = options_short(puzzle)
    closed = puzzle.status(now) == "closed"
    return render(
        request,
        "challenges/challenge.html",
        {
            "challenge": found,
            "puzzle": puzzle,
            "display_code": code_display(puzzle.code),
            "status": "closed" if closed else "open",
            # A closed challenge is played no more, but for a retry from a decision of one of
            # its games (issue 40): its board then plays that retry.
            "retrying": closed and retry_unfinished(player=session_player(request), puzzle=puzzle),
            "table_name": table_name(puzzle.table),
            "par": par(puzzle.table, puzzle.entry_minimum, puzzle.farkle_penalty),
            "options": options_lines(puzzle),
            "options_short": short,
            "tie_break_note": tie_break_note(puzzle),
            "share_label": f"{code_display(puzzle.code)} ({short})" if short else None,
            "hand_size": farkle.get_table(puzzle.table).dice,
            "share_url": request.build_absolute_uri(found.get_absolute_url()),
            "board_url": f"/api/challenges/{puzzle.code}/leaderboard",
            "verify_query": f"code={puzzle.code}",
        },
    )
