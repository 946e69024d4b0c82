"""The daily deal's writers (docs/daily.md): the day and its deals, a player's deals
started, resumed, finished or left for later, the standings (provisional during the
day, final once it is over), the day's close and its rewards, and staff voiding a
result. Keyword-only, one transaction each.

Lock order, as the games app's: a table's rows first (its services lock the table,
its match, its seats), then this app's play and entry rows, then the day row. A
move that finishes a deal (table → play → entry) and a player starting their next
deal (entry, then a new table nobody else holds) never wait on each other in
opposite orders.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.admin.models import CHANGE, LogEntry
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from daily import errors
from daily.deals import DEALS, PLAYER_SEAT, RULES, deal_dealer, deal_seed
from daily.models import DailyDay, DailyDeal, DailyEntry, DailyPlay, DayStatus, PlayStatus
from daily.scoring import DealScores, deal_scores, prize_quota
from economy import services as ledger
from economy.models import TransactionKind
from games import selectors as game_selectors
from games import services as game_services
from games.models import Match, Mode, Seat, Table
from games.signals import results_recorded

logger = logging.getLogger(__name__)

TERMINAL = (PlayStatus.FINISHED, PlayStatus.EXPIRED)


# --- Days --------------------------------------------------------------------------


def _zone() -> ZoneInfo:
    return ZoneInfo(settings.DAILY_TIME_ZONE)


def day_of(moment: datetime) -> date:
    """The daily deal's calendar day (Europe/Madrid) of `moment`."""
    return timezone.localtime(moment, _zone()).date()


def day_end(day: date) -> datetime:
    """The moment `day` ends: the next midnight, Europe/Madrid."""
    return datetime.combine(day + timedelta(days=1), time(), tzinfo=_zone())


def day_ensure(*, day: date) -> DailyDay:
    """The row of `day` with its deals, drawn from DAILY_SECRET on first use and stored
    (a later change of the secret never changes a day already drawn)."""
    found = DailyDay.objects.filter(date=day).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            created = DailyDay.objects.create(date=day)
            DailyDeal.objects.bulk_create(
                [
                    DailyDeal(
                        day=created,
                        number=number,
                        seed=deal_seed(secret=settings.DAILY_SECRET, day=day, number=number),
                        dealer=deal_dealer(number),
                    )
                    for number in range(1, DEALS + 1)
                ]
            )
            return created
    except IntegrityError:  # drawn at the same moment by someone else: theirs stands
        return DailyDay.objects.get(date=day)


def today_day(now: datetime | None = None) -> DailyDay | None:
    """Today's row, if anyone has opened today's deals yet."""
    return DailyDay.objects.filter(date=day_of(now or timezone.now())).first()


# --- Playing -----------------------------------------------------------------------


def daily_play(*, user: User, number: int | None = None, now: datetime | None = None) -> Table:
    """Takes `user` to their next deal of today: the one in progress (taking their seat
    back if they left it for later), else a new table with the next deal, dealt at
    once. `number`, when given, must be that deal: an earlier one was played
    already (DealAlreadyPlayed), a later one must wait (DealNotYet). Refused when the
    six are played (SetFinished), the day's result was voided (EntryVoided) or the
    user sits at another live table (games' AlreadyAtTable); nothing is written then.
    """
    now = now or timezone.now()
    day = day_ensure(day=day_of(now))
    entry = DailyEntry.objects.filter(day=day, user=user).first()
    if entry is not None:
        current = (
            DailyPlay.objects.filter(entry=entry, status=PlayStatus.PLAYING)
            .select_related("deal", "match")
            .first()
        )
        if current is not None:
            if entry.voided_at is not None:
                raise errors.EntryVoided()
            _check_number(number, current.deal.number)
            table = _resume(user=user, play=current)
            if table is not None:
                return table
    with transaction.atomic():
        entry, _created = DailyEntry.objects.get_or_create(day=day, user=user)
        entry = DailyEntry.objects.select_for_update().get(pk=entry.pk)
        if entry.voided_at is not None:
            raise errors.EntryVoided()
        plays = {
            p.deal.number: p for p in DailyPlay.objects.filter(entry=entry).select_related("deal")
        }
        playing = next((p for p in plays.values() if p.status == PlayStatus.PLAYING), None)
        if playing is not None:
            # Started by a request that committed while this one waited on the entry.
            assert playing.match is not None
            _check_number(number, playing.deal.number)
            return Table.objects.get(pk=playing.match.table_id)
        if number is not None and number in plays:
            raise errors.DealAlreadyPlayed()
        following = next((n for n in range(1, DEALS + 1) if n not in plays), None)
        if following is None:
            raise errors.SetFinished()
        _check_number(number, following)
        deal = DailyDeal.objects.get(day=day, number=following)
        table = game_services.table_create_against_bots(
            user=user,
            mode=Mode.DAILY,
            rules=RULES,
            bot_level=settings.DAILY_BOT_LEVEL,
            seed=deal.seed,
            first_dealer=deal.dealer,
            last_hand=1,
        )
        match = game_selectors.latest_match(table)
        DailyPlay.objects.create(entry=entry, deal=deal, match=match, status=PlayStatus.PLAYING)
        return table


