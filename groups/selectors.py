"""Reads of groups: a group by its code, its members and removed players, my groups, a day's
table and the season.

Every read starts from the group's members (at most ``MEMBERS_PER_GROUP``) and finds their
official attempts through the index of one official attempt per player and puzzle, so its cost
follows the members' own games, never the number of other players (tests/groups, N+1 guards).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass

from farkle_site.db import one_or_none
from farkle_site.domain import Forbidden, Invalid, NotFound
from groups.codes import InvalidCode, code_normalise
from groups.models import Group, Membership, Removal
from play.models import Attempt, Player, Puzzle
from play.rules.days import day_of
from play.selectors.stats import streaks


def group_get(*, code: str) -> Group:
    """The group of a typed code: 400 ``invalid_code`` when malformed, 404 when unknown."""
    try:
        canonical = code_normalise(code)
    except InvalidCode as error:
        raise Invalid("invalid_code", str(error)) from None
    group = one_or_none(Group.objects.select_related("creator").filter(code=canonical))
    if group is None:
        raise NotFound("not_found", f"No group has the code {canonical}.")
    return group


def is_member(*, group: Group, player: Player | None) -> bool:
    """Whether the player belongs to the group."""
    return player is not None and Membership.objects.filter(group=group, player=player).exists()


def removed_refusal() -> Forbidden:
    """What a player the group's creator removed meets, whatever they try: joining, the members,
    the table, the season."""
    return Forbidden(
        "removed",
        "The group's creator removed you from this group: you can join it again only if they "
        "let you back.",
    )


def is_removed(*, group: Group, player: Player | None) -> bool:
    """Whether the group's creator removed the player (and has not let them back)."""
    return player is not None and Removal.objects.filter(group=group, player=player).exists()


def member_require(*, group: Group, player: Player | None) -> None:
    """403 unless the player belongs to the group: its members and scores are visible to its
    members only. A player its creator removed is told so (``removed``); anyone else is
    ``not_a_member``."""
    if is_member(group=group, player=player):
        return
    if is_removed(group=group, player=player):
        raise removed_refusal()
    raise Forbidden(
        "not_a_member", "Only the group's members see it: join it with its link or code."
    )


def removals_of(*, group: Group, viewer: Player) -> list[Removal]:
    """The players the group's creator removed, most recently first: for the creator only."""
    if group.creator_id != viewer.pk:
        raise Forbidden("forbidden", "Only the group's creator sees whom they removed.")
    return list(
        Removal.objects.filter(group=group).select_related("player").order_by("-removed_at", "-id")
    )


def members_of(*, group: Group) -> list[Membership]:
    """The group's memberships with their players, earliest joined first."""
    return list(
        Membership.objects.filter(group=group).select_related("player").order_by("joined_at", "id")
    )


def member_count(*, group: Group) -> int:
    """How many players the group holds."""
    return Membership.objects.filter(group=group).count()


@dataclass(frozen=True)
class Row:
    """A member on a day: whether they played, and their score and rank once visible."""

    player_id: int
    name: str
    state: str  # "finished", "playing" or "not_started"
    score: int | None
    rank: int | None
    finished_at: datetime.datetime | None
    mine: bool


@dataclass(frozen=True)
class DayTable:
    day: datetime.date
    # Whether the scores are shown: once the viewer finished their official game, or the day ended.
    revealed: bool
    finished: int
    members: int
    rows: list[Row]


NOT_STARTED = "not_started"
PLAYING = "playing"
FINISHED = "finished"


def ranks_of(scores: list[int]) -> list[int]:
    """Ranks of scores listed best first; equal scores share a rank (docs/play.md: 1, 2, 2, 4)."""
    ranks: list[int] = []
    for index, score in enumerate(scores):
        ranks.append(ranks[-1] if index and scores[index - 1] == score else index + 1)
    return ranks


def _official_of(player_ids, puzzle_ids):
    return Attempt.objects.filter(
        player_id__in=player_ids, puzzle_id__in=puzzle_ids, official=True
    ).values_list(
        "player_id", "puzzle_id", "state", "score", "finished_at", "held", "id", "score_position"
    )


