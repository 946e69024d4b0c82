"""Reads for the online pages."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import Count, Min, OuterRef, Q, Subquery, Sum
from django.utils import timezone

from accounts.models import User
from games import hooks as games_hooks
from games.models import MatchStatus, Mode, Seat, SeatKind, Table, TableStatus
from online.errors import duration_text
from online.models import (
    MatchConduct,
    QueueEntry,
    QueueInvitation,
    QueueSeating,
    QuitStanding,
    StakeTable,
)
from online.quitting import abandoned_lately, wait_minutes, window
from social.selectors import partnerships_of

SEATS = 4


@dataclass(frozen=True)
class QueueStatus:
    queued: bool
    waiting: int  # players in the queue now, this one included
    waited_seconds: int  # how long this player has waited
    bot_fill_seconds: int


def queue_status(*, user: User, now: datetime | None = None) -> QueueStatus:
    now = now or timezone.now()
    entry = QueueEntry.objects.filter(user=user).first()
    waited = int((now - entry.joined_at).total_seconds()) if entry else 0
    return QueueStatus(
        queued=entry is not None,
        waiting=QueueEntry.objects.count(),
        waited_seconds=max(0, waited),
        bot_fill_seconds=int(settings.ONLINE_BOT_FILL_SECONDS),
    )


def live_table_id(*, user: User) -> int | None:
    """The live table the user sits at (there is at most one), or None."""
    return (
        Seat.objects.filter(
            user=user, live=True, table__status__in=[TableStatus.OPEN, TableStatus.PLAYING]
        )
        .values_list("table_id", flat=True)
        .first()
    )


@dataclass(frozen=True)
class OpenStakeTable:
    table_id: int
    stake: int
    # Name and reputation (games.hooks: matches finished, finished on time).
    players: list[tuple[str, int | None, int | None]]
    free_seats: int
    seconds_left: int
    min_reputation: int = 0  # what a player needs to sit there (0: anyone)


def open_stake_tables(*, now: datetime | None = None) -> dict[int, list[OpenStakeTable]]:
    """Open stake tables still filling, by stake (every configured stake present)."""
    now = now or timezone.now()
    infos = (
        StakeTable.objects.filter(table__status=TableStatus.OPEN, expires_at__gt=now)
        .annotate(humans=Count("table__seats", filter=Q(table__seats__kind=SeatKind.HUMAN)))
        .order_by("stake", "expires_at")
    )
    names: dict[int, list[tuple[str, int | None, int | None]]] = {}
    for table_id, username, reliability, on_time in (
        Seat.objects.filter(table__in=[i.table_id for i in infos], kind=SeatKind.HUMAN)
        .order_by("position")
        .values_list("table_id", "user__username", "reliability", "on_time")
    ):
        names.setdefault(table_id, []).append((username, reliability, on_time))
    by_stake: dict[int, list[OpenStakeTable]] = {amount: [] for amount in settings.STAKE_AMOUNTS}
    for info in infos:
        by_stake.setdefault(info.stake, []).append(
            OpenStakeTable(
                table_id=info.table_id,
                stake=info.stake,
                players=names.get(info.table_id, []),
                free_seats=4 - info.humans,
                seconds_left=max(0, int((info.expires_at - now).total_seconds())),
                min_reputation=info.min_reputation,
            )
        )
    return by_stake


@dataclass(frozen=True)
class StakeTableView:
    table: Table
    stake: int
    seats: list[Seat]
    seconds_left: int
    seated: bool
    min_reputation: int
    # Coins the ledger gave back to this user from this table (a cancelled table, or
    # leaving before it filled): what the page says "came back".
    refunded: int = 0


def stake_table_view(
    *, table_id: int, user: User, now: datetime | None = None
) -> StakeTableView | None:
    now = now or timezone.now()
    info = (
        StakeTable.objects.select_related("table")
        .filter(table_id=table_id, table__mode=Mode.STAKE)
        .first()
    )
    if info is None:
        return None
    seats = list(Seat.objects.filter(table_id=table_id).select_related("user").order_by("position"))
    return StakeTableView(
        table=info.table,
        stake=info.stake,
        seats=seats,
        seconds_left=max(0, int((info.expires_at - now).total_seconds())),
        seated=any(s.user_id == user.pk and s.live for s in seats),
        min_reputation=info.min_reputation,
        refunded=_refunded(table_id=table_id, user=user),
    )


@dataclass(frozen=True)
class QuitNotice:
    """The last abandonment of a rated match, until the player dismisses it."""

    match_id: int
    at: datetime
    left: bool  # pressed Leave (False: away too long)
    forgiven: bool  # a first disconnect
    wait_until: datetime | None  # the wait it started (None: a warning only)
    url: str | None = None  # the finished match's page (history), where one is registered


@dataclass(frozen=True)
class QuitStatus:
    """Where a player stands on the ladder of waits (docs/fairplay.md), for the queue
    page, the stake tables and the lobby."""

    step: int  # abandonments counted in the window, less the steps forgiven
    abandoned: int  # abandonments counted (not forgiven) in the window
    wait_until: datetime | None  # no queue, no stake table before this (None: free)
    wait_seconds: int  # left of that wait
    next_wait_minutes: int  # what the next abandonment would cost (0: a warning)
    clean_to_step_off: int  # matches to finish cleanly to take one step off (0: none)
    notice: QuitNotice | None
    window_days: int

    @property
    def waiting(self) -> bool:
        return self.wait_until is not None

    @property
    def wait_left(self) -> str:
        """What is left of the wait, in words of the active language."""
        return duration_text(self.wait_seconds)

    @property
    def next_wait(self) -> str:
        """What the next abandonment would cost, in words ("" for a warning only)."""
        return duration_text(self.next_wait_minutes * 60) if self.next_wait_minutes else ""


def quit_status(*, user: User, now: datetime | None = None) -> QuitStatus | None:
    """The player's standing on the ladder, or None when there is nothing to tell them
    (never abandoned a rated match in the window, no wait, nothing to dismiss). One
    query, two more when there is something to tell."""
    now = now or timezone.now()
    standing = (
        QuitStanding.objects.filter(user=user).select_related("notice", "notice__match").first()
    )
    if standing is None:
        return None
    step = standing.step
    if standing.last_counted_at is None or standing.last_counted_at < now - window():
        step = 0
    until = standing.wait_until if standing.wait_until and standing.wait_until > now else None
    conduct: MatchConduct | None = standing.notice
    notice = (
        QuitNotice(
            match_id=conduct.match_id,
            at=conduct.at,
            left=conduct.conduct == "left",
            forgiven=conduct.forgiven,
            wait_until=conduct.wait_until,
            # The match's page once it is over (the bots finish an abandoned match).
            url=games_hooks.link("match_page", conduct.match_id)
            if conduct.match.status == MatchStatus.FINISHED
            else None,
        )
        if conduct is not None
        else None
    )
    if not step and until is None and notice is None:
        return None
    per_step = int(settings.QUIT_CLEAN_PER_STEP)
    return QuitStatus(
        step=step,
        abandoned=abandoned_lately(user, now),
        wait_until=until,
        wait_seconds=int((until - now).total_seconds()) if until else 0,
        next_wait_minutes=wait_minutes(step + 1),
        clean_to_step_off=max(1, per_step - standing.clean_matches) if step else 0,
        notice=notice,
        window_days=int(settings.QUIT_WINDOW_DAYS),
    )


def table_stake_expression() -> Subquery:
    """Over `games.Table` rows: the stake of a stake table (NULL at any other table),
    for a list that sorts tables by their stake in one query (games' tables in play)."""
    return Subquery(StakeTable.objects.filter(table_id=OuterRef("pk")).values("stake")[:1])


def stake_and_stakers(*, table_id: int) -> tuple[int, int] | None:
    """A stake table's stake and how many players' stakes are in its pot now (those
    sitting there who have not left; one query), or None for another table."""
    found = (
        StakeTable.objects.filter(table_id=table_id)
        .annotate(stakers=Count("sittings", filter=Q(sittings__left_at__isnull=True)))
        .values_list("stake", "stakers")
        .first()
    )
    return (found[0], found[1]) if found is not None else None


def _refunded(*, table_id: int, user: User) -> int:
    from economy.models import Entry, TransactionKind

    total = Entry.objects.filter(
        transaction__kind=TransactionKind.REFUND,
        transaction__table_id=table_id,
        account__user=user,
        account__currency="coins",
    ).aggregate(total=Sum("amount"))["total"]
    return total or 0


# --- What operators watch (cuatrola_site/monitoring.py) ------------------------------


@dataclass(frozen=True)
class QueueNow:
    waiting: int
    oldest_seconds: float  # 0 when nobody waits


def queue_now(now: datetime | None = None) -> QueueNow:
    now = now or timezone.now()
    row = QueueEntry.objects.aggregate(n=Count("pk"), oldest=Min("joined_at"))
    oldest = row["oldest"]
    return QueueNow(
        waiting=row["n"], oldest_seconds=(now - oldest).total_seconds() if oldest else 0.0
    )


@dataclass(frozen=True)
class QueueSince:
    seated: int
    waits_seconds: list[float]  # each seated player's wait, shortest first
    bot_seat_share: float | None  # bot seats over all seats of those tables


def queue_since(since: datetime) -> QueueSince:
    """The players seated from the queue since `since`: their waits and the share
    of their tables' seats bots took."""
    rows = list(
        QueueSeating.objects.filter(seated_at__gte=since).values_list(
            "table_id", "waited_ms", "bot_seats"
        )
    )
    bots_at = {table_id: bots for table_id, _, bots in rows}
    share = sum(bots_at.values()) / (SEATS * len(bots_at)) if bots_at else None
    return QueueSince(
        seated=len(rows),
        waits_seconds=sorted(ms / 1000 for _, ms, _ in rows),
        bot_seat_share=share,
    )


# --- Partners in the queue (docs/online.md) -------------------------------------------


@dataclass(frozen=True)
class PartnerQueue:
    """What the lobby shows of queueing with a partner: the invitations received
    (`incoming`), the one sent (`outgoing`), the partner queued with (`queued_with`,
    a username) and the standing partners one may invite (`partners`, usernames)."""

    incoming: list[QueueInvitation]
    outgoing: QueueInvitation | None
    queued_with: str | None
    partners: list[str]


def partner_queue(*, user: User) -> PartnerQueue:
    entry = QueueEntry.objects.filter(user=user).select_related("partner").first()
    pairs = partnerships_of(user.pk, standing=True)
    return PartnerQueue(
        incoming=list(
            QueueInvitation.objects.filter(to_user=user)
            .select_related("from_user")
            .order_by("-created_at", "-pk")
        ),
        outgoing=QueueInvitation.objects.filter(from_user=user).select_related("to_user").first(),
        queued_with=entry.partner.username if entry and entry.partner else None,
        partners=sorted(
            (p.user_high if p.user_low_id == user.pk else p.user_low).username for p in pairs
        ),
    )
