"""Every change to tables, seats, invitations and matches.

One transaction per function. Lock order, always: the table row, then its
match row, then its seats ordered by primary key. Broadcasts and bot moves are
queued with `transaction.on_commit`, so nobody ever sees uncommitted state.
"""

from __future__ import annotations

import logging
import random
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from games import broadcast, errors, hooks, rows, selectors, signals
from games.bot_adapter import choose_bot_action
from games.engine import EngineError, seat_view
from games.engine import Match as EngineMatch
from games.engine import NotYourTurn as EngineNotYourTurn
from games.models import (
    ActionSource,
    BotLevel,
    GameHand,
    Invitation,
    InvitationStatus,
    Match,
    MatchAction,
    MatchSeat,
    MatchStatus,
    Mode,
    RuleSetName,
    Seat,
    SeatKind,
    Table,
    TableStatus,
)
from games.state import cache_put, engine_match

logger = logging.getLogger(__name__)

SEATS = range(4)


# --- locking and loading ------------------------------------------------------


def _lock_table(table_id: int) -> Table:
    table = rows.lock_table(table_id)
    if table is None:
        raise errors.TableNotFound()
    return table


def _lock_match(table: Table) -> Match | None:
    return rows.lock_playing_match(table.pk)


def _lock_seats(table: Table) -> list[Seat]:
    return rows.lock_seats(table.pk)


def _seat_of(seats: list[Seat], user: User) -> Seat | None:
    return next((s for s in seats if s.user_id == user.pk), None)


def _latest_match(table: Table) -> Match | None:
    return Match.objects.filter(table=table).order_by("-pk").first()


def _broadcast(
    table: Table,
    seats: list[Seat],
    match: Match | None,
    engine: EngineMatch | None,
    events: list[dict[str, Any]] | None = None,
    *,
    seq_saved: bool = False,
) -> None:
    """Bumps the table's sequence number (unless the caller stored it already) and
    sends every seat its view after commit."""
    if not seq_saved:
        table.seq += 1
        Table.objects.filter(pk=table.pk).update(seq=table.seq)
    if match is None and engine is None:
        match = _latest_match(table)
        engine = engine_match(match) if match is not None else None
    # A finished match's places and rewards, read inside this transaction (which may
    # have just paid them).
    outcome = selectors.match_outcome(match)
    payload = {"table": table, "seats": seats, "match": match, "engine": engine, "outcome": outcome}
    transaction.on_commit(lambda: broadcast.send_table_frames(**payload, events=list(events or [])))


def _notify(user_id: int, what: str) -> None:
    transaction.on_commit(lambda: broadcast.notify_user(user_id, what))


def _take_live_seat(seat: Seat, user: User) -> None:
    """Seats `user`; the partial unique index refuses a second live table."""
    seat.kind = SeatKind.HUMAN
    seat.user = user
    seat.live = True
    seat.connections = 0
    seat.absent_since = None
    seat.abandoned = False
    seat.reliability = hooks.seat_reliability(user.pk)
    seat.timeouts_in_row = 0
    try:
        with transaction.atomic():
            seat.save()
    except IntegrityError:
        raise errors.AlreadyAtTable() from None


def _check_choice(value: str, choices: Any) -> str:
    if value not in choices.values:
        raise errors.InvalidChoice()
    return value


# --- tables and rooms ---------------------------------------------------------


@transaction.atomic
def table_create_practice(*, user: User, rules: str, bot_level: str) -> Table:
    """You and three bots; the match starts at once."""
    _check_choice(rules, RuleSetName)
    _check_choice(bot_level, BotLevel)
    table = Table.objects.create(
        mode=Mode.PRACTICE,
        rules=rules,
        bot_level=bot_level,
        owner=user,
        status=TableStatus.OPEN,
    )
    seats = [Seat(table=table, position=p, kind=SeatKind.BOT) for p in SEATS]
    Seat.objects.bulk_create(seats[1:])
    _take_live_seat(seats[0], user)
    _start(table, _lock_seats(table), seed=None)
    return table