def _check_number(asked: int | None, due: int) -> None:
    if asked is None or asked == due:
        return
    if asked < due:
        raise errors.DealAlreadyPlayed()
    raise errors.DealNotYet()


@transaction.atomic
def _resume(*, user: User, play: DailyPlay) -> Table | None:
    """The deal in progress: its table, the seat taken back if it was left for later.
    None when the deal ended meanwhile (the caller then starts the next one)."""
    assert play.match is not None
    table = game_services.table_lock(table_id=play.match.table_id)
    match = game_services.match_lock(table=table)
    seats = game_services.seats_lock(table=table)
    play.refresh_from_db(fields=["status"])
    if play.status != PlayStatus.PLAYING or match is None or match.pk != play.match_id:
        return None
    seat = seats[PLAYER_SEAT]
    if not seat.live:
        game_services.seat_take(seat=seat, user=user)  # AlreadyAtTable: somewhere else
        game_services.table_broadcast(
            table=table, seats=seats, match=match, events=[{"type": "daily_resumed"}]
        )
    return table


def play_leave_locked(*, table: Table, match: Match, seats: list[Seat], seat: Seat) -> None:
    """The player leaves a deal in play for later (the table, match and seats locked by
    the games app): nothing plays for them, they may sit elsewhere meanwhile, and
    `daily_play` takes them back to it (the same day)."""
    game_services.seat_release(seat=seat)
    game_services.table_broadcast(
        table=table, seats=seats, match=match, events=[{"type": "daily_left"}]
    )


def play_finish_locked(*, match: Match) -> DailyPlay | None:
    """The games app finished the deal's match (its rows locked): the play's result.
    A deal finished after its day ended counts as not finished (the worst result)."""
    # Only the play's row: FOR UPDATE over the join would also lock the deal and the
    # day, so every deal finished would queue on the day row (and meet the
    # standings, which lock the day before the plays, in the opposite order).
    play = (
        DailyPlay.objects.select_for_update(of=("self",))
        .select_related("deal__day")
        .filter(match=match)
        .first()
    )
    if play is None or play.status != PlayStatus.PLAYING:
        return play
    finished_at = match.finished_at or timezone.now()
    day = play.deal.day
    if day.status == DayStatus.CLOSED or finished_at >= day_end(day.date):
        return _play_expire(play)
    play.status = PlayStatus.FINISHED
    pair = PLAYER_SEAT % 2
    scores = (match.score_a, match.score_b)
    play.result = scores[pair] - scores[1 - pair]
    play.finished_at = finished_at
    play.save(update_fields=["status", "result", "finished_at"])
    _entry_progress(play.entry_id, finished_at)
    return play


def play_expire_locked(*, match: Match) -> DailyPlay | None:
    """The deal's match was stopped (by staff, or because its day ended) with its rows
    locked: the play counts as not finished, the worst result; the player goes on
    with the next deal."""
    play = DailyPlay.objects.select_for_update().filter(match=match).first()
    if play is None or play.status != PlayStatus.PLAYING:
        return play
    return _play_expire(play)


def _play_expire(play: DailyPlay) -> DailyPlay:
    play.status = PlayStatus.EXPIRED
    play.result = None
    play.save(update_fields=["status", "result"])
    # A deal stopped inside its day still counts towards the set played through.
    day = DailyDay.objects.filter(deals__plays=play).values_list("date", flat=True).get()
    now = timezone.now()
    if now < day_end(day):
        _entry_progress(play.entry_id, now)
    return play


