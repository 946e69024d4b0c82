"""Reads for the history pages, shaped so a page costs a fixed number of queries.

Every figure of the player page and every filter of the history page is worked out
by the database over the player's `PlayerMatch` rows (one range of the
(user, finished_at) index), never by a Python loop over matches.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import Count, Q, QuerySet, Sum, Window
from django.db.models.functions import TruncMonth
from django.http import Http404
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games.engine import Match as EngineMatch
from games.hooks import match_points
from games.models import Match, MatchSeat, MatchStatus, Mode, RuleSetName, Table
from games.selectors import match_names
from games.state import record_from_log
from history.figures import CONTRACTS, FIGURE_NAMES
from history.models import Outcome, PlayerMatch

# --- reliability ------------------------------------------------------------------


@dataclass(frozen=True)
class Reliability:
    played: int
    abandoned: int

    @property
    def percent(self) -> int | None:
        """Matches finished (not abandoned) out of those played, in percent; rounded
        down so that a single abandonment never shows as 100."""
        if not self.played:
            return None
        return 100 * (self.played - self.abandoned) // self.played


def reliability_by_user(user_ids: list[int]) -> dict[int, Reliability]:
    """Each user's finished and abandoned matches, counted in one query (from the
    (user, outcome) index). Users with no finished match are absent."""
    if not user_ids:
        return {}
    counts = (
        PlayerMatch.objects.filter(user_id__in=user_ids)
        .values("user_id")
        .annotate(played=Count("pk"), abandoned=Count("pk", filter=Q(outcome=Outcome.ABANDONED)))
    )
    return {
        row["user_id"]: Reliability(played=row["played"], abandoned=row["abandoned"])
        for row in counts
    }


def reliability_of(user_id: int) -> int | None:
    """The figure shown beside a name at tables and stake tables (games.hooks)."""
    found = reliability_by_user([user_id]).get(user_id)
    return found.percent if found else None


# --- the history page ---------------------------------------------------------------


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


def _day_start(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, datetime.min.time()))


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
        rows = rows.filter(finished_at__gte=_day_start(filters.since))
    if filters.until:
        rows = rows.filter(finished_at__lt=_day_start(filters.until + timedelta(days=1)))
    return rows.order_by("-finished_at", "-match_id")


def _listed(position: int, user_id: int | None, names: list[str | None]) -> ListedSeat:
    return ListedSeat(
        position=position, user_id=user_id, name=names[position] or "", is_bot=user_id is None
    )


def _page_number(page: Any) -> int:
    """The page asked for, as Django's paginator reads it (not a whole number: 1)."""
    try:
        if isinstance(page, float) and not page.is_integer():
            raise ValueError
        return int(page)
    except (TypeError, ValueError):
        return 1


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


def history_page(user: Any, *, filters: HistoryFilters, page: Any) -> tuple[Page, list[HistoryRow]]:
    """One page of the user's finished matches (as Django's paginator pages them: a
    page number that is not a whole number gives the first page, one out of range the
    last): the page's rows with the count of all in one query (a second only for a
    page out of range), then their rewards."""
    size = settings.HISTORY_PAGE_SIZE
    number = _page_number(page)
    lines = _page_lines(user, filters, number, size) if number >= 1 else []
    if lines:
        total = lines[0][0]
    elif number == 1:
        total = 0
    else:  # out of range: the last page, as Paginator.get_page gives it
        total = filtered_player_matches(user, filters).count()
        number = _CountedPaginator(total, size).num_pages
        lines = _page_lines(user, filters, number, size) if total else []
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


def rewards_by_match_and_user(
    match_ids: list[int], users: list[Any] | None = None
) -> dict[tuple[int, int], dict[str, int]]:
    """Coins and XP from the ledger entries carrying each match id, and the league
    points stored with the match, per (match id, user id): one query each."""
    rewards: dict[tuple[int, int], dict[str, int]] = {}
    if not match_ids or not apps.is_installed("economy"):
        return rewards
    from economy.selectors import match_rewards

    rewards.update(match_rewards(match_ids, users))
    # The league points stored with each match (registered by the online app).
    for (match_id, user_id), value in match_points(match_ids, users).items():
        rewards.setdefault((match_id, user_id), {})["league_points"] = value
    return rewards


