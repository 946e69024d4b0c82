"""Presence, absence and abandonment: sockets opening and closing, the web
processes' heartbeat, players who never connected or stayed away too long.
While a seated player is absent a bot plays their seat."""

from __future__ import annotations

import logging
import os
import socket
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone

from accounts.models import User
from games import errors, selectors
from games.fanout import listeners
from games.models import (
    ActionSource,
    Match,
    MatchAction,
    MatchSeat,
    Seat,
    Table,
    TableStatus,
    WebProcess,
)
from games.modes import mode_policy
from games.services.tables import (
    bots_queue,
    seat_of,
    table_broadcast,
    table_lock_all,
    table_lock_live,
    turn_deadline,
)
from games.state import engine_match

logger = logging.getLogger(__name__)


@transaction.atomic
def seat_connect(*, user: User, table_id: int, process: str = listeners.PROCESS_ID) -> Seat | None:
    """A socket of a seated player opened (in web process `process`): they are present
    (and take their seat back)."""
    table, match, seats = table_lock_all(table_id=table_id)
    seat = seat_of(seats, user)
    if seat is None or not seat.live:
        return None
    _seat_present(table, match, seats, seat, process)
    return seat


# process -> when its beat was last committed by this process (time.monotonic()).
_beaten: dict[str, float] = {}


def web_process_beat(*, process: str = listeners.PROCESS_ID, unless_recent: bool = False) -> None:
    """Web process `process` is alive: its row is written (created if missing, with
    this host and pid) with the time of this beat. One statement; `unless_recent`:
    none if this process committed one within WEB_PROCESS_HEARTBEAT_SECONDS (the row
    is then fresh: the sweep deletes only rows silent for WEB_PROCESS_STALE_SECONDS,
    at least twice as long)."""
    now = time.monotonic()
    if unless_recent and now - _beaten.get(process, float("-inf")) < (
        settings.WEB_PROCESS_HEARTBEAT_SECONDS
    ):
        return
    transaction.on_commit(lambda: _beaten.__setitem__(process, now))
    WebProcess.objects.bulk_create(
        [
            WebProcess(
                id=process,
                host=socket.gethostname()[:255],
                pid=os.getpid(),
                heartbeat_at=timezone.now(),
            )
        ],
        update_conflicts=True,
        unique_fields=["id"],
        update_fields=["heartbeat_at"],
    )


def sockets_silent_since(seat: Seat, now: datetime) -> datetime | None:
    """When the web processes holding every socket `seat` counts last beat, if each of
    them has missed its beat since (by half a period: probably dead, as a kill -9 leaves
    it, though the sweep counts its sockets off only after WEB_PROCESS_STALE_SECONDS);
    None while a process that beats holds one. The seat's page is then most likely
    reconnecting to another process: its turn does not run out meanwhile
    (`play._timeout_apply`), and it gets that time back once it is in
    (`_seat_present`)."""
    if not seat.connections or not seat.sockets:
        return None
    missed = now - timedelta(seconds=1.5 * settings.WEB_PROCESS_HEARTBEAT_SECONDS)
    beats = dict(
        WebProcess.objects.filter(pk__in=list(seat.sockets)).values_list("pk", "heartbeat_at")
    )
    if any(beats.get(process) is None or beats[process] >= missed for process in seat.sockets):
        return None  # a process that beats (or one already counted off) holds a socket
    return max(beats.values())


def _seat_present(
    table: Table, match: Match | None, seats: list[Seat], seat: Seat, process: str
) -> None:
    """One more socket on a live seat (rows locked), held by web process `process`:
    present, its absence over."""
    # The sweep knows the process before it counts (in this transaction, whose row
    # locks a concurrent sweep of the seat waits for).
    web_process_beat(process=process, unless_recent=True)
    now = timezone.now()
    # Back from a dead process (its sockets still counted: the sweep has not found it
    # silent yet): as after a restart's close, the time since its last beat is given back.
    silent_since = sockets_silent_since(seat, now) if process not in seat.sockets else None
    seat.connections += 1
    seat.sockets = {**seat.sockets, process: int(seat.sockets.get(process, 0)) + 1}
    was_absent = seat.absent_since is not None
    # Back from a restart's or a dead process's close: the time the page spent
    # reconnecting, given back to its turn (never past a whole turn from now).
    away = None
    if seat.reconnect_by is not None and seat.connections == 1:
        away = now - (
            seat.reconnect_by - timedelta(seconds=settings.PRESENCE_RECONNECT_GRACE_SECONDS)
        )
    elif silent_since is not None:
        away = now - silent_since
    seat.reconnect_by = None
    seat.absent_since = None
    seat.timeouts_in_row = 0
    seat.seen_at = now
    seat.save(
        update_fields=[
            "connections", "sockets", "absent_since", "timeouts_in_row", "seen_at", "reconnect_by"
        ]
    )  # fmt: skip
    if match is None:
        return
    if was_absent:
        engine = engine_match(match)
        if engine.to_play == seat.position:
            match.turn_deadline = turn_deadline(engine, seats)
            match.save(update_fields=["turn_deadline"])
        table_broadcast(table=table, seats=seats, match=match, engine=engine)
    elif away is not None and match.to_play == seat.position and match.turn_deadline is not None:
        longest = timedelta(seconds=max(settings.TURN_SECONDS_BID, settings.TURN_SECONDS_CARD))
        later = min(match.turn_deadline + max(away, timedelta(0)), now + longest)
        if later > match.turn_deadline:
            match.turn_deadline = later
            match.save(update_fields=["turn_deadline"])
            # The others' clocks show the new deadline too.
            table_broadcast(table=table, seats=seats, match=match, engine=engine_match(match))