def _entry_progress(entry_id: int, moment: datetime) -> None:
    """Counts the entry's deals: finished ones, and the set played through once none
    of the six is left (each deal finished, or stopped by staff)."""
    entry = DailyEntry.objects.select_for_update().get(pk=entry_id)
    counts = DailyPlay.objects.filter(entry_id=entry_id).aggregate(
        finished=Count("pk", filter=Q(status=PlayStatus.FINISHED)),
        done=Count("pk", filter=Q(status__in=TERMINAL)),
    )
    entry.deals_finished = counts["finished"]
    if counts["done"] >= DEALS and entry.finished_at is None:
        entry.finished_at = moment
    entry.save(update_fields=["deals_finished", "finished_at"])


# --- Standings ---------------------------------------------------------------------


# Rows a VALUES list carries in one UPDATE (parameters stay far under the drivers' limits).
_VALUES_BATCH = 2000


def _sql(statement: str, params: list[Any]) -> int:
    """Runs one statement of this app's own tables: the standings' set-based updates
    from an aggregate and from RANK(), what the ORM cannot say (docs/architecture.md,
    "Plain SQL"; 100,000 players' day in one statement each: bench/daily_bench.py).
    Table names come from the models' _meta (the `{entry}` slots), values are
    parameters; PostgreSQL and SQLite (3.33+: UPDATE … FROM) alike."""
    names = {
        "entry": connection.ops.quote_name(DailyEntry._meta.db_table),
        "play": connection.ops.quote_name(DailyPlay._meta.db_table),
        "deal": connection.ops.quote_name(DailyDeal._meta.db_table),
    }
    with connection.cursor() as cursor:
        cursor.execute(statement.format(**names), params)
        return cursor.rowcount


def _result_counts(day: DailyDay, voided: set[int] | None = None) -> dict[int, dict[int, int]]:
    """Finished results of each deal of `day`: {deal id: {result: players}}, voided
    entries left out."""
    counts: dict[int, dict[int, int]] = {deal.pk: {} for deal in day.deals.all()}
    rows = (
        DailyPlay.objects.filter(
            deal__day=day, status=PlayStatus.FINISHED, entry__voided_at__isnull=True
        )
        .values_list("deal_id", "result")
        .annotate(n=Count("pk"))
    )
    for deal_id, result, n in rows:
        counts[deal_id][result] = n
    return counts


def _plays_score(by_deal: dict[int, DealScores], *, final: bool) -> None:
    """Writes each play's matchpoints and percent from its deal's scores: the finished
    plays in one UPDATE from a VALUES list of (deal, result, matchpoints, percent)
    (one UPDATE per (deal, result) took 12 s of the close at 100,000 players), and
    one per deal for the others (the worst when final) and for the voided."""
    scored = [
        (deal_id, result, mp, scores.percent(mp))
        for deal_id, scores in by_deal.items()
        for result, mp in scores.by_result.items()
    ]
    for start in range(0, len(scored), _VALUES_BATCH):
        batch = scored[start : start + _VALUES_BATCH]
        _sql(
            "UPDATE {play} SET matchpoints = v.column3, percent = v.column4"
            " FROM (VALUES " + ", ".join(["(%s, %s, %s, %s)"] * len(batch)) + ") AS v"
            " WHERE {play}.deal_id = v.column1 AND {play}.result = v.column2"
            " AND {play}.status = %s AND {play}.entry_id IN"
            " (SELECT id FROM {entry} WHERE voided_at IS NULL)",
            [*(value for row in batch for value in row), PlayStatus.FINISHED],
        )
    for deal_id, scores in by_deal.items():
        live = DailyPlay.objects.filter(deal_id=deal_id, entry__voided_at__isnull=True)
        if final:
            live.exclude(status=PlayStatus.FINISHED).update(
                matchpoints=scores.worst, percent=scores.percent(scores.worst)
            )
        else:
            live.exclude(status=PlayStatus.FINISHED).update(matchpoints=None, percent=None)
        DailyPlay.objects.filter(deal_id=deal_id, entry__voided_at__isnull=False).update(
            matchpoints=None, percent=None
        )