@transaction.atomic
def table_create_friends(*, user: User, rules: str = RuleSetName.ONLINE) -> Table:
    """A private room with its creator in seat 0 and three empty seats."""
    _check_choice(rules, RuleSetName)
    table = Table.objects.create(mode=Mode.FRIENDS, rules=rules, owner=user)
    seats = [Seat(table=table, position=p) for p in SEATS]
    Seat.objects.bulk_create(seats[1:])
    _take_live_seat(seats[0], user)
    return table


@transaction.atomic
def table_configure(
    *, user: User, table_id: int, rules: str | None = None, bot_level: str | None = None
) -> Table:
    table = _lock_table(table_id)
    if table.owner_id != user.pk:
        raise errors.NotOwner()
    if table.status != TableStatus.OPEN:
        raise errors.TableNotOpen()
    if rules is not None:
        table.rules = _check_choice(rules, RuleSetName)
    if bot_level is not None:
        table.bot_level = _check_choice(bot_level, BotLevel)
    table.save(update_fields=["rules", "bot_level"])
    _broadcast(table, _lock_seats(table), None, None)
    return table


def _open_room_for_owner(table_id: int, user: User) -> tuple[Table, list[Seat]]:
    table = _lock_table(table_id)
    if table.owner_id != user.pk:
        raise errors.NotOwner()
    if table.status != TableStatus.OPEN or table.mode != Mode.FRIENDS:
        raise errors.TableNotOpen()
    return table, _lock_seats(table)


@transaction.atomic
def invitation_create(*, user: User, table_id: int, username: str) -> Invitation:
    """Invites an active user by username (any letter case) to an open room."""
    table, seats = _open_room_for_owner(table_id, user)
    username = (username or "").strip()
    invitee = User.objects.filter(username__iexact=username, is_active=True).first()
    if invitee is None or not username:
        raise errors.UnknownUser()
    if invitee.pk == user.pk:
        raise errors.InvalidInvitation(gettext_lazy("You are already in your own room."))
    if _seat_of(seats, invitee) is not None:
        raise errors.InvalidInvitation(gettext_lazy("That player is already seated here."))
    if not any(s.kind == SeatKind.EMPTY for s in seats):
        raise errors.InvalidInvitation(gettext_lazy("There is no empty seat left."))
    existing = Invitation.objects.filter(
        table=table, to_user=invitee, status=InvitationStatus.PENDING
    ).first()
    if existing is not None:
        raise errors.InvalidInvitation(gettext_lazy("That player has already been invited."))
    invitation = Invitation.objects.create(table=table, from_user=user, to_user=invitee)
    _notify(invitee.pk, "invitations")
    _broadcast(table, seats, None, None)
    return invitation


def _lock_invitation(invitation_id: int, user: User) -> tuple[Invitation, Table]:
    try:
        table_id = Invitation.objects.values_list("table_id", flat=True).get(
            pk=invitation_id, to_user=user
        )
    except (Invitation.DoesNotExist, ValueError, TypeError):
        raise errors.InvitationNotFound() from None
    table = _lock_table(table_id)
    invitation = Invitation.objects.select_for_update().get(pk=invitation_id)
    if invitation.status != InvitationStatus.PENDING:
        raise errors.InvitationNotFound()
    return invitation, table


@transaction.atomic
def invitation_accept(*, user: User, invitation_id: int) -> Table:
    """Takes the first empty seat of the room (the creator may move people later)."""
    invitation, table = _lock_invitation(invitation_id, user)
    seats = _lock_seats(table)
    if table.status != TableStatus.OPEN:
        invitation.status = InvitationStatus.CANCELLED
        invitation.save(update_fields=["status"])
        raise errors.TableNotOpen()
    empty = next((s for s in seats if s.kind == SeatKind.EMPTY), None)
    if empty is None:
        raise errors.InvalidInvitation(gettext_lazy("There is no empty seat left."))
    _take_live_seat(empty, user)
    invitation.status = InvitationStatus.ACCEPTED
    invitation.save(update_fields=["status"])
    _notify(user.pk, "invitations")
    _broadcast(table, seats, None, None)
    return table