@dataclass(frozen=True)
class Joined:
    """What a table socket starts from (`table_join`)."""

    frame: dict[str, Any]  # the `state` frame
    position: int | None  # the seat it was built for; None: the spectators'
    seat_id: int | None  # that seat's row
    counted: bool  # the socket counts in the seat's `connections` (seat_disconnect undoes it)
    # Why the user may not watch (selectors.watch_refusal): no frame then.
    refused: str | None = None


@transaction.atomic
def table_join(*, user: User, table_id: int, process: str = listeners.PROCESS_ID) -> Joined | None:
    """A socket of the table opened: under the table's lock, a seated player is present
    again (as `seat_connect`), and the socket's first frame is built for the seat the
    user holds now, from the rows this transaction locked: no seat change or start can
    fall between the two (docs/protocol.md). None when the user may not see the table
    any more (not seated, and not one who may watch it: `selectors.may_watch`); a
    watcher refused by the rules (`selectors.watch_refusal`) gets `refused` and no
    frame. TableNotFound when it is gone."""
    table, match, seats = table_lock_all(table_id=table_id)
    seat = seat_of(seats, user)
    if seat is None and not selectors.may_watch(user=user, table=table):
        return None
    refused = None
    if seat is None:
        # Checked again under the lock: a player forbidding watchers (or a match of
        # the user's own starting) since the socket was admitted is not missed.
        refused = selectors.watch_refusal(user=user, table=table, seats=seats)
        if refused is not None:
            return Joined({}, None, None, False, refused)
    counted = seat is not None and seat.live
    if seat is not None and counted:
        _seat_present(table, match, seats, seat, process)
    shown = match if match is not None else selectors.latest_match(table)
    position = seat.position if seat is not None else None
    frame = selectors.state_frame(table=table, seats=seats, match=shown, position=position)
    return Joined(frame, position, seat.pk if seat is not None else None, counted)


@transaction.atomic
def table_listening(*, table_id: int, process: str, listening: bool) -> None:
    """A web process opened its first socket of the table (or closed its last):
    adds it to (or takes it off) the table's `listeners`, under the table row's
    lock, which every move takes too (games/fanout/listeners.py)."""
    table = Table.objects.select_for_update().filter(pk=table_id).only("listeners").first()
    if table is None:
        return
    wanted = listeners.listed(table.listeners, process, listening)
    if wanted != table.listeners:
        table.listeners = wanted
        table.save(update_fields=["listeners"])


@transaction.atomic
def seat_disconnect(
    *, user: User, table_id: int, restarting: bool = False, process: str = listeners.PROCESS_ID
) -> None:
    """A socket (of web process `process`) closed; with no socket left a bot plays the
    seat until they return.

    `restarting`: the web process closed it for a restart (close code 4500) and the
    page reconnects at once, to another process: the seat is not marked absent, and
    the sweep does not count it a no-show for PRESENCE_RECONNECT_GRACE_SECONDS."""
    table, match, seats = table_lock_all(table_id=table_id)
    seat = seat_of(seats, user)
    if seat is None or not seat.live:
        return
    left = _count_off(seat, process, 1)
    if restarting and left == 0:
        _reconnecting(seat)
        return
    _set_connections(table, match, seats, seat, left)


def _count_off(seat: Seat, process: str, sockets: int) -> int:
    """`sockets` of process `process` stop counting on `seat` (row locked; not saved):
    its new `sockets` map, and what `connections` becomes. A count from before the
    processes were recorded (not in the map) is counted down as it was."""
    held = int(seat.sockets.get(process, 0))
    taken = min(held, sockets)
    # Counted before `sockets` named the processes: what the map does not account for.
    unnamed = max(0, seat.connections - sum(int(n) for n in seat.sockets.values()))
    rest = {key: count for key, count in seat.sockets.items() if key != process}
    if held > taken:
        rest[process] = held - taken
    seat.sockets = rest
    return max(0, seat.connections - taken - min(sockets - taken, unnamed))