@transaction.atomic
def standings_refresh(*, day_id: int, now: datetime | None = None) -> DailyDay:
    """The provisional standings of a day being played: each finished deal against
    everyone who has finished it so far; a player's score is the mean of their
    finished deals (the ranking says how many). Ranks by score; voided results are
    left out. A closed day keeps its final standings (nothing is done)."""
    now = now or timezone.now()
    day = DailyDay.objects.select_for_update().get(pk=day_id)
    if day.status == DayStatus.CLOSED:
        return day
    counts = _result_counts(day)
    _plays_score({deal: deal_scores(c) for deal, c in counts.items()}, final=False)
    _sql(
        "UPDATE {entry} SET score = NULL, rank = NULL, matchpoints = NULL WHERE day_id = %s",
        [day.pk],
    )
    _sql(
        "UPDATE {entry} SET score = s.score FROM ("
        " SELECT p.entry_id AS entry_id, AVG(p.percent) AS score FROM {play} p"
        " WHERE p.entry_id IN (SELECT id FROM {entry} WHERE day_id = %s AND voided_at IS NULL)"
        " AND p.status = %s GROUP BY p.entry_id"
        ") s WHERE {entry}.id = s.entry_id",
        [day.pk, PlayStatus.FINISHED],
    )
    _rank(day, "ROUND(CAST(score AS NUMERIC), 6) DESC", "score IS NOT NULL")
    day.players = DailyEntry.objects.filter(
        day=day, voided_at__isnull=True, score__isnull=False
    ).count()
    day.standings_at = now
    day.save(update_fields=["players", "standings_at"])
    return day


def _rank(day: DailyDay, order: str, where: str) -> None:
    """RANK() over the day's unvoided entries matching `where`, by `order` (equal keys
    share a rank, the next rank skips: 1, 2, 2, 4)."""
    _sql(
        "UPDATE {entry} SET rank = r.rank FROM ("
        f" SELECT id, RANK() OVER (ORDER BY {order}) AS rank FROM {{entry}}"
        f" WHERE day_id = %s AND voided_at IS NULL AND {where}"
        ") r WHERE {entry}.id = r.id",
        [day.pk],
    )


def _final_standings(day: DailyDay, now: datetime) -> int:
    """The final standings of a day that is over (its day row locked): every deal of
    every unvoided player counts, a deal not finished as the worst result. Returns
    the number of players ranked."""
    entries = DailyEntry.objects.filter(day=day, voided_at__isnull=True)
    players = entries.count()
    # Every player of the day has a play of every deal: the ones never started are
    # made here, not finished (the worst result).
    deals = list(day.deals.all())
    have = set(DailyPlay.objects.filter(entry__day=day).values_list("entry_id", "deal_id"))
    missing = [
        DailyPlay(entry_id=entry_id, deal=deal, status=PlayStatus.EXPIRED)
        for entry_id in entries.values_list("pk", flat=True).iterator(chunk_size=5000)
        for deal in deals
        if (entry_id, deal.pk) not in have
    ]
    DailyPlay.objects.bulk_create(missing, batch_size=5000)
    counts = _result_counts(day)
    by_deal = {
        deal_id: deal_scores(c, unfinished=players - sum(c.values()))
        for deal_id, c in counts.items()
    }
    _plays_score(by_deal, final=True)
    # Voided entries leave the standings; every other entry has a play of each deal
    # (made above), so one pass gives each its matchpoints and score.
    _sql(
        "UPDATE {entry} SET score = NULL, rank = NULL, matchpoints = NULL"
        " WHERE day_id = %s AND voided_at IS NOT NULL",
        [day.pk],
    )
    # A lone player scores 50 %; otherwise the share of the matchpoints there were.
    most = DEALS * 2 * (players - 1)
    _sql(
        "UPDATE {entry} SET matchpoints = s.mp,"
        " score = CASE WHEN %s > 0 THEN 100.0 * s.mp / %s ELSE 50.0 END FROM ("
        " SELECT p.entry_id AS entry_id, SUM(p.matchpoints) AS mp FROM {play} p"
        " WHERE p.entry_id IN (SELECT id FROM {entry} WHERE day_id = %s AND voided_at IS NULL)"
        " GROUP BY p.entry_id"
        ") s WHERE {entry}.id = s.entry_id",
        [most, most, day.pk],
    )
    _rank(day, "matchpoints DESC", "matchpoints IS NOT NULL")
    day.players = players
    day.standings_at = now
    return players