def _board_order(game) -> tuple:
    """A shown game's place in the day's leaderboard order (docs/play.md): the best score, then
    the place it was counted at within its score (a game counted by a process older than the
    places, which has none, after those that have one), then its finish."""
    return (-game[3], game[7] is None, game[7] or 0, game[4], game[6])


def day_table(
    *, group: Group, day: datetime.date, viewer: Player, now: datetime.datetime
) -> DayTable:
    """The members' official games of ``day``: a member sees scores once their own official game
    of the day is finished, or the day has closed; before, only who has played (issue 13)."""
    memberships = members_of(group=group)
    puzzle = Puzzle.objects.filter(kind=Puzzle.Kind.DAILY, day=day).first()
    games = {}
    if puzzle is not None:
        member_ids = Membership.objects.filter(group=group).values("player_id")
        games = {row[0]: row for row in _official_of(member_ids, [puzzle.pk])}
    mine = games.get(viewer.pk)
    # Closed, not ended: during a daily's grace a game in progress may still be played.
    revealed = puzzle is not None and (
        puzzle.status(now) == Puzzle.Status.CLOSED
        or (mine is not None and mine[2] == Attempt.State.FINISHED)
    )
    rows = []
    for membership in memberships:
        player = membership.player
        game = games.get(player.pk)
        state = NOT_STARTED if game is None else (FINISHED if game[2] == FINISHED else PLAYING)
        # A game held by the foresight check (docs/foresight.md) waits off every table.
        shown = revealed and state == FINISHED and not game[5]
        rows.append(
            Row(
                player_id=player.pk,
                name=player.display_name,
                state=state,
                score=game[3] if shown else None,
                rank=None,
                finished_at=game[4] if shown else None,
                mine=player.pk == viewer.pk,
            )
        )
    scored = sorted(
        (r for r in rows if r.score is not None),
        key=lambda r: _board_order(games[r.player_id]),
    )
    ranked = [
        Row(**{**r.__dict__, "rank": rank})
        for r, rank in zip(scored, ranks_of([r.score for r in scored]), strict=True)
    ]
    unscored = sorted(
        (r for r in rows if r.score is None),
        key=lambda r: ({FINISHED: 0, PLAYING: 1, NOT_STARTED: 2}[r.state], r.name.lower()),
    )
    return DayTable(
        day=day,
        revealed=revealed,
        finished=sum(1 for r in rows if r.state == FINISHED),
        members=len(rows),
        rows=ranked + unscored,
    )


@dataclass(frozen=True)
class SeasonRow:
    player_id: int
    name: str
    days: int
    wins: int
    total: int
    average: int | None
    streak: int
    mine: bool


@dataclass(frozen=True)
class Season:
    month: str  # "YYYY-MM"
    months: list[str]  # every month with a game of a member, newest first
    month_rows: list[SeasonRow]
    all_time: list[SeasonRow]


def _table(
    memberships: list[Membership],
    games: list[tuple[int, datetime.date, int]],
    *,
    viewer: Player,
    streak_days: dict[int, list[datetime.date]],
    streak_today: datetime.date,
) -> list[SeasonRow]:
    best_of_day: dict[datetime.date, int] = {}
    for _, day, score in games:
        best_of_day[day] = max(score, best_of_day.get(day, score))
    per_player: dict[int, list[tuple[datetime.date, int]]] = defaultdict(list)
    for player_id, day, score in games:
        per_player[player_id].append((day, score))
    rows = []
    for membership in memberships:
        player = membership.player
        played = per_player.get(player.pk, [])
        total = sum(score for _, score in played)
        rows.append(
            SeasonRow(
                player_id=player.pk,
                name=player.display_name,
                days=len(played),
                # Issue 13: the day's best score of the group wins, and equal bests share the win.
                wins=sum(1 for day, score in played if score == best_of_day[day]),
                total=total,
                average=round(total / len(played)) if played else None,
                streak=streaks(streak_days.get(player.pk, []), today=streak_today)[0],
                mine=player.pk == viewer.pk,
            )
        )
    rows.sort(key=lambda r: (-r.wins, -r.total, r.name.lower()))
    return rows


def _month_bounds(month: str) -> tuple[datetime.date, datetime.date]:
    first = datetime.date.fromisoformat(month + "-01")
    following = (first + datetime.timedelta(days=32)).replace(day=1)
    return first, following - datetime.timedelta(days=1)


