"""Playing a match: a player's move, a bot's move, a turn that ran out, and the
end of a match (results, places, the table closed, the mode's settlement).

A bot thinks outside any transaction, on the state it read; its move is then
applied under the table's locks only if the match is still at the version it
read (otherwise the move is dropped: someone else moved first).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from cuatrola.engine import EngineError, seat_view
from cuatrola.engine import Match as EngineMatch
from cuatrola.engine import NotYourTurn as EngineNotYourTurn
from games import errors, hooks, rows, signals
from games.bot_adapter import choose_bot_action
from games.frames.builder import places_for
from games.models import (
    ActionSource,
    Match,
    MatchSeat,
    MatchStatus,
    Seat,
    SeatKind,
    Table,
    TableStatus,
)
from games.modes import mode_policy
from games.services.presence import sockets_silent_since
from games.services.tables import (
    bots_queue,
    hand_store,
    seat_of,
    table_broadcast,
    table_close,
    table_lock_live,
    turn_deadline,
)
from games.state import cache_put, engine_match
from ops import context, metrics


def _check_version(match: Match, version: Any) -> None:
    if isinstance(version, bool) or not isinstance(version, int) or version != match.version:
        raise errors.StaleVersion()


@transaction.atomic
def match_play(*, user: User, table_id: int, action: str, version: int) -> Match:
    """A seated player's bid or card, for their own seat, at the version they saw."""
    table, match, seats = table_lock_live(table_id=table_id)
    seat = seat_of(seats, user)
    if seat is None or not seat.live:
        raise errors.NotSeated()
    _check_version(match, version)
    engine = engine_match(match)
    if engine.to_play != seat.position:
        raise errors.NotYourTurn()
    if seat.absent_since is not None or seat.timeouts_in_row:
        # Acting proves presence: the player takes the seat back from the bot.
        seat.absent_since = None
        seat.timeouts_in_row = 0
        seat.save(update_fields=["absent_since", "timeouts_in_row"])
    _apply(table, match, seats, engine, action, seat.position, ActionSource.PLAYER)
    return match


@transaction.atomic
def match_play_bot(*, table_id: int, version: int, position: int, action: str) -> bool:
    """A bot's move, chosen outside the transaction; ignored if the table moved on."""
    table, match, seats = table_lock_live(table_id=table_id)
    if match.version != version:
        return False
    engine = engine_match(match)
    if engine.to_play != position or not seats[position].bot_controlled:
        return False
    _apply(table, match, seats, engine, action, position, ActionSource.BOT)
    return True


def match_bot_move(*, table_id: int, version: int | None = None) -> bool:
    """Plays one bot move if a bot-controlled seat is to play; True if it did.

    `version`: the match's version the move was queued for (a Celery task carries
    it); a match that has moved on since is left alone, so a task delivered twice
    (acknowledged late, redelivered after a worker died) plays no second move.
    The bot thinks outside any transaction (no lock is held meanwhile); its move
    goes through `match_play_bot`, which checks the version under the lock.
    """
    live = rows.read_live(table_id)  # one prepared statement: this runs for every bot move
    if live is None:
        return False
    table, match, seats = live
    if match.to_play is None or (version is not None and match.version != version):
        return False
    if not seats[match.to_play].bot_controlled:
        return False
    engine = engine_match(match)
    action = bot_action(engine, table, match, match.to_play)
    try:
        match_play_bot(
            table_id=table_id, version=match.version, position=match.to_play, action=action
        )
    except errors.GameError:
        return False
    return True


def match_timeout(*, match_id: int, version: int) -> bool:
    """The turn at `version` ran out: a bot plays that move for the seat.

    The bot's move is chosen from the state read before any lock is taken (a hard
    bot thinks for up to 400 ms); it is applied in a transaction only if the match
    is still at `version` and its turn still ran out. False when nothing was done.
    """
    match = (
        Match.objects.filter(pk=match_id, status=MatchStatus.PLAYING)
        .select_related("table")
        .first()
    )
    if match is None or match.version != version or match.to_play is None:
        return False
    if match.turn_deadline is None or match.turn_deadline > timezone.now():
        return False
    engine = engine_match(match)
    position = engine.to_play
    if position is None:
        return False
    action = bot_action(engine, match.table, match, position)
    return _timeout_apply(match_id=match_id, version=version, position=position, action=action)