def _attach_rewards(user: Any, rows: list[HistoryRow]) -> None:
    """What the user got from each listed match, whatever the page size."""
    rewards = rewards_by_match_and_user([row.match.pk for row in rows], users=[user])
    for row in rows:
        row.rewards = rewards.get((row.match.pk, user.pk), {})


def match_results(stored: StoredMatch, *, names: list[str]) -> list[dict[str, Any]]:
    """Each seat of a finished match with its name (`names`, by position), place,
    points and rewards, by place."""
    rewards = rewards_by_match_and_user([stored.match.pk])
    rows = [
        {
            "seat": seat,
            "name": names[seat.position],
            "rewards": rewards.get((stored.match.pk, seat.user_id), {}) if seat.user_id else {},
        }
        for seat in stored.seats
    ]
    return sorted(rows, key=lambda row: (row["seat"].place or 5, row["seat"].position))


# --- the player page ------------------------------------------------------------------


@dataclass
class Results:
    """Matches won, lost and abandoned (an abandonment is also a loss in the record)."""

    label: str = ""
    won: int = 0
    lost: int = 0
    abandoned: int = 0

    @property
    def played(self) -> int:
        return self.won + self.lost + self.abandoned

    @property
    def losses(self) -> int:
        return self.lost + self.abandoned

    @property
    def win_percent(self) -> int | None:
        return round(100 * self.won / self.played) if self.played else None

    def add(self, outcome: str, count: int) -> None:
        setattr(self, outcome, getattr(self, outcome) + count)


@dataclass(frozen=True)
class ContractLine:
    contract: str
    bids: int
    played: int
    made: int

    @property
    def made_percent(self) -> int | None:
        return round(100 * self.made / self.played) if self.played else None


@dataclass
class PlayerStats:
    totals: Results
    by_mode: list[Results]
    by_rules: list[Results]
    by_month: list[tuple[date, Results]]
    figures: dict[str, int]

    @property
    def reliability(self) -> Reliability:
        return Reliability(played=self.totals.played, abandoned=self.totals.abandoned)

    @property
    def contracts(self) -> list[ContractLine]:
        f = self.figures
        return [
            ContractLine(
                contract=c, bids=f[f"{c}_bids"], played=f[f"{c}_played"], made=f[f"{c}_made"]
            )
            for c in CONTRACTS
        ]

    @property
    def broken_percent(self) -> int | None:
        f = self.figures
        return round(100 * f["broken"] / f["defended"]) if f["defended"] else None

    @property
    def pass_average_points(self) -> float | None:
        f = self.figures
        return round(f["pass_card_points"] / f["pass_hands"], 1) if f["pass_hands"] else None

    @property
    def pass_last_trick_percent(self) -> int | None:
        f = self.figures
        return round(100 * f["pass_last_tricks"] / f["pass_hands"]) if f["pass_hands"] else None


def month_starts(months: int, *, now: datetime | None = None) -> list[date]:
    """The first day of each of the last `months` months, oldest first (local time)."""
    today = timezone.localtime(now or timezone.now()).date()
    year, month = today.year, today.month
    starts = []
    for _ in range(months):
        starts.append(date(year, month, 1))
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return starts[::-1]


# The player page's sums are kept in the cache per player, under a version that the
# recording of any match of theirs drops (history.services): a page read between two
# matches costs no query over their matches. A day at most, whatever happens.
STATS_CACHE_SECONDS = 24 * 3600


def _stats_version_key(user_id: int) -> str:
    return f"history:stats-version:{user_id}"


def stats_changed(user_ids: list[int]) -> None:
    """The players' sums are out of date (a match of theirs was just recorded)."""
    cache.delete_many([_stats_version_key(user_id) for user_id in user_ids])


def _stats_version(user_id: int) -> str:
    key = _stats_version_key(user_id)
    version = cache.get(key)
    if version is None:
        cache.add(key, uuid.uuid4().hex, STATS_CACHE_SECONDS)
        version = cache.get(key)
    return version or "none"