@transaction.atomic
def invitation_decline(*, user: User, invitation_id: int) -> None:
    invitation, table = _lock_invitation(invitation_id, user)
    invitation.status = InvitationStatus.DECLINED
    invitation.save(update_fields=["status"])
    _notify(user.pk, "invitations")
    _broadcast(table, _lock_seats(table), None, None)


@transaction.atomic
def seat_set_bot(*, user: User, table_id: int, position: int, bot: bool) -> None:
    """The creator gives an empty seat to a bot (bot=True) or empties a bot's seat."""
    table, seats = _open_room_for_owner(table_id, user)
    seat = _position(seats, position)
    if bot and seat.kind == SeatKind.EMPTY:
        seat.kind = SeatKind.BOT
    elif not bot and seat.kind == SeatKind.BOT:
        seat.kind = SeatKind.EMPTY
    else:
        raise errors.InvalidSeat()
    seat.save(update_fields=["kind"])
    _broadcast(table, seats, None, None)


def _position(seats: list[Seat], position: Any) -> Seat:
    try:
        index = int(position)
    except (TypeError, ValueError):
        raise errors.InvalidSeat() from None
    if not 0 <= index < len(seats):
        raise errors.InvalidSeat()
    return seats[index]


@transaction.atomic
def seat_swap(*, user: User, table_id: int, first: int, second: int) -> None:
    """The creator arranges who partners whom: two seats exchange their occupants."""
    table, seats = _open_room_for_owner(table_id, user)
    a, b = _position(seats, first), _position(seats, second)
    if a.position == b.position:
        raise errors.InvalidSeat()
    fields = ("kind", "user_id", "live", "connections", "absent_since", "abandoned")
    values_a = {f: getattr(a, f) for f in fields}
    values_b = {f: getattr(b, f) for f in fields}
    # Clear one seat first so the one-live-seat index never sees the user twice.
    Seat.objects.filter(pk=a.pk).update(kind=SeatKind.EMPTY, user=None, live=False)
    Seat.objects.filter(pk=b.pk).update(**values_a)
    Seat.objects.filter(pk=a.pk).update(**values_b)
    seats = _lock_seats(table)
    _broadcast(table, seats, None, None)


@transaction.atomic
def seat_leave(*, user: User, table_id: int) -> None:
    """Leaving an open room frees the seat (the creator leaving closes it);
    leaving a match in play abandons it."""
    table = _lock_table(table_id)
    match = _lock_match(table)
    seats = _lock_seats(table)
    seat = _seat_of(seats, user)
    if seat is None or not seat.live:
        raise errors.NotSeated()
    if table.status == TableStatus.PLAYING and match is not None:
        _abandon(table, match, seats, seat)
        return
    if table.mode == Mode.STAKE:
        from online.services import stake_seat_leave_locked  # refunds the stake

        stake_seat_leave_locked(table=table, seats=seats, seat=seat)
        return
    if table.owner_id == user.pk:
        _cancel_room(table, seats)
        return
    seat.kind, seat.user, seat.live = SeatKind.EMPTY, None, False
    seat.save(update_fields=["kind", "user", "live"])
    _broadcast(table, seats, None, None)


def _cancel_room(table: Table, seats: list[Seat]) -> None:
    table.status = TableStatus.CANCELLED
    table.save(update_fields=["status"])
    Seat.objects.filter(table=table).update(live=False)
    for seat in seats:
        seat.live = False
    pending = Invitation.objects.filter(table=table, status=InvitationStatus.PENDING)
    for to_user_id in pending.values_list("to_user_id", flat=True):
        _notify(to_user_id, "invitations")
    pending.update(status=InvitationStatus.CANCELLED)
    _broadcast(table, seats, None, None)


# --- starting, playing, finishing ---------------------------------------------


