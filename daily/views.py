"""The site's pages for the daily: today's game, a past day, leaderboards, me, rules, verify.

Pages are shells: their JavaScript reads and plays through the JSON API, so the rules live in one
place. The server renders what never changes during a visit (the rules, the dates, the labels).
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_safe

import farkle
from daily.replay import bot_columns, replay_steps, turn_rows
from daily.rules.calendar import published_until
from daily.services.puzzles import daily_get_or_create
from daily.teaching import teaching_facts, teaching_steps
from farkle_site.domain import DomainError
from play.apis.payloads import analysis_data, par
from play.apis.rules import rules_data
from play.models import Attempt, Puzzle
from play.rules.days import day_of, day_start, parse_day
from play.selectors.analysis import attempt_analysis
from play.selectors.attempts import dailies_between
from play.services.attempts import retry_refusal
from play.templatetags.dates import day_text
from play.texts import BOT_NAMES, WORKED_EXAMPLES, group_label, table_name, turn_rule_text
from play.web.session import session_player

# How many earlier days the leaderboard page links to.
RECENT_DAYS = 7


def _today_context(now: datetime.datetime) -> dict:
    day = day_of(now)
    return {
        "today": day,
        "next_daily_at": day_start(day + datetime.timedelta(days=1)),
    }


@require_safe
@ensure_csrf_cookie
def today(request: HttpRequest) -> HttpResponse:
    """Today's daily: the game, or its result once played."""
    now = timezone.now()
    context = _today_context(now)
    return render(
        request,
        "daily/today.html",
        {
            **context,
            "par": par(farkle.DEFAULT_TABLE),
            "share_url": request.build_absolute_uri(f"/daily/{context['today'].isoformat()}"),
            # A browser without a session has never played here: it is invited to /learn. Told by
            # the cookie alone: loading the session may read the database, and this shell must
            # render while the database is down (tests/site/test_database_down.py).
            "first_visit": settings.SESSION_COOKIE_NAME not in request.COOKIES,
        },
    )


def _no_such_day(request: HttpRequest, text: str) -> HttpResponse:
    message = _("There is no daily for “%(day)s”: days run from %(first)s to today (UTC).") % {
        "day": text[:20],
        "first": day_text(settings.FARKLE_FIRST_DAY),
    }
    return render(request, "404.html", {"message": message}, status=404)


@require_safe
@ensure_csrf_cookie
def day(request: HttpRequest, day: str) -> HttpResponse:
    """A day's daily: its leaderboard and stats, and archive play once it has closed."""
    now = timezone.now()
    try:
        puzzle = daily_get_or_create(day=parse_day(day), now=now)
    except DomainError:
        return _no_such_day(request, day)
    today_date = day_of(now)
    if puzzle.day == today_date:
        return redirect("today")
    if puzzle.day > today_date:
        # Upcoming: nothing to play or rank yet, only its commitment to show.
        return redirect(f"{reverse('commitments')}#d-{puzzle.day.isoformat()}")
    one = datetime.timedelta(days=1)
    previous = puzzle.day - one if puzzle.day - one >= settings.FARKLE_FIRST_DAY else None
    following = puzzle.day + one if puzzle.day + one < today_date else None
    return render(
        request,
        "daily/day.html",
        {
            "puzzle": puzzle,
            "date_iso": puzzle.day.isoformat(),
            "board_url": f"/api/daily/{puzzle.day.isoformat()}/leaderboard",
            "verify_query": f"date={puzzle.day.isoformat()}",
            "status": puzzle.status(now),
            "par": par(puzzle.table),
            "previous_day": previous,
            "next_day": following,
            "share_url": request.build_absolute_uri(f"/daily/{puzzle.day.isoformat()}"),
        },
    )


@require_safe
@ensure_csrf_cookie
def leaderboard(request: HttpRequest) -> HttpResponse:
    """Today's leaderboard, with links to the last few days'."""
    now = timezone.now()
    context = _today_context(now)
    today_date = context["today"]
    recent = [
        today_date - datetime.timedelta(days=n)
        for n in range(1, RECENT_DAYS + 1)
        if today_date - datetime.timedelta(days=n) >= settings.FARKLE_FIRST_DAY
    ]
    # The side card follows the visitor's own official game today: an invitation to play
    # before it, a way back to an unfinished one, neither once it is on the board.
    player = session_player(request)
    state = None
    if player is not None:
        state = (
            Attempt.objects.filter(
                player=player, official=True, puzzle__kind=Puzzle.Kind.DAILY, puzzle__day=today_date
            )
            .values_list("state", flat=True)
            .first()
        )
    my_daily = (
        None if state is None else "finished" if state == Attempt.State.FINISHED else "playing"
    )
    response = render(
        request,
        "daily/leaderboard.html",
        {
            **context,
            "my_daily": my_daily,
            "recent_days": recent,
            "board_url": f"/api/daily/{today_date.isoformat()}/leaderboard",
            "par": par(farkle.DEFAULT_TABLE),
        },
    )
    # Made for this visitor (their game's state): never kept by a shared cache for another.
    patch_cache_control(response, private=True, no_cache=True)
    return response