def _stats_sums(user: Any, starts: list[date]) -> tuple[list[Any], list[dict[str, Any]]]:
    """The two queries of the player page's figures (plain data, kept in the cache)."""
    rows = PlayerMatch.objects.filter(user=user)
    sums = {name: Sum(name) for name in FIGURE_NAMES}
    grouped = list(rows.values("mode", "rules", "outcome").annotate(n=Count("pk"), **sums))
    recent = []
    for group in (
        rows.filter(finished_at__gte=_day_start(starts[0]))
        .annotate(month=TruncMonth("finished_at"))
        .values("month", "outcome")
        .annotate(n=Count("pk"))
    ):
        month = group["month"]
        recent.append(
            {
                "month": month.date() if isinstance(month, datetime) else month,
                "outcome": group["outcome"],
                "n": group["n"],
            }
        )
    return grouped, recent


def player_stats(user: Any, *, now: datetime | None = None) -> PlayerStats:
    """Everything the player page shows about matches: the sums by mode, rule set and
    outcome over all the player's matches, and the outcomes by month over the last
    `PLAYER_PAGE_MONTHS` months. Two queries, or none while the cache holds them."""
    starts = month_starts(settings.PLAYER_PAGE_MONTHS, now=now)
    key = (
        f"history:stats:{user.pk}:{_stats_version(user.pk)}:{starts[0].isoformat()}:"
        f"{len(starts)}:{timezone.get_current_timezone_name()}"
    )
    found = cache.get(key)
    if found is None:
        found = _stats_sums(user, starts)
        cache.set(key, found, STATS_CACHE_SECONDS)
    grouped, recent = found
    totals = Results()
    modes = {value: Results(label=str(label)) for value, label in Mode.choices}
    rule_sets = {value: Results(label=str(label)) for value, label in RuleSetName.choices}
    figures = dict.fromkeys(FIGURE_NAMES, 0)
    for group in grouped:
        for results in (totals, modes.get(group["mode"]), rule_sets.get(group["rules"])):
            if results is not None:
                results.add(group["outcome"], group["n"])
        for name in FIGURE_NAMES:
            figures[name] += group[name] or 0
    monthly = {start: Results() for start in starts}
    for group in recent:
        if group["month"] in monthly:
            monthly[group["month"]].add(group["outcome"], group["n"])
    return PlayerStats(
        totals=totals,
        by_mode=list(modes.values()),
        by_rules=list(rule_sets.values()),
        by_month=list(monthly.items()),
        figures=figures,
    )


@dataclass(frozen=True)
class LeagueWeekLine:
    starts_at: datetime
    division: int
    division_label: str
    rank: int
    points: int
    movement: int


def league_weeks(user: Any, *, weeks: int | None = None) -> list[LeagueWeekLine]:
    """The player's archived league weeks (division, rank, points), oldest first: the
    last `PLAYER_PAGE_LEAGUE_WEEKS` closed weeks they played in. Public, as the
    archived standings are."""
    if not apps.is_installed("leagues"):
        return []
    from leagues.models import Division, LeagueStanding

    weeks = settings.PLAYER_PAGE_LEAGUE_WEEKS if weeks is None else weeks
    labels = dict(Division.choices)
    standings = (
        LeagueStanding.objects.filter(user=user)
        .select_related("week")
        .order_by("-week__starts_at")[:weeks]
    )
    return [
        LeagueWeekLine(
            starts_at=s.week.starts_at,
            division=s.division,
            division_label=str(labels.get(s.division, s.division)),
            rank=s.rank,
            points=s.points,
            movement=s.movement,
        )
        for s in reversed(list(standings))
    ]


def level_of(user: Any) -> Any:
    """The player's level (public: the profile shows it), or None without the economy."""
    if not apps.is_installed("economy"):
        return None
    from economy.selectors import user_level

    return user_level(user)


@dataclass(frozen=True)
class WalletMonth:
    month: date
    coins: int  # the balance at the end of the month
    xp: int  # total XP at the end of the month
    level: int


# A month's ledger is closed once the month is over: every entry is dated when it is
# posted (economy's `_record`), never back-dated. Sums of closed months are kept in
# the cache a month; for a few minutes after a month turns they are not cached, so a
# posting dated the month before that commits late is never left out.
WALLET_CACHE_SECONDS = 32 * 24 * 3600
WALLET_CLOSE_GRACE = timedelta(minutes=5)