# --- Closing a day -----------------------------------------------------------------


@dataclass(frozen=True)
class DayClosing:
    """What closing a day did: `replayed` when it was closed before (nothing moved)."""

    day: DailyDay
    players: int = 0
    stopped: int = 0
    paid: int = 0
    replayed: bool = False


def days_close_due(*, now: datetime | None = None) -> list[DayClosing]:
    """Closes every day that is over and still open, oldest first (also days missed
    while nothing ran). Each day closes on its own; a day closed by someone else
    meanwhile is `replayed`."""
    now = now or timezone.now()
    closings = []
    for day_id in (
        DailyDay.objects.filter(status=DayStatus.OPEN, date__lt=day_of(now))
        .order_by("date")
        .values_list("pk", flat=True)
    ):
        closings.append(day_close(day_id=day_id, now=now))
    return closings


def day_close(*, day_id: int, now: datetime | None = None) -> DayClosing:
    """The end of a day: its deals still in play are stopped (the worst result), the
    final standings computed, and the day's rewards paid once (`rewards_pay`).
    Idempotent: a second call, or a second closer at the same instant, finds the day
    closed and does nothing."""
    now = now or timezone.now()
    day = DailyDay.objects.get(pk=day_id)
    if day_end(day.date) > now:
        raise ValueError(f"the day {day.date} is not over")
    stopped = 0
    if day.status == DayStatus.OPEN:
        playing = DailyPlay.objects.filter(
            deal__day=day, status=PlayStatus.PLAYING, match__isnull=False
        ).values_list("match_id", flat=True)
        for match_id in list(playing):
            stopped += _play_stop(match_id=match_id)
    with transaction.atomic():
        day = DailyDay.objects.select_for_update().get(pk=day_id)
        if day.status == DayStatus.CLOSED:
            return DayClosing(day=day, replayed=True)
        # A deal started in the last instant, or whose table could not be stopped.
        DailyPlay.objects.filter(deal__day=day, status=PlayStatus.PLAYING).update(
            status=PlayStatus.EXPIRED, result=None
        )
        players = _final_standings(day, now)
        day.status = DayStatus.CLOSED
        day.closed_at = now
        day.save(update_fields=["status", "closed_at", "players", "standings_at"])
        paid = rewards_pay(day=day, now=now)
        _results_notify(day=day)
        results_recorded.send(sender=DailyDay, event="daily", ref_id=day.pk)
    logger.info("daily deal %s closed: %s players, %s paid", day.date, players, paid)
    return DayClosing(day=day, players=players, stopped=stopped, paid=paid)


def _results_notify(*, day: DailyDay) -> int:
    """Every player of the closed day learns its results are ready (in bulk)."""
    from notifications import kinds
    from notifications.services import Outgoing, notifications_send_many

    link = reverse("daily:ranking", kwargs={"day": day.date})
    users = DailyEntry.objects.filter(day=day).order_by("user_id").values_list("user_id", flat=True)
    return notifications_send_many(
        Outgoing(
            user_id=user_id,
            kind=kinds.DAILY_RESULTS,
            params={"day": day.date.isoformat()},
            link=link,
            dedup_key=f"daily:{day.date.isoformat()}",
        )
        for user_id in users.iterator(chunk_size=5000)
    )


@transaction.atomic
def _play_stop(*, match_id: int) -> int:
    """Stops a deal's match that is still in play when its day ends (the worst result)."""
    match = game_services.match_stop(match_id=match_id, event={"type": "daily_day_over"})
    if match is None:
        return 0
    play_expire_locked(match=match)
    return 1


def daily_key(*, day: date, user_id: int) -> str:
    """The ledger key of a player's rewards of a day: one per user and day."""
    return f"daily-deal:{day.isoformat()}:{user_id}"


