"""The site's pages for groups: my groups and joining by code (/g/), and a group (/g/<code>)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_safe

from farkle_site.codes import CHALLENGE_LENGTH, crockford_display, crockford_read_as
from farkle_site.domain import DomainError
from farkle_site.drf import page_throttle_wait
from farkle_site.views import too_many_requests
from groups import selectors, services
from groups.apis import LOOKUP_SCOPE
from groups.codes import InvalidCode, code_display, code_normalise
from play.rules.days import day_of
from play.web.session import session_player


@require_safe
@ensure_csrf_cookie
def enter(request: HttpRequest) -> HttpResponse:
    """My groups; join one by its code (any case, dashes and spaces, O for 0, I or L for 1);
    create one."""
    typed = request.GET.get("code")
    error = other = None
    if typed is not None:
        try:
            return redirect("group", code=code_normalise(typed[:40]))
        except InvalidCode:
            error = _("A group code is 7 characters of 0-9 and A-Z, like G7K-4M2Q.")
        # A challenge's code typed here (one character shorter): say so and lead to it.
        challenge_code = crockford_read_as(typed[:40], length=CHALLENGE_LENGTH)
        if challenge_code is not None:
            shown = crockford_display(challenge_code)
            error = _("%(code)s is a challenge's code, not a group's.") % {"code": shown}
            other = {
                "url": reverse("challenge", kwargs={"code": challenge_code}),
                "text": _("Open the challenge %(code)s") % {"code": shown},
            }
    return render(
        request,
        "groups/enter.html",
        {
            "typed": (typed or "")[:40],
            "error": error,
            "other": other,
            "groups_max": services.GROUPS_PER_PLAYER,
            "members_max": services.MEMBERS_PER_GROUP,
        },
        status=400 if error else 200,
    )


def _shown(code: str) -> str:
    """A code as the page shows it: grouped with its dash when it reads as a group's code (one
    that no longer exists, say, after its group closed or took a new code), else as typed."""
    try:
        return code_display(code_normalise(code[:40]))
    except InvalidCode:
        return code[:40]


@require_safe
@ensure_csrf_cookie
def group(request: HttpRequest, code: str) -> HttpResponse:
    """A group: to its members, today's table and the season; to a player its creator removed,
    that they were removed; to anyone else, its name and a Join button (the link is the
    invitation)."""
    # Page lookups count against the same per-address limit as the API's (docs/play.md).
    wait = page_throttle_wait(request, LOOKUP_SCOPE)
    if wait is not None:
        return too_many_requests(
            request, wait=wait, message=_("Too many group codes were looked up from here.")
        )
    try:
        found = selectors.group_get(code=code)
    except DomainError as error:
        message = (
            _("“%(code)s” is not a group code: a group code is 7 characters like G7K-4M2Q.")
            if error.code == "invalid_code"
            else _("No group has the code %(code)s. Check it with whoever sent it.")
        )
        message %= {"code": _shown(code)}
        return render(request, "404.html", {"message": message}, status=404)
    if code != found.code:
        return redirect("group", code=found.code)
    player = session_player(request)
    member = selectors.is_member(group=found, player=player)
    # A player the creator removed is told so in plain words, in place of the Join button.
    removed = not member and selectors.is_removed(group=found, player=player)
    return render(
        request,
        "groups/group.html",
        {
            "group": found,
            "display_code": code_display(found.code),
            "member": member,
            "removed": removed,
            "creator": player is not None and found.creator_id == player.pk,
            "members": selectors.member_count(group=found),
            "share_url": request.build_absolute_uri(found.get_absolute_url()),
            "today": day_of(timezone.now()),
        },
        status=403 if removed else 200,
    )