def _ledger_months(
    user: Any, *, since: datetime | None, until: datetime | None
) -> dict[tuple[str, date], int]:
    """The user's ledger entries summed by currency and month (local time), from
    `since` (inclusive) to `until` (exclusive): one query."""
    from economy.models import Entry

    entries = Entry.objects.filter(account__user=user, account__kind="user")
    if since is not None:
        entries = entries.filter(transaction__created_at__gte=since)
    if until is not None:
        entries = entries.filter(transaction__created_at__lt=until)
    sums: dict[tuple[str, date], int] = {}
    for row in (
        entries.annotate(month=TruncMonth("transaction__created_at"))
        .values("account__currency", "month")
        .annotate(total=Sum("amount"))
    ):
        month = row["month"]
        month = month.date() if isinstance(month, datetime) else month
        sums[(row["account__currency"], month)] = row["total"]
    return sums


def _closed_months(user: Any, current: date, now: datetime) -> dict[tuple[str, date], int]:
    """The ledger sums of every month before `current`, from the cache when they are."""
    until = _day_start(current)
    if now - until < WALLET_CLOSE_GRACE:
        return _ledger_months(user, since=None, until=until)
    key = f"history:wallet:{user.pk}:{current.isoformat()}:{timezone.get_current_timezone_name()}"
    sums = cache.get(key)
    if sums is None:
        sums = _ledger_months(user, since=None, until=until)
        cache.set(key, sums, WALLET_CACHE_SECONDS)
    return sums


def wallet_by_month(user: Any, *, now: datetime | None = None) -> list[WalletMonth]:
    """Coins and XP at the end of each of the last `PLAYER_PAGE_MONTHS` months, and
    the level reached: private (the owner's page only).

    The months before this one are closed (their sums come from the cache after the
    first reading of the month); this month ends on the balances the ledger keeps on
    the accounts. With `now` in an earlier month, that month is summed from the ledger.
    """
    if not apps.is_installed("economy"):
        return []
    from economy.levels import level_progress
    from economy.selectors import balances

    real_now = timezone.now()
    now = now or real_now
    starts = month_starts(settings.PLAYER_PAGE_MONTHS, now=now)
    current = starts[-1]
    sums = _closed_months(user, current, now)
    before = {"coins": 0, "xp": 0}
    for (currency, month), total in sums.items():
        if month < starts[0]:
            before[currency] = before.get(currency, 0) + total
    lines = []
    coins, xp = before["coins"], before["xp"]
    for start in starts[:-1]:
        coins += sums.get(("coins", start), 0)
        xp += sums.get(("xp", start), 0)
        lines.append(WalletMonth(month=start, coins=coins, xp=xp, level=level_progress(xp).level))
    if current == month_starts(1, now=real_now)[0]:
        money = balances(user)
        coins, xp = money["coins"], money["xp"]
    else:
        next_month = _day_start((current + timedelta(days=31)).replace(day=1))
        this = _ledger_months(user, since=_day_start(current), until=next_month)
        coins += this.get(("coins", current), 0)
        xp += this.get(("xp", current), 0)
    lines.append(WalletMonth(month=current, coins=coins, xp=xp, level=level_progress(xp).level))
    return lines


# --- one finished match ----------------------------------------------------------------


@dataclass
class StoredMatch:
    match: Match
    seats: list[MatchSeat]
    engine: EngineMatch
    record: dict[str, Any]


def finished_match(match_id: int) -> StoredMatch:
    """A finished match rebuilt through the engine from its stored deals and action log.

    Anything else (live, aborted, unknown) is a 404: a live match's cards never leave here.
    """
    match = (
        Match.objects.select_related("table")
        .filter(pk=match_id, status=MatchStatus.FINISHED)
        .first()
    )
    if match is None:
        raise Http404
    seats = list(match.match_seats.select_related("user").order_by("position"))
    record = record_from_log(match)
    return StoredMatch(
        match=match, seats=seats, engine=EngineMatch.from_dict(record), record=record
    )