def _reconnecting(seat: Seat) -> None:
    """The seat's last socket was closed by its process's restart or death (row
    locked): counted off without an absence, and no no-show for
    PRESENCE_RECONNECT_GRACE_SECONDS while the page reconnects to another process."""
    seat.connections = 0
    seat.reconnect_by = timezone.now() + timedelta(
        seconds=settings.PRESENCE_RECONNECT_GRACE_SECONDS
    )
    seat.save(update_fields=["connections", "sockets", "reconnect_by"])


@transaction.atomic
def seat_process_gone(
    *, table_id: int, position: int, process: str, stale_before: datetime | None = None
) -> bool:
    """The sockets web process `process` held on this seat stop counting: it stopped
    beating (the sweep: only if its heartbeat is still older than `stale_before`, read
    with the seat's row locked, so a process that beat or counted a socket meanwhile
    keeps its count) or it is leaving (its graceful exit: None). A seat left with
    none is counted off as by a restart's close (`_reconnecting`): its page has had
    the time to reconnect elsewhere, and if it has not within the grace, the sweep
    marks it a no-show (absent, a bot plays). False when nothing was counted off."""
    # The locks in the order every move takes them.
    _table, match, seats = table_lock_all(table_id=table_id)
    seat = seats[position]
    held = int(seat.sockets.get(process, 0))
    if not held:
        return False
    last_beat = None
    if stale_before is not None:
        last_beat = (
            WebProcess.objects.filter(pk=process).values_list("heartbeat_at", flat=True).first()
        )
        if last_beat is not None and last_beat >= stale_before:
            return False
    left = _count_off(seat, process, held)
    if left == 0 and match is not None and last_beat is not None and seat.timeouts_in_row:
        # It died at its last beat: turns that ran out since, ran out for a player
        # whose page was reconnecting, not for one who let them.
        _forgive_timeouts_since(match, seat, last_beat)
    logger.warning(
        "seat %s/%s: %s socket(s) of web process %s counted off (%s)",
        table_id,
        position,
        held,
        process,
        "it stopped beating" if stale_before is not None else "it is leaving",
    )
    if left == 0 and seat.live:
        _reconnecting(seat)
    else:
        seat.connections = left
        seat.save(update_fields=["connections", "sockets"])
    return True


def web_process_left(*, process: str = listeners.PROCESS_ID) -> int:
    """Web process `process` exits (its graceful restart, once its sockets have
    closed): whatever it still counted on seats is counted off, then its row goes.
    Returns the seats changed."""
    changed = 0
    for table_id, position in list(
        Seat.objects.filter(sockets__has_key=process).values_list("table_id", "position")
    ):
        changed += seat_process_gone(table_id=table_id, position=position, process=process)
    if not Seat.objects.filter(sockets__has_key=process).exists():
        WebProcess.objects.filter(pk=process).delete()
        _beaten.pop(process, None)  # a socket counted after this writes the row again
    return changed


def _set_connections(
    table: Table, match: Match | None, seats: list[Seat], seat: Seat, connections: int
) -> None:
    """Stores a seat's socket count; at none during play, a bot takes the seat over
    (where the mode has bots stand in for the absent)."""
    seat.connections = connections
    if seat.connections == 0:
        seat.sockets = {}
    if (
        seat.connections == 0
        and table.status == TableStatus.PLAYING
        and mode_policy(table.mode).bots_stand_in
    ):
        seat.absent_since = timezone.now()
    seat.save(update_fields=["connections", "sockets", "absent_since"])
    if match is not None and seat.absent_since is not None:
        _seat_changed_in_play(table=table, match=match, seats=seats, seat=seat)