def season(*, group: Group, viewer: Player, now: datetime.datetime, month: str | None) -> Season:
    """The season of ``month`` (the current one by default) and of all time, from the members'
    official finished dailies of days before today: a day's scores count once it has closed
    (its grace over), so the season never tells a member a day's scores while they may still
    play it. Streaks, which tell only who finished (as the day's table does), count a day's
    finished games at once, as a player's own do."""
    today = day_of(now)
    memberships = members_of(group=group)
    member_ids = Membership.objects.filter(group=group).values("player_id")
    # Practice and archive games are never official, so official=True excludes them (issue 13).
    finished = list(
        Attempt.objects.filter(
            player_id__in=member_ids,
            official=True,
            state=Attempt.State.FINISHED,
            held=False,
            puzzle__kind=Puzzle.Kind.DAILY,
            puzzle__day__lt=today,
        ).values_list("player_id", "puzzle__day", "score", "puzzle__closes_at")
    )
    games = [
        (player_id, day, score) for player_id, day, score, closes_at in finished if closes_at <= now
    ]
    current = today.strftime("%Y-%m")
    month = month or current
    first, last = _month_bounds(month)
    days_of: dict[int, list[datetime.date]] = defaultdict(list)
    for player_id, day, _, _ in finished:
        days_of[player_id].append(day)
    # A past month's streak is the run alive at its end; the current month's, the run alive now.
    month_today = min(today, last + datetime.timedelta(days=1))
    month_days = {player_id: [d for d in days if d <= last] for player_id, days in days_of.items()}
    months = sorted({day.strftime("%Y-%m") for _, day, _ in games} | {current}, reverse=True)
    return Season(
        month=month,
        months=months,
        month_rows=_table(
            memberships,
            [g for g in games if first <= g[1] <= last],
            viewer=viewer,
            streak_days=month_days,
            streak_today=month_today,
        ),
        all_time=_table(memberships, games, viewer=viewer, streak_days=days_of, streak_today=today),
    )


@dataclass(frozen=True)
class Standing:
    """A group of mine as the end screen shows it: today's players and my rank among them."""

    group: Group
    members: int
    finished: int
    # Only once my own official game of the day is finished (no spoilers before).
    my_rank: int | None
    my_score: int | None
    leader: str | None
    leader_score: int | None


def groups_of_player(*, player: Player, day: datetime.date) -> list[Standing]:
    """My groups, newest joined first, with the day's standing in each, in three queries
    whatever the number of groups and members."""
    groups = [
        m.group
        for m in Membership.objects.filter(player=player)
        .select_related("group")
        .order_by("-joined_at", "-id")
    ]
    members: dict[int, list[int]] = defaultdict(list)
    for group_id, player_id in Membership.objects.filter(
        group_id__in=[g.pk for g in groups]
    ).values_list("group_id", "player_id"):
        members[group_id].append(player_id)
    everyone = {p for ids in members.values() for p in ids}
    games = {}
    if everyone:
        puzzle_ids = Puzzle.objects.filter(kind=Puzzle.Kind.DAILY, day=day).values("id")
        games = {row[0]: row for row in _official_of(everyone, puzzle_ids)}
    mine = games.get(player.pk)
    finished_mine = mine is not None and mine[2] == Attempt.State.FINISHED
    standings = []
    for group in groups:
        finished = [games[p] for p in members[group.pk] if p in games and games[p][2] == FINISHED]
        ranked = sorted((g for g in finished if not g[5]), key=_board_order)
        my_rank = my_score = leader = leader_score = None
        if finished_mine and not mine[5]:
            my_score = mine[3]
            my_rank = 1 + sum(1 for g in ranked if g[3] > mine[3])
            leader_score = ranked[0][3]
            leader = ranked[0][0]
        standings.append(
            Standing(
                group=group,
                members=len(members[group.pk]),
                finished=len(finished),
                my_rank=my_rank,
                my_score=my_score,
                leader=leader,
                leader_score=leader_score,
            )
        )
    leader_ids = {s.leader for s in standings if s.leader is not None}
    names = dict(Player.objects.filter(pk__in=leader_ids).values_list("id", "display_name"))
    return [
        Standing(**{**s.__dict__, "leader": names.get(s.leader)}) if s.leader else s
        for s in standings
    ]