@require_safe
@ensure_csrf_cookie
def replay(request: HttpRequest, attempt_id: int) -> HttpResponse:
    """A finished game turn by turn, every decision beside the optimal one (issue 12): the
    player's own at once, anyone's once the puzzle has closed, as the analysis API; from each
    decision a retry, when one may start (issue 40)."""
    now = timezone.now()
    try:
        found = attempt_analysis(attempt_id=attempt_id, player=session_player(request), now=now)
    except DomainError as error:
        message = (
            _("This game is not finished yet: its replay comes at the end.")
            if error.code == "wrong_state"
            else _(
                "No such game, or not one you may replay yet: others' games show once their "
                "puzzle has closed."
            )
        )
        return render(request, "404.html", {"message": message}, status=404)
    data = analysis_data(found)
    puzzle = found.attempt.puzzle
    return render(
        request,
        "daily/replay.html",
        {
            "data": data,
            "attempt": found.attempt,
            "mine": found.attempt.player_id == getattr(session_player(request), "pk", None),
            "player_name": found.attempt.player.display_name,
            # A noun phrase after "on" (French: "du"): the day, or the challenge by its code.
            "puzzle_label": (
                day_text(puzzle.day)
                if puzzle.day
                else _("challenge %(code)s") % {"code": f"{puzzle.code[:3]}-{puzzle.code[3:]}"}
            ),
            "steps": replay_steps(data),
            # Retry from a decision (issue 40): never on an open puzzle's dice.
            "retry": retry_refusal(original=found.attempt, now=now) is None,
            "rows": turn_rows(data),
            "bot_columns": bot_columns(data),
            "bots": [{**b, "name": BOT_NAMES[b["level"]]} for b in data["bots"] or []],
        },
    )


@require_safe
@ensure_csrf_cookie
def me(request: HttpRequest) -> HttpResponse:
    """My player: name, streaks, history, distribution; sign up, log in, log out.

    A browser without a player yet is a guest who has not played: the page says so and invites
    them to play, without asking ``/api/me`` (which would answer 404 for them)."""
    return render(request, "daily/me.html", {"has_player": session_player(request) is not None})


@require_safe
def learn(request: HttpRequest) -> HttpResponse:
    """A first game that teaches: a short walkthrough on fixed teaching dice, then the daily.

    It reads and writes nothing (no attempt, no player): the page plays its steps by itself."""
    teaching = teaching_steps()
    return render(
        request,
        "daily/learn.html",
        {
            "teaching": teaching,
            "lessons": {step["name"]: step for step in teaching["steps"]},
            "facts": teaching_facts(),
        },
    )


@require_safe
def rules(request: HttpRequest) -> HttpResponse:
    """The scoring tables with their Farkle risks, par and worked examples."""
    data = rules_data()
    tables = []
    for table in data["tables"]:
        tables.append(
            {
                **table,
                "display_name": table_name(table["id"]),
                "scoring": [
                    {
                        **group,
                        "display_label": group_label(
                            group["kind"], group["count"], group["face"], group["dice"]
                        ),
                    }
                    for group in table["scoring"]
                ],
                "farkle_risk": [
                    {**risk, "percent": risk["risk"] * 100} for risk in table["farkle_risk"]
                ],
                "turn_rule_texts": [turn_rule_text(rule["id"]) for rule in table["turn_rules"]],
            }
        )
    examples = [
        {"dice": dice, "points": farkle.score(dice), "note": note} for dice, note in WORKED_EXAMPLES
    ]
    daily_table = next(t for t in tables if t["id"] == data["daily_table"])
    return render(
        request,
        "daily/rules.html",
        {
            "daily_table": daily_table,
            "other_tables": [t for t in tables if t["id"] != data["daily_table"]],
            "turns": data["turns"],
            "examples": examples,
        },
    )


@require_safe
@ensure_csrf_cookie
def verify(request: HttpRequest) -> HttpResponse:
    """Check a puzzle in the browser: its revealed seed against its commitment, a game's throws."""
    now = timezone.now()
    today_date = day_of(now)
    yesterday = today_date - datetime.timedelta(days=1)
    return render(
        request,
        "daily/verify.html",
        {
            "today": today_date,
            "yesterday": yesterday,
            "first_day": settings.FARKLE_FIRST_DAY,
            "initial_date": request.GET.get("date", "")[:10],
            "initial_code": request.GET.get("code", "")[:20],
            "initial_attempt": request.GET.get("attempt", "")[:12],
        },
    )


@require_safe
def commitments(request: HttpRequest) -> HttpResponse:
    """The coming dailies' commitments, published before they open, and the recent seeds."""
    now = timezone.now()
    today_date = day_of(now)
    last = published_until(now)
    # Beat may be late: the page creates what the reconcile would have, tomorrow included.
    for day_date in (today_date, last):
        if day_date >= settings.FARKLE_FIRST_DAY:
            daily_get_or_create(day=day_date, now=now)
    first = max(settings.FARKLE_FIRST_DAY, today_date - datetime.timedelta(days=RECENT_DAYS))
    rows = []
    for puzzle in dailies_between(first=first, last=last):
        status = puzzle.status(now)
        rows.append(
            {
                "puzzle": puzzle,
                "date_iso": puzzle.day.isoformat(),
                "status": status,
                "seed": puzzle.seed().hex() if status == "closed" else "",
            }
        )
    return render(request, "daily/commitments.html", {"rows": rows, "now": now})