def seats_heard(*, seat_ids: list[int]) -> int:
    """The heartbeat of a web process: its sockets on these seats are alive.

    Seats locked by a move right now are skipped (never waited for, so the
    heartbeat cannot deadlock with a move); the next beat refreshes them. (The
    process's own row has a quicker beat: `web_process_beat`.)
    """
    if not seat_ids:
        return 0
    with transaction.atomic():
        free = list(
            Seat.objects.select_for_update(skip_locked=True)
            .filter(pk__in=seat_ids, connections__gt=0)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        return Seat.objects.filter(pk__in=free).update(seen_at=timezone.now())


@transaction.atomic
def seat_presence_lost(*, table_id: int, position: int) -> bool:
    """No process has vouched for this seat's sockets lately (the one serving them
    died): the seat counts as disconnected, exactly as when its last socket closes.
    Absence runs from now, so a site that was down does not abandon its players."""
    table, match, seats = table_lock_all(table_id=table_id)
    seat = seats[position]
    limit = timezone.now() - timedelta(seconds=settings.PRESENCE_STALE_SECONDS)
    if not seat.live or seat.connections == 0 or seat.seen_at > limit:
        return False
    logger.warning(
        "seat %s/%s: %s socket(s) not heard from since %s, counted as gone",
        table_id,
        position,
        seat.connections,
        seat.seen_at.isoformat(),
    )
    if match is not None and seat.timeouts_in_row:
        _forgive_timeouts_since(match, seat, seat.seen_at)
    _set_connections(table, match, seats, seat, 0)
    return True


def _forgive_timeouts_since(match: Match, seat: Seat, since: Any) -> None:
    """The seat's connection was lost at `since` without its socket closing: the turns
    that ran out since then ran out for a player already gone (as for one whose socket
    closed, whose turns the bot plays), so they are taken off their timed-out turns.
    Those turns are the last of `timeouts_in_row` (nobody acted for the seat since)."""
    lost = MatchAction.objects.filter(
        match=match, seat=seat.position, source=ActionSource.TIMEOUT, created_at__gt=since
    ).count()
    forgiven = min(lost, seat.timeouts_in_row)
    if forgiven:
        MatchSeat.objects.filter(match=match, position=seat.position).update(
            timeouts=Greatest(F("timeouts") - forgiven, 0)
        )


@transaction.atomic
def seat_mark_no_show(*, table_id: int, position: int) -> bool:
    """A seated player who has not connected within ABSENCE_CONNECT_GRACE_SECONDS of
    the match's start counts as absent: a bot plays the seat at once, everyone sees it."""
    try:
        table, match, seats = table_lock_live(table_id=table_id)
    except errors.MatchNotLive:
        return False
    seat = seats[position]
    grace_over = match.started_at <= timezone.now() - timedelta(
        seconds=settings.ABSENCE_CONNECT_GRACE_SECONDS
    )
    if not grace_over or not seat.live or seat.connections or seat.bot_controlled:
        return False
    if not mode_policy(table.mode).bots_stand_in:
        return False
    seat.absent_since = timezone.now()
    seat.save(update_fields=["absent_since"])
    _seat_changed_in_play(table=table, match=match, seats=seats, seat=seat)
    return True


def seat_abandon_locked(
    *, table: Table, match: Match, seats: list[Seat], seat: Seat, left: bool = True
) -> None:
    """`seat`'s player abandons the match in play (table, match and seats locked):
    a bot plays the seat to the end and the player counts a loss. `left`: they chose
    to leave (False: they were away too long). The mode hears of it
    (`seat_abandoned`: the waits of online play, docs/fairplay.md)."""
    seat.abandoned = True
    seat.live = False
    seat.save(update_fields=["abandoned", "live"])
    MatchSeat.objects.filter(match=match, position=seat.position).update(abandoned=True)
    if seat.user_id is not None:
        mode_policy(table.mode).seat_abandoned(
            table=table, match=match, user_id=seat.user_id, left=left, at=timezone.now()
        )
    _seat_changed_in_play(
        table=table,
        match=match,
        seats=seats,
        seat=seat,
        events=[{"type": "seat_abandoned", "seat": seat.position}],
    )


@transaction.atomic
def seat_abandon_absent(*, table_id: int, position: int) -> bool:
    """A player absent for longer than the limit has abandoned."""
    try:
        table, match, seats = table_lock_live(table_id=table_id)
    except errors.MatchNotLive:
        return False
    seat = seats[position]
    limit = timezone.now() - timedelta(seconds=settings.ABANDON_AFTER_SECONDS)
    if seat.abandoned or seat.absent_since is None or seat.absent_since > limit:
        return False
    seat_abandon_locked(table=table, match=match, seats=seats, seat=seat, left=False)
    return True


def _seat_changed_in_play(
    *,
    table: Table,
    match: Match,
    seats: list[Seat],
    seat: Seat,
    events: list[dict[str, Any]] | None = None,
) -> None:
    """A seat in play became absent or was abandoned (rows locked): if it is its turn,
    the deadline is set anew (a bot now plays it), everyone is told, bots are queued."""
    engine = engine_match(match)
    if engine.to_play == seat.position:
        match.turn_deadline = turn_deadline(engine, seats)
        match.save(update_fields=["turn_deadline"])
    table_broadcast(table=table, seats=seats, match=match, engine=engine, events=events)
    bots_queue(table, seats, engine, version=match.version)