def rewards_pay(*, day: DailyDay, now: datetime | None = None) -> int:
    """Pays a closed day's rewards (inside the caller's transaction, day row locked):
    DAILY_FINISH_XP to every unvoided player who played the set through (boosters and
    VIP running when they finished it multiply it), DAILY_PRIZE_COINS to those of
    them ranked in the top DAILY_PRIZE_PERCENT (rounded down, at least one; ties at
    the edge included; never multiplied). One ledger transaction per player and day
    (`daily_key`): paying again moves nothing. Returns how many were paid now."""
    now = now or timezone.now()
    quota = prize_quota(day.players, settings.DAILY_PRIZE_PERCENT)
    due = list(
        DailyEntry.objects.filter(
            day=day, voided_at__isnull=True, finished_at__isnull=False, paid_at__isnull=True
        ).values_list("pk", "user_id", "rank", "finished_at")
    )
    prizes = []
    base: dict[int, tuple[int, int]] = {}
    for entry_id, user_id, rank, finished_at in due:
        coins = settings.DAILY_PRIZE_COINS if rank is not None and rank <= quota else 0
        xp = settings.DAILY_FINISH_XP
        base[entry_id] = (coins, xp)
        prizes.append(
            ledger.Prize(
                user_id=user_id,
                idempotency_key=daily_key(day=day.date, user_id=user_id),
                coins=coins,
                xp=xp,
                xp_at=finished_at,
                memo=f"daily deal {day.date.isoformat()}" + (" (prize)" if coins else ""),
            )
        )
    granted = ledger.prizes_grant(prizes=prizes, kind=TransactionKind.DAILY_PRIZE, now=now)
    # What each player got (XP after their multipliers), kept with their result.
    by_key = granted.paid
    keyed = {daily_key(day=day.date, user_id=u): e for e, u, _r, _f in due}
    rows = [(entry_id, *by_key.get(key, base[entry_id])) for key, entry_id in keyed.items()]
    # One UPDATE … FROM (VALUES …) a batch: Django's bulk_update writes a CASE with a
    # branch per row, which took 40 of the close's 90 s at 100,000 players
    # (bench/daily_bench.py, docs/daily.md).
    for start in range(0, len(rows), _VALUES_BATCH):
        batch = rows[start : start + _VALUES_BATCH]
        _sql(
            "UPDATE {entry} SET prize_coins = v.column2, prize_xp = v.column3, paid_at = %s"
            " FROM (VALUES " + ", ".join(["(%s, %s, %s)"] * len(batch)) + ") AS v"
            " WHERE {entry}.id = v.column1",
            [now, *(value for row in batch for value in row)],
        )
    return len(by_key)


# --- Staff ------------------------------------------------------------------------


@transaction.atomic
def entry_void(*, staff_user: User, entry_id: int, reason: str) -> DailyEntry:
    """Staff void a player's result of a day, with a reason (logged in the admin log):
    it leaves the day's standings, which are computed again (the final ones, once the
    day is closed). A deal the player has in play is stopped, and they cannot play
    that day's deals any more. Rewards already paid stay paid (the ledger is never
    undone; staff adjust a balance if they must), and once a day is closed nobody
    else is paid for it (each player's day has one payout)."""
    reason = (reason or "").strip()
    if not reason:
        raise errors.ReasonRequired()
    if not staff_user.has_perm("daily.void_dailyentry"):
        raise errors.NotAllowed()
    day_id = DailyEntry.objects.values_list("day_id", flat=True).get(pk=entry_id)
    # The day row first: the standings lock it before the plays and entries.
    day = DailyDay.objects.select_for_update().get(pk=day_id)
    playing = DailyPlay.objects.filter(
        entry_id=entry_id, status=PlayStatus.PLAYING, match__isnull=False
    ).values_list("match_id", flat=True)
    for match_id in list(playing):
        _play_stop(match_id=match_id)
    entry = DailyEntry.objects.select_for_update().get(pk=entry_id)
    if entry.voided_at is not None:
        raise errors.AlreadyVoided()
    entry.voided_at = timezone.now()
    entry.voided_by = staff_user
    entry.void_reason = reason
    entry.score = entry.rank = entry.matchpoints = None
    entry.save(
        update_fields=["voided_at", "voided_by", "void_reason", "score", "rank", "matchpoints"]
    )
    LogEntry.objects.log_actions(
        user_id=staff_user.pk,
        queryset=[entry],
        action_flag=CHANGE,
        change_message=_("Daily result voided. Reason: %(reason)s") % {"reason": reason},
    )
    if day.status == DayStatus.CLOSED:
        _final_standings(day, timezone.now())
        day.save(update_fields=["players", "standings_at"])
    else:
        standings_refresh(day_id=day.pk)
    entry.refresh_from_db()
    return entry