@transaction.atomic
def match_start(*, user: User, table_id: int, seed: int | None = None) -> Match:
    """The creator starts the match once every seat has a player or a bot."""
    table, seats = _open_room_for_owner(table_id, user)
    if any(s.kind == SeatKind.EMPTY for s in seats):
        raise errors.TableNotReady()
    return _start(table, seats, seed=seed)


def _start(table: Table, seats: list[Seat], *, seed: int | None) -> Match:
    if seed is None:
        seed = random.SystemRandom().randrange(2**62)
    engine = EngineMatch.new(table.rules, seed=seed)
    match = Match.objects.create(
        table=table,
        rules=table.rules,
        seed=seed,
        first_dealer=engine.first_dealer,
        record=engine.to_dict(),
        to_play=engine.to_play,
    )
    _store_hand(match, engine)
    MatchSeat.objects.bulk_create(
        [
            MatchSeat(match=match, position=s.position, user=s.user, is_bot=s.kind == SeatKind.BOT)
            for s in seats
        ]
    )
    table.status = TableStatus.PLAYING
    table.save(update_fields=["status"])
    Invitation.objects.filter(table=table, status=InvitationStatus.PENDING).update(
        status=InvitationStatus.CANCELLED
    )
    match.turn_deadline = _deadline(engine, seats)
    match.save(update_fields=["turn_deadline"])
    cache_put(match.pk, match.version, engine)
    _broadcast(table, seats, match, engine, [{"type": "match_started", "match": match.pk}])
    _queue_bots(table, seats, engine)
    return match


def _store_hand(match: Match, engine: EngineMatch) -> None:
    record = engine.to_dict()["hands"][-1]
    GameHand.objects.create(
        match=match,
        number=engine.hand_no,
        dealer=record["dealer"],
        deal=record["deal"],
        trump=record["trump"],
        scores_before=record["scores"],
    )


def _deadline(engine: EngineMatch, seats: list[Seat]) -> Any:
    if engine.is_over or engine.to_play is None:
        return None
    now = timezone.now()
    if seats[engine.to_play].bot_controlled:
        # A safety net only: the bot runner normally moves long before this.
        seconds = settings.BOT_MOVE_PAUSE_SECONDS + settings.BOT_SAFETY_SECONDS
    elif engine.phase == "bidding":
        seconds = settings.TURN_SECONDS_BID
    else:
        seconds = settings.TURN_SECONDS_CARD
    return now + timedelta(seconds=seconds)


def _queue_bots(table: Table, seats: list[Seat], engine: EngineMatch) -> None:
    if engine.is_over or engine.to_play is None or not seats[engine.to_play].bot_controlled:
        return
    from games import bot_runner

    table_id = table.pk
    transaction.on_commit(lambda: bot_runner.schedule(table_id))


def _live_match(table_id: int) -> tuple[Table, Match, list[Seat]]:
    table, match, seats = rows.lock_live(table_id)
    if table is None:
        raise errors.TableNotFound()
    if match is None or table.status != TableStatus.PLAYING:
        raise errors.MatchNotLive()
    return table, match, seats


def _check_version(match: Match, version: Any) -> None:
    if isinstance(version, bool) or not isinstance(version, int) or version != match.version:
        raise errors.StaleVersion()


@transaction.atomic
def match_play(*, user: User, table_id: int, action: str, version: int) -> Match:
    """A seated player's bid or card, for their own seat, at the version they saw."""
    table, match, seats = _live_match(table_id)
    seat = _seat_of(seats, user)
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
    table, match, seats = _live_match(table_id)
    if match.version != version:
        return False
    engine = engine_match(match)
    if engine.to_play != position or not seats[position].bot_controlled:
        return False
    _apply(table, match, seats, engine, action, position, ActionSource.BOT)
    return True


