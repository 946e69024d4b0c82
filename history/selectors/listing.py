"""The history page: a player's finished matches, filtered and paged, each with the
people who sat there (named as the table named them) and what the player got from
it. One plain SQL query over the player's own `PlayerMatch` rows gives a page and
the count of all that match; the names come from games' selectors and the rewards
from the economy's and the league points' owners (docs/architecture.md, "Plain SQL").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.paginator import EmptyPage, Page, Paginator
from django.db import connection
from django.db.models import Count, Q, QuerySet, Window
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games.models import Match, Table
from games.selectors import match_names
from history.models import PlayerMatch
from history.selectors.dates import day_start
from history.selectors.match import rewards_by_match_and_user


@dataclass(frozen=True)
class HistoryFilters:
    """Valid filter values (history.forms checks what the browser sent)."""

    mode: str = ""
    rules: str = ""
    result: str = ""
    with_user: int | None = None
    role: str = ""  # "partner", "opponent" or "" (either)
    since: date | None = None
    until: date | None = None


@dataclass(frozen=True)
class ListedSeat:
    """A seat of a listed match: who sat there (a person, or a bot), named as the
    table named them (the username, or the bot's name)."""

    position: int
    user_id: int | None
    name: str
    is_bot: bool


@dataclass
class HistoryRow:
    match: Match
    seat: ListedSeat | None
    partner: ListedSeat | None
    opponents: list[ListedSeat]
    outcome: str  # "won", "lost" or "abandoned"
    own_score: int
    other_score: int
    rewards: dict[str, int] = field(default_factory=dict)


def filtered_player_matches(user: Any, filters: HistoryFilters) -> QuerySet[PlayerMatch]:
    """The user's rows matching `filters`, newest first."""
    rows = PlayerMatch.objects.filter(user=user)
    if filters.mode:
        rows = rows.filter(mode=filters.mode)
    if filters.rules:
        rows = rows.filter(rules=filters.rules)
    if filters.result:
        rows = rows.filter(outcome=filters.result)
    if filters.with_user is not None:
        partner = Q(partner_id=filters.with_user)
        opponent = Q(opponent_1_id=filters.with_user) | Q(opponent_2_id=filters.with_user)
        rows = rows.filter(
            {"partner": partner, "opponent": opponent}.get(filters.role, partner | opponent)
        )
    if filters.since:
        rows = rows.filter(finished_at__gte=day_start(filters.since))
    if filters.until:
        rows = rows.filter(finished_at__lt=day_start(filters.until + timedelta(days=1)))
    return rows.order_by("-finished_at", "-match_id")


def _listed(position: int, user_id: int | None, names: list[str | None]) -> ListedSeat:
    return ListedSeat(
        position=position, user_id=user_id, name=names[position] or "", is_bot=user_id is None
    )


# OFFSET is a 64-bit integer in PostgreSQL and SQLite: a page starting past it is
# past the last page of any history, and must not reach the database.
_LARGEST_OFFSET = 2**63 - 1


class _CountedPaginator(Paginator):
    """A paginator whose count is already known (from the page's own query)."""

    def __init__(self, count: int, per_page: int) -> None:
        super().__init__([], per_page)
        self.__dict__["count"] = count  # the cached_property, filled


def _aware(value: Any) -> datetime | None:
    """A timestamp from a plain SQL row as the ORM gives it (SQLite sends text)."""
    if isinstance(value, str):
        value = parse_datetime(value)
    if value is not None and settings.USE_TZ and timezone.is_naive(value):
        value = timezone.make_aware(value, UTC)
    return value


def _page_lines(user: Any, filters: HistoryFilters, number: int, size: int) -> list[tuple]:
    """One query: the page's match ids from the history index with the count of all
    matching rows (a window over the same index range), then those rows with their
    mode, rule set, end and the people recorded with them. Plain SQL: no query to
    build, no model per row."""
    ids = (
        filtered_player_matches(user, filters)
        .annotate(total=Window(Count("*")))
        .values_list("match_id", "total")[(number - 1) * size : number * size]
    )
    ids_sql, ids_params = ids.query.sql_with_params()
    line = PlayerMatch._meta.db_table
    # The row keeps the match's mode, rule set, end and the people recorded with it
    # (copied at settlement): no join to the match, its table or its players (fewer
    # joins: a third of the planning time). Their names come from games.
    sql = f"""
        WITH page (match_id, total) AS ({ids_sql})
        SELECT page.total, pm.match_id, pm.position, pm.outcome, pm.own_score,
               pm.other_score, pm.rules, pm.finished_at, pm.mode,
               pm.partner_id, pm.opponent_1_id, pm.opponent_2_id
        FROM page
        JOIN {line} pm ON pm.match_id = page.match_id AND pm.user_id = %s
        ORDER BY pm.finished_at DESC, pm.match_id DESC
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, (*ids_params, user.pk))
        return cursor.fetchall()


def history_page(
    user: Any, *, filters: HistoryFilters, number: int
) -> tuple[Page, list[HistoryRow]]:
    """Page `number` (from 1) of the user's finished matches, as Django's paginator
    numbers them (raises its EmptyPage for a number below 1 or past the last page;
    page 1 of no match is an empty page): the page's rows with the count of all in
    one query, then their rewards."""
    size = settings.HISTORY_PAGE_SIZE
    if number < 1 or (number - 1) * size > _LARGEST_OFFSET:
        raise EmptyPage(f"no page {number}")
    lines = _page_lines(user, filters, number, size)
    if lines:
        total = lines[0][0]
    elif number == 1:
        total = 0
    else:
        raise EmptyPage(f"no page {number}")
    paginator = _CountedPaginator(total, size)
    rows = []
    names = match_names([line[1] for line in lines])
    for (
        _total,
        match_id,
        position,
        outcome,
        own_score,
        other_score,
        rules,
        finished_at,
        mode,
        partner_id,
        opponent_1_id,
        opponent_2_id,
    ) in lines:
        match = Match(
            id=match_id,
            rules=rules,
            finished_at=_aware(finished_at),
            table=Table(mode=mode),  # what the row shows of it
        )
        # The people who sat there, as recorded with the row (no user: a bot's seat),
        # named as the table named them.
        seat_names = names.get(match_id) or [None] * 4
        rows.append(
            HistoryRow(
                match=match,
                seat=_listed(position, user.pk, seat_names),
                partner=_listed((position + 2) % 4, partner_id, seat_names),
                opponents=[
                    _listed((position + 1) % 4, opponent_1_id, seat_names),
                    _listed((position + 3) % 4, opponent_2_id, seat_names),
                ],
                outcome=outcome,
                own_score=own_score,
                other_score=other_score,
            )
        )
    _attach_rewards(user, rows)
    return Page(lines, number, paginator), rows


def _attach_rewards(user: Any, rows: list[HistoryRow]) -> None:
    """What the user got from each listed match, whatever the page size."""
    rewards = rewards_by_match_and_user([row.match.pk for row in rows], users=[user])
    for row in rows:
        row.rewards = rewards.get((row.match.pk, user.pk), {})