@transaction.atomic
def _timeout_apply(*, match_id: int, version: int, position: int, action: str) -> bool:
    table_id = Match.objects.filter(pk=match_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return False
    try:
        table, match, seats = table_lock_live(table_id=table_id)
    except errors.MatchNotLive:
        return False
    if match.pk != match_id or match.version != version:
        return False
    if match.turn_deadline is None or match.turn_deadline > timezone.now():
        return False
    engine = engine_match(match)
    if engine.to_play != position:
        return False
    if _reconnect_wait(match, seats[position]) or _dead_process_wait(match, seats[position]):
        return False
    _count_timeout(match, seats[position])
    metrics.after_commit(metrics.TIMEOUTS.inc)
    _apply(table, match, seats, engine, action, position, ActionSource.TIMEOUT)
    return True


def _reconnect_wait(match: Match, seat: Seat) -> bool:
    """The seat to play lost its socket to its web process's restart or death (rows
    locked). Within the reconnection grace its turn does not run out: the deadline
    waits for the grace's end, and a page that comes back gets the lost time too
    (`presence._seat_present`). After it, a seat still without a socket is absent (a
    no-show: a bot plays this move and the next), never a player's timed-out turn.
    True when the turn waits."""
    if seat.reconnect_by is None or seat.connections or seat.bot_controlled:
        return False
    now = timezone.now()
    if seat.reconnect_by > now:
        match.turn_deadline = seat.reconnect_by
        match.save(update_fields=["turn_deadline"])
        return True
    seat.absent_since = now
    seat.save(update_fields=["absent_since"])
    metrics.after_commit(metrics.ABSENCES.inc)
    return False


def _dead_process_wait(match: Match, seat: Seat) -> bool:
    """The seat to play counts sockets only on web processes that have missed their
    beat (a kill -9: the sweep counts them off WEB_PROCESS_STALE_SECONDS after the last
    beat, then `_reconnect_wait` takes over). Its page is most likely reconnecting to
    another process: the turn waits until the sweep has had its say, instead of running
    out for a player who could not play. True when the turn waits."""
    if seat.bot_controlled:
        return False
    now = timezone.now()
    silent_since = sockets_silent_since(seat, now)
    if silent_since is None:
        return False
    verdict = silent_since + timedelta(
        seconds=settings.WEB_PROCESS_STALE_SECONDS + settings.TABLE_SWEEP_SECONDS
    )
    if verdict <= now:
        return False  # the sweep should have found it by now: the turn runs out
    match.turn_deadline = verdict
    match.save(update_fields=["turn_deadline"])
    return True


def _count_timeout(match: Match, seat: Seat) -> None:
    """A present player's turn ran out: it counts against their reputation (the match
    seat's `timeouts`), and after ABSENCE_AFTER_TIMEOUTS in a row they count as absent
    (the broadcast of the timed-out move shows it). A turn of a player already away
    (absent, abandoned: a bot plays it) is not theirs to count."""
    if seat.kind != SeatKind.HUMAN or seat.bot_controlled:
        return
    MatchSeat.objects.filter(match=match, position=seat.position).update(timeouts=F("timeouts") + 1)
    seat.timeouts_in_row += 1
    fields = ["timeouts_in_row"]
    if seat.timeouts_in_row >= settings.ABSENCE_AFTER_TIMEOUTS:
        if seat.absent_since is None:
            metrics.after_commit(metrics.ABSENCES.inc)
        seat.absent_since = timezone.now()
        fields.append("absent_since")
    seat.save(update_fields=fields)


def bot_action(engine: EngineMatch, table: Table, match: Match, position: int) -> str:
    """The move the table's bot level makes for `position` (deterministic: seeded by
    the match's seed and version; with no clock where the mode asks for reproducible
    bots). Call it outside any transaction."""
    view = seat_view(engine, position)
    return choose_bot_action(
        view,
        level=table.bot_level,
        seed=hash((match.seed, match.version)) & 0x7FFFFFFF,
        reproducible=mode_policy(table.mode).bots_reproducible,
    )


def _apply(
    table: Table,
    match: Match,
    seats: list[Seat],
    engine: EngineMatch,
    action: Any,
    position: int,
    source: str,
) -> None:
    if not isinstance(action, str):
        raise errors.IllegalAction()
    try:
        new, events = engine.apply(action, seat=position)
    except EngineNotYourTurn:
        raise errors.NotYourTurn() from None
    except EngineError as error:
        raise errors.illegal_action(error) from None
    match.version += 1
    context.match_id.set(match.pk)
    metrics.after_commit(metrics.MOVES.labels(table.mode, source).inc)
    logged = rows.new_action(
        match=match,
        number=match.version,
        hand_no=engine.hand_no,
        seat=position,
        action=action,
        source=source,
        created_at=timezone.now(),
    )
    if new.hand_no != engine.hand_no:
        hand_store(match, new)
    match.hand_no = new.hand_no
    match.score_a, match.score_b = new.scores
    match.to_play = new.to_play
    match.turn_deadline = turn_deadline(new, seats, table=table)
    if new.is_over:
        _finish(table, match, seats, new)
        # The cached record is rewritten only at the end: during play the deals and
        # the action log are the record (games.state rebuilds from them).
        match.record = new.to_dict()
        match.save(update_fields=["status", "winner", "finished_at", "record"])
    # One round trip: the action appended, the match's move columns, the table's seq.
    table.seq += 1
    rows.write_move(table=table, match=match, action=logged)
    cache_put(match.pk, match.version, new)
    table_broadcast(
        table=table,
        seats=seats,
        match=match,
        engine=new,
        events=[e.to_dict() for e in events],
        seq_saved=True,
        locked=True,
    )
    bots_queue(table, seats, new, version=match.version)


def _finish(table: Table, match: Match, seats: list[Seat], engine: EngineMatch) -> None:
    """Results, places, the table closed and the mode's settlement (from the same
    transaction), then `games.signals.match_finished`."""
    match.status = MatchStatus.FINISHED
    match.winner = engine.winner
    match.finished_at = timezone.now()
    match.to_play = None
    match.turn_deadline = None
    points = engine.personal_points()
    tricks = engine.tricks_won()
    _abandon_the_absent(table, match, seats, match.finished_at)
    match_seats = list(MatchSeat.objects.select_for_update().filter(match=match).order_by("pk"))
    abandoned = {ms.position for ms in match_seats if ms.abandoned}
    assert engine.winner is not None  # the match is over
    places = places_for(engine.winner, points, tricks, abandoned)
    for ms in match_seats:
        ms.personal_points = points[ms.position]
        ms.tricks_won = tricks[ms.position]
        ms.place = places[ms.position]
        # An abandoner always counts a loss.
        ms.won = (ms.position % 2 == engine.winner) and not ms.abandoned
    MatchSeat.objects.bulk_update(match_seats, ["personal_points", "tricks_won", "place", "won"])
    table_close(table=table, seats=seats, status=TableStatus.FINISHED)
    policy = mode_policy(table.mode)
    policy.match_settle(table=table, match=match, match_seats=match_seats)
    if policy.rated:
        _seat_ratings_refresh(match, seats)
    abandoned_players = sum(1 for ms in match_seats if ms.abandoned and not ms.is_bot)

    def count() -> None:
        metrics.MATCHES_SETTLED.labels(table.mode).inc()
        if abandoned_players:
            metrics.ABANDONMENTS.labels(table.mode).inc(abandoned_players)

    metrics.after_commit(count)
    signals.match_finished.send(
        sender=Match, match=match, table=table, match_seats=match_seats, engine=engine
    )


def _seat_ratings_refresh(match: Match, seats: list[Seat]) -> None:
    """The badge beside each rated player's name shows their rating after the match
    just settled, as the end panel does (it was the rating when they sat down: a
    newcomer's first match ended with "1500?" beside their name and "1230?" in the
    panel). Read from the match's rating changes: one query, and one update."""
    changes = hooks.match_ratings(match.pk)
    changed = []
    for seat in seats:
        change = changes.get(seat.position)
        if seat.kind == SeatKind.HUMAN and change is not None:
            seat.rating, seat.rating_provisional = change["after"], change["provisional"]
            changed.append(seat)
    if changed:
        Seat.objects.bulk_update(changed, ["rating", "rating_provisional"])


def _abandon_the_absent(table: Table, match: Match, seats: list[Seat], now: Any) -> None:
    """A player still away when the match ends, and for longer than a lost connection
    in its last seconds, has abandoned it: no reward for a match a bot played (the
    mode hears of it as of an abandonment by absence, `seat_abandoned`)."""
    limit = now - timedelta(seconds=settings.ABSENT_AT_END_SECONDS)
    away = [
        s
        for s in seats
        if s.kind == SeatKind.HUMAN
        and not s.abandoned
        and s.absent_since is not None
        and s.absent_since <= limit
    ]
    if away:
        positions = [s.position for s in away]
        for seat in away:
            seat.abandoned = True
        Seat.objects.filter(table_id=match.table_id, position__in=positions).update(abandoned=True)
        MatchSeat.objects.filter(match=match, position__in=positions).update(abandoned=True)
        policy = mode_policy(table.mode)
        for seat in away:
            if seat.user_id is not None:
                policy.seat_abandoned(
                    table=table, match=match, user_id=seat.user_id, left=False, at=now
                )