@transaction.atomic
def match_timeout(*, match_id: int, version: int) -> bool:
    """The turn at `version` ran out: a bot plays that move for the seat."""
    table_id = Match.objects.filter(pk=match_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return False
    try:
        table, match, seats = _live_match(table_id)
    except errors.MatchNotLive:
        return False
    if match.pk != match_id or match.version != version:
        return False
    if match.turn_deadline is None or match.turn_deadline > timezone.now():
        return False
    engine = engine_match(match)
    position = engine.to_play
    _count_timeout(seats[position])
    action = bot_action(engine, table, match, position)
    _apply(table, match, seats, engine, action, position, ActionSource.TIMEOUT)
    return True


def _count_timeout(seat: Seat) -> None:
    """A present player's turn ran out: after ABSENCE_AFTER_TIMEOUTS in a row they
    count as absent (the broadcast of the timed-out move shows it)."""
    if seat.kind != SeatKind.HUMAN or seat.bot_controlled:
        return
    seat.timeouts_in_row += 1
    fields = ["timeouts_in_row"]
    if seat.timeouts_in_row >= settings.ABSENCE_AFTER_TIMEOUTS:
        seat.absent_since = timezone.now()
        fields.append("absent_since")
    seat.save(update_fields=fields)


def bot_action(engine: EngineMatch, table: Table, match: Match, position: int) -> str:
    view = seat_view(engine, position)
    return choose_bot_action(
        view, level=table.bot_level, seed=hash((match.seed, match.version)) & 0x7FFFFFFF
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
    logged = MatchAction(
        match=match,
        number=match.version,
        hand_no=engine.hand_no,
        seat=position,
        action=action,
        source=source,
        created_at=timezone.now(),
    )
    if new.hand_no != engine.hand_no:
        _store_hand(match, new)
    match.hand_no = new.hand_no
    match.score_a, match.score_b = new.scores
    match.to_play = new.to_play
    match.turn_deadline = _deadline(new, seats)
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
    _broadcast(table, seats, match, new, [e.to_dict() for e in events], seq_saved=True)
    _queue_bots(table, seats, new)


def _finish(table: Table, match: Match, seats: list[Seat], engine: EngineMatch) -> None:
    """Results, places, the table closed and the rewards (from the same transaction)."""
    match.status = MatchStatus.FINISHED
    match.winner = engine.winner
    match.finished_at = timezone.now()
    match.to_play = None
    match.turn_deadline = None
    points = engine.personal_points()
    tricks = engine.tricks_won()
    _abandon_the_absent(match, seats, match.finished_at)
    match_seats = list(MatchSeat.objects.select_for_update().filter(match=match).order_by("pk"))
    abandoned = {ms.position for ms in match_seats if ms.abandoned}
    places = places_for(engine.winner, points, tricks, abandoned)
    for ms in match_seats:
        ms.personal_points = points[ms.position]
        ms.tricks_won = tricks[ms.position]
        ms.place = places[ms.position]
        # An abandoner always counts a loss.
        ms.won = (ms.position % 2 == engine.winner) and not ms.abandoned
    MatchSeat.objects.bulk_update(match_seats, ["personal_points", "tricks_won", "place", "won"])
    table.status = TableStatus.FINISHED
    table.save(update_fields=["status"])
    Seat.objects.filter(table=table).update(live=False)
    for seat in seats:
        seat.live = False
    match_rewards(table=table, match=match, match_seats=match_seats)
    signals.match_finished.send(
        sender=Match, match=match, table=table, match_seats=match_seats, engine=engine
    )


def _abandon_the_absent(match: Match, seats: list[Seat], now: Any) -> None:
    """A player still away when the match ends, and for longer than a lost connection
    in its last seconds, has abandoned it: no reward for a match a bot played."""
    limit = now - timedelta(seconds=settings.ABSENT_AT_END_SECONDS)
    away = [
        s.position
        for s in seats
        if s.kind == SeatKind.HUMAN and s.absent_since is not None and s.absent_since <= limit
    ]
    if away:
        for seat in seats:
            seat.abandoned = seat.abandoned or seat.position in away
        Seat.objects.filter(table_id=match.table_id, position__in=away).update(abandoned=True)
        MatchSeat.objects.filter(match=match, position__in=away).update(abandoned=True)


def places_for(
    winner: int,
    points: tuple[int, ...],
    tricks: tuple[int, ...],
    abandoned: set[int] | frozenset[int] = frozenset(),
) -> list[int]:
    """Places 1–2 the winning pair, 3–4 the others; inside a pair a player who stayed
    before one who abandoned (who lost whatever the pair did), then more personal
    points first, then more tricks, then the lower seat."""
    places = [0, 0, 0, 0]
    for offset, pair in ((1, winner), (3, 1 - winner)):
        members = sorted(
            (pair, pair + 2), key=lambda s: (s in abandoned, -points[s], -tricks[s], s)
        )
        places[members[0]], places[members[1]] = offset, offset + 1
    return places


def match_rewards(*, table: Table, match: Match, match_seats: list[MatchSeat]) -> None:
    """Pays the match through the economy, inside this transaction (idempotent per
    match): practice pays nothing, friends the winning pair at half rate; bots and
    abandoners get nothing (the economy's `match_reward` applies those rules)."""
    if table.mode in (Mode.ONLINE, Mode.STAKE):
        from online.services import match_settle  # places, pot and league points

        match_settle(table=table, match=match, match_seats=match_seats)
        return
    from economy.services import Placement, match_reward

    placements = [
        Placement(user=ms.user, place=ms.place, abandoned=ms.abandoned)
        for ms in match_seats
        if ms.place is not None
    ]
    match_reward(match_id=match.pk, mode=table.mode, placements=placements, now=match.finished_at)


def user_remove_from_tables(*, user: User) -> None:
    """A banned user leaves their live table: a bot takes the seat (or the room closes)."""
    seat = Seat.objects.filter(user=user, live=True).first()
    if seat is None:
        return
    try:
        seat_leave(user=user, table_id=seat.table_id)
    except errors.GameError:
        logger.warning("could not remove banned user %s from table %s", user.pk, seat.table_id)


# --- presence, absence and abandonment ----------------------------------------


@transaction.atomic
def seat_connect(*, user: User, table_id: int) -> Seat | None:
    """A socket of a seated player opened: they are present (and take their seat back)."""
    table = _lock_table(table_id)
    match = _lock_match(table)
    seats = _lock_seats(table)
    seat = _seat_of(seats, user)
    if seat is None or not seat.live:
        return None
    seat.connections += 1
    was_absent = seat.absent_since is not None
    seat.absent_since = None
    seat.timeouts_in_row = 0
    seat.seen_at = timezone.now()
    seat.save(update_fields=["connections", "absent_since", "timeouts_in_row", "seen_at"])
    if match is not None and was_absent:
        engine = engine_match(match)
        if engine.to_play == seat.position:
            match.turn_deadline = _deadline(engine, seats)
            match.save(update_fields=["turn_deadline"])
        _broadcast(table, seats, match, engine)
    return seat


@transaction.atomic
def seat_disconnect(*, user: User, table_id: int) -> None:
    """A socket closed; with no socket left a bot plays the seat until they return."""
    table = _lock_table(table_id)
    match = _lock_match(table)
    seats = _lock_seats(table)
    seat = _seat_of(seats, user)
    if seat is None or not seat.live:
        return
    _set_connections(table, match, seats, seat, max(0, seat.connections - 1))


def _set_connections(
    table: Table, match: Match | None, seats: list[Seat], seat: Seat, connections: int
) -> None:
    """Stores a seat's socket count; at none during play, a bot takes the seat over."""
    seat.connections = connections
    if seat.connections == 0 and table.status == TableStatus.PLAYING:
        seat.absent_since = timezone.now()
    seat.save(update_fields=["connections", "absent_since"])
    if match is not None and seat.absent_since is not None:
        engine = engine_match(match)
        if engine.to_play == seat.position:
            match.turn_deadline = _deadline(engine, seats)
            match.save(update_fields=["turn_deadline"])
        _broadcast(table, seats, match, engine)
        _queue_bots(table, seats, engine)


def seats_heard(*, seat_ids: list[int]) -> int:
    """The heartbeat of a web process: its sockets on these seats are alive.

    Seats locked by a move right now are skipped (never waited for, so the
    heartbeat cannot deadlock with a move); the next beat refreshes them.
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
    table = _lock_table(table_id)
    match = _lock_match(table)
    seats = _lock_seats(table)
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
    _set_connections(table, match, seats, seat, 0)
    return True


@transaction.atomic
def seat_mark_no_show(*, table_id: int, position: int) -> bool:
    """A seated player who has not connected within ABSENCE_CONNECT_GRACE_SECONDS of
    the match's start counts as absent: a bot plays the seat at once, everyone sees it."""
    try:
        table, match, seats = _live_match(table_id)
    except errors.MatchNotLive:
        return False
    seat = seats[position]
    grace_over = match.started_at <= timezone.now() - timedelta(
        seconds=settings.ABSENCE_CONNECT_GRACE_SECONDS
    )
    if not grace_over or not seat.live or seat.connections or seat.bot_controlled:
        return False
    seat.absent_since = timezone.now()
    seat.save(update_fields=["absent_since"])
    engine = engine_match(match)
    if engine.to_play == seat.position:
        match.turn_deadline = _deadline(engine, seats)
        match.save(update_fields=["turn_deadline"])
    _broadcast(table, seats, match, engine)
    _queue_bots(table, seats, engine)
    return True


def _abandon(table: Table, match: Match, seats: list[Seat], seat: Seat) -> None:
    seat.abandoned = True
    seat.live = False
    seat.save(update_fields=["abandoned", "live"])
    MatchSeat.objects.filter(match=match, position=seat.position).update(abandoned=True)
    engine = engine_match(match)
    if engine.to_play == seat.position:
        match.turn_deadline = _deadline(engine, seats)
        match.save(update_fields=["turn_deadline"])
    _broadcast(table, seats, match, engine, [{"type": "seat_abandoned", "seat": seat.position}])
    _queue_bots(table, seats, engine)


@transaction.atomic
def seat_abandon_absent(*, table_id: int, position: int) -> bool:
    """A player absent for longer than the limit has abandoned."""
    try:
        table, match, seats = _live_match(table_id)
    except errors.MatchNotLive:
        return False
    seat = seats[position]
    limit = timezone.now() - timedelta(seconds=settings.ABANDON_AFTER_SECONDS)
    if seat.abandoned or seat.absent_since is None or seat.absent_since > limit:
        return False
    _abandon(table, match, seats, seat)
    return True


def tables_sweep() -> dict[str, int]:
    """The periodic safety net: expired turns, sockets of dead processes, seats nobody
    opened, and long absences (each its own transaction)."""
    now = timezone.now()
    done = {"timeouts": 0, "presence_lost": 0, "no_shows": 0, "abandoned": 0}
    due = Match.objects.filter(status=MatchStatus.PLAYING, turn_deadline__lte=now).values_list(
        "pk", "version"
    )
    for match_id, version in list(due[:500]):
        if match_timeout(match_id=match_id, version=version):
            done["timeouts"] += 1
    stale = Seat.objects.filter(
        live=True,
        connections__gt=0,
        seen_at__lte=now - timedelta(seconds=settings.PRESENCE_STALE_SECONDS),
    ).values_list("table_id", "position")
    for table_id, position in list(stale[:500]):
        if seat_presence_lost(table_id=table_id, position=position):
            done["presence_lost"] += 1
    no_shows = Seat.objects.filter(
        table__status=TableStatus.PLAYING,
        table__matches__status=MatchStatus.PLAYING,
        table__matches__started_at__lte=now
        - timedelta(seconds=settings.ABSENCE_CONNECT_GRACE_SECONDS),
        kind=SeatKind.HUMAN,
        live=True,
        connections=0,
        absent_since__isnull=True,
    ).values_list("table_id", "position")
    for table_id, position in list(no_shows[:500]):
        if seat_mark_no_show(table_id=table_id, position=position):
            done["no_shows"] += 1
    limit = now - timedelta(seconds=settings.ABANDON_AFTER_SECONDS)
    absent = Seat.objects.filter(
        table__status=TableStatus.PLAYING, abandoned=False, absent_since__lte=limit
    ).values_list("table_id", "position")
    for table_id, position in list(absent[:500]):
        if seat_abandon_absent(table_id=table_id, position=position):
            done["abandoned"] += 1
    return done


# --- play again -----------------------------------------------------------------


@transaction.atomic
def table_rematch(*, user: User, table_id: int) -> Table:
    """One click: practice starts a new match with the same choices; friends opens
    a new room with the same rule set and bots, the same people invited again."""
    try:
        old = Table.objects.get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError):
        raise errors.TableNotFound() from None
    seats = list(old.seats.order_by("position"))
    if _seat_of(seats, user) is None:
        raise errors.NotSeated()
    if old.status in (TableStatus.OPEN, TableStatus.PLAYING):
        raise errors.TableNotOpen()
    if old.mode == Mode.PRACTICE:
        return table_create_practice(user=user, rules=old.rules, bot_level=old.bot_level)
    if old.owner_id != user.pk:
        raise errors.NotOwner()
    table = Table.objects.create(
        mode=Mode.FRIENDS, rules=old.rules, bot_level=old.bot_level, owner=user
    )
    new_seats = [
        Seat(
            table=table,
            position=s.position,
            kind=SeatKind.BOT if s.kind == SeatKind.BOT else SeatKind.EMPTY,
        )
        for s in seats
    ]
    mine = _seat_of(seats, user)
    new_seats[mine.position].kind = SeatKind.EMPTY
    Seat.objects.bulk_create(new_seats)
    created = _lock_seats(table)
    _take_live_seat(created[mine.position], user)
    for s in seats:
        if s.kind == SeatKind.HUMAN and s.user_id != user.pk and s.user.is_active:
            Invitation.objects.create(table=table, from_user=user, to_user=s.user)
            _notify(s.user_id, "invitations")
    return table


# --- moderation -------------------------------------------------------------------


@transaction.atomic
def match_abort(*, match_id: int, staff_user: User, reason: str) -> Match:
    """Staff stop a live match: everyone at the table is told, stakes go back exactly
    once (the economy's refund is idempotent per table), nobody earns anything (the
    match never reaches `_finish`), and the admin log keeps the reason."""
    from django.contrib.admin.models import CHANGE, LogEntry

    reason = (reason or "").strip()
    if not reason:
        raise errors.ReasonRequired()
    if not staff_user.has_perm("games.change_match"):
        raise errors.NotAllowed()
    table_id = Match.objects.filter(pk=match_id).values_list("table_id", flat=True).first()
    if table_id is None:
        raise errors.MatchNotLive()
    table, match, seats = _live_match(table_id)
    if match.pk != match_id:
        raise errors.MatchNotLive()
    engine = engine_match(match)
    match.status = MatchStatus.ABORTED
    match.finished_at = timezone.now()
    match.to_play = None
    match.turn_deadline = None
    match.save(update_fields=["status", "finished_at", "to_play", "turn_deadline"])
    table.status = TableStatus.CANCELLED
    table.save(update_fields=["status"])
    Seat.objects.filter(table=table).update(live=False)
    for seat in seats:
        seat.live = False
    if table.mode == Mode.STAKE:
        from economy.services import stake_refund

        stake_refund(table_id=table.pk)
    LogEntry.objects.log_actions(
        user_id=staff_user.pk,
        queryset=[match],
        action_flag=CHANGE,
        change_message=_("Match aborted. Reason: %(reason)s") % {"reason": reason},
    )
    _broadcast(table, seats, match, engine, [{"type": "match_aborted", "reason": reason}])
    return match
