"""The operators' pages: finished official games and the foresight check's holds."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from farkle import foresight
from play.models import Attempt
from play.selectors.leaderboards import attempt_ranks
from play.services.foresight import attempt_hold, attempt_release


@admin.register(Attempt)
class AttemptAdmin(admin.ModelAdmin):
    """Official games, held first and most suspicious first; release or hold them back.

    Everything is read-only: ``held`` changes only through the actions, which keep the
    leaderboard's counts in step.
    """

    list_display = (
        "id",
        "player",
        "puzzle",
        "score",
        "held",
        "foresight_p",
        "decisions_summary",
        "finished_at",
        "released_at",
        "released_by",
    )
    list_filter = ("held", "puzzle__kind", "finalised_at_close")
    search_fields = ("player__display_name",)
    ordering = ("-held", "foresight_p", "-finished_at")
    actions = ("release", "hold")
    list_select_related = ("player", "puzzle", "released_by")
    readonly_fields = (
        "player",
        "puzzle",
        "official",
        "state",
        "score",
        "started_at",
        "finished_at",
        "finalised_at_close",
        "rank",
        "percentile",
        "held",
        "foresight_p",
        "decisions_summary",
        "released_at",
        "released_by",
        "decisions",
    )
    fields = readonly_fields

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).filter(official=True).defer("actions")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    # Derived from the puzzle's counts (nothing is stored per attempt): a query for each of the
    # two fields, on a page that shows one attempt.
    def _standing(self, attempt: Attempt) -> tuple[int | None, float | None]:
        return attempt_ranks([attempt.pk]).get(attempt.pk, (None, None))

    @admin.display(description="rank")
    def rank(self, attempt: Attempt) -> int | None:
        return self._standing(attempt)[0]

    @admin.display(description="percentile")
    def percentile(self, attempt: Attempt) -> float | None:
        return self._standing(attempt)[1]

    @admin.display(description="foresight check")
    def decisions_summary(self, attempt: Attempt) -> str:
        s = attempt.foresight
        if not s:
            return "—"
        return (
            f"banked {s['banks']}× ({s['bank_farkles']} before a Farkle), "
            f"rolled {s['rolls']}× ({s['roll_farkles']} Farkles); "
            f"{s['departures']} departures from the solver, "
            f"{s['concordant_departures']} matching the hidden throw"
        )

    @admin.display(description="choices (hidden throw: what rolling would have shown)")
    def decisions(self, attempt: Attempt) -> str:
        found = foresight.choices(
            attempt.puzzle.seed(),
            Attempt.objects.filter(pk=attempt.pk).values_list("actions", flat=True).get(),
            attempt.puzzle.table,
        )
        if not found:
            return "—"
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    c.turn,
                    c.dice,
                    c.turn_points,
                    "bank" if c.banked else "roll",
                    "bank" if c.best_bank else f"roll ({c.roll_value:.0f})",
                    "Farkle" if c.farkle else "scores",
                    f"{c.risk:.3f}",
                )
                for c in found
            ),
        )
        return format_html(
            "<table><tr><th>turn</th><th>dice</th><th>at risk</th><th>chose</th><th>solver</th>"
            "<th>hidden throw</th><th>Farkle risk</th></tr>{}</table>",
            rows,
        )

    @admin.action(description="Release: put on the public leaderboard")
    def release(self, request: HttpRequest, queryset: QuerySet) -> None:
        now = timezone.now()
        done = sum(
            attempt_release(attempt_id=pk, user=request.user, now=now)
            for pk in queryset.values_list("pk", flat=True)
        )
        self.message_user(request, f"Released {done} game(s).", messages.SUCCESS)

    @admin.action(description="Hold: take off the public leaderboard")
    def hold(self, request: HttpRequest, queryset: QuerySet) -> None:
        done = sum(attempt_hold(attempt_id=pk) for pk in queryset.values_list("pk", flat=True))
        self.message_user(request, f"Held {done} game(s).", messages.SUCCESS)
