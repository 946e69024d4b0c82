"""Tables and rooms: creating them, invitations, arranging seats, leaving, starting
a room's match, and playing again. One transaction per public function."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext_lazy

from accounts.models import User
from games import errors
from games.hooks import blocked_between, invitation_refusal
from games.models import (
    LIVE_STATUSES,
    BotLevel,
    Invitation,
    InvitationStatus,
    Match,
    Mode,
    RuleSetName,
    Seat,
    SeatKind,
    Table,
    TableStatus,
)
from games.modes import mode_policy
from games.services.tables import (
    SEATS,
    StartPosition,
    match_lock,
    seat_free,
    seat_of,
    seat_take,
    seats_lock,
    table_broadcast,
    table_close,
    table_lock,
    table_start,
    table_watchers_close,
    user_notify,
)
from notifications import kinds
from notifications.services import notification_send


def _check_choice(value: str, choices: Any) -> str:
    if value not in choices.values:
        raise errors.InvalidChoice()
    return value


@transaction.atomic
def table_create_practice(*, user: User, rules: str, bot_level: str) -> Table:
    """You and three bots; the match starts at once."""
    return table_create_against_bots(
        user=user, mode=Mode.PRACTICE, rules=rules, bot_level=bot_level
    )


@transaction.atomic
def table_create_against_bots(
    *,
    user: User,
    mode: str,
    rules: str,
    bot_level: str,
    seed: int | None = None,
    first_dealer: int | None = None,
    last_hand: int | None = None,
) -> Table:
    """`user` in seat 0 and three bots at a table of `mode`; the match starts at once
    (dealt from `seed`, `first_dealer` and `last_hand` when given: `table_start`).
    AlreadyAtTable when the user sits at another live table (nothing is created)."""
    _check_choice(mode, Mode)
    _check_choice(rules, RuleSetName)
    _check_choice(bot_level, BotLevel)
    table = Table.objects.create(
        mode=mode,
        rules=rules,
        bot_level=bot_level,
        owner=user,
        status=TableStatus.OPEN,
    )
    seats = [Seat(table=table, position=p, kind=SeatKind.BOT) for p in SEATS]
    Seat.objects.bulk_create(seats[1:])
    seat_take(seat=seats[0], user=user)
    table_start(
        table=table,
        seats=seats_lock(table=table),
        seed=seed,
        first_dealer=first_dealer,
        last_hand=last_hand,
    )
    return table


@transaction.atomic
def table_create_position(
    *, user: User, mode: str, rules: str, bot_level: str, seat: int, position: StartPosition
) -> Table:
    """You at `seat` and three bots at a hand already under way (`position`), played
    from there to its end: a position to practise. The mode's policy decides the rest
    (what playing again opens). AlreadyAtTable when you sit at another live table;
    IllegalAction when the position is not a legal hand."""
    _check_choice(mode, Mode)
    _check_choice(rules, RuleSetName)
    _check_choice(bot_level, BotLevel)
    if isinstance(seat, bool) or seat not in SEATS:
        raise errors.InvalidSeat()
    table = Table.objects.create(
        mode=mode, rules=rules, bot_level=bot_level, owner=user, status=TableStatus.OPEN
    )
    seats = [Seat(table=table, position=p, kind=SeatKind.BOT) for p in SEATS]
    Seat.objects.bulk_create([s for s in seats if s.position != seat])
    seat_take(seat=seats[seat], user=user)
    table_start(table=table, seats=seats_lock(table=table), position=position)
    return table


@transaction.atomic
def table_create_friends(*, user: User, rules: str = RuleSetName.ONLINE) -> Table:
    """A private room with its creator in seat 0 and three empty seats."""
    _check_choice(rules, RuleSetName)
    table = Table.objects.create(mode=Mode.FRIENDS, rules=rules, owner=user)
    seats = [Seat(table=table, position=p) for p in SEATS]
    Seat.objects.bulk_create(seats[1:])
    seat_take(seat=seats[0], user=user)
    return table


@transaction.atomic
def table_configure(
    *,
    user: User,
    table_id: int,
    rules: str | None = None,
    bot_level: str | None = None,
    open_to_watch: bool | None = None,
) -> Table:
    """The owner's choices for their table: its rule set and bots' level while it is
    open, and, for a room (a mode whose owner arranges the seats), whether anyone may
    watch it (`open_to_watch`), while it is open or in play. Closing a room to
    watchers closes the sockets watching it (4433) but its players', invitees' and
    staff's (docs/watching.md)."""
    table = table_lock(table_id=table_id)
    if table.owner_id != user.pk:
        raise errors.NotOwner()
    if (rules is not None or bot_level is not None) and table.status != TableStatus.OPEN:
        raise errors.TableNotOpen()
    if open_to_watch is not None and (
        table.status not in LIVE_STATUSES or not mode_policy(table.mode).seats_by_owner
    ):
        raise errors.TableNotOpen()
    if open_to_watch is not None and not isinstance(open_to_watch, bool):
        raise errors.InvalidChoice()
    if rules is not None:
        table.rules = _check_choice(rules, RuleSetName)
    if bot_level is not None:
        table.bot_level = _check_choice(bot_level, BotLevel)
    closed_to_watch = False
    if open_to_watch is not None:
        closed_to_watch = table.open_to_watch and not open_to_watch
        table.open_to_watch = open_to_watch
    table.save(update_fields=["rules", "bot_level", "open_to_watch"])
    seats = seats_lock(table=table)
    if closed_to_watch:
        invited = Invitation.objects.filter(table=table).values_list("to_user_id", flat=True)
        seated = {s.user_id for s in seats if s.user_id is not None}
        table_watchers_close(table_id=table.pk, keep={*seated, *invited})
    table_broadcast(table=table, seats=seats)
    return table


def _open_room_for_owner(table_id: int, user: User) -> tuple[Table, list[Seat]]:
    table = table_lock(table_id=table_id)
    if table.owner_id != user.pk:
        raise errors.NotOwner()
    if table.status != TableStatus.OPEN or not mode_policy(table.mode).seats_by_owner:
        raise errors.TableNotOpen()
    return table, seats_lock(table=table)


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
    if blocked_between(user.pk, invitee.pk):
        raise errors.InvalidInvitation(gettext_lazy("You cannot invite this player."))
    refusal = invitation_refusal(table.pk, invitee.pk)
    if refusal is not None:
        raise errors.InvalidInvitation(refusal)
    if seat_of(seats, invitee) is not None:
        raise errors.InvalidInvitation(gettext_lazy("That player is already seated here."))
    if not any(s.kind == SeatKind.EMPTY for s in seats):
        raise errors.InvalidInvitation(gettext_lazy("There is no empty seat left."))
    existing = Invitation.objects.filter(
        table=table, to_user=invitee, status=InvitationStatus.PENDING
    ).first()
    if existing is not None:
        raise errors.InvalidInvitation(gettext_lazy("That player has already been invited."))
    invitation = Invitation.objects.create(table=table, from_user=user, to_user=invitee)
    user_notify(user_id=invitee.pk, what="invitations")
    notification_send(
        user=invitee,
        kind=kinds.ROOM_INVITATION,
        params={"name": user.username, "table": table.pk},
        link=reverse("games:lobby"),
        dedup_key=f"room-invitation:{invitation.pk}",
    )
    table_broadcast(table=table, seats=seats)
    return invitation


def _lock_invitation(invitation_id: int, user: User) -> tuple[Invitation, Table]:
    try:
        table_id = Invitation.objects.values_list("table_id", flat=True).get(
            pk=invitation_id, to_user=user
        )
    except (Invitation.DoesNotExist, ValueError, TypeError):
        raise errors.InvitationNotFound() from None
    table = table_lock(table_id=table_id)
    invitation = Invitation.objects.select_for_update().get(pk=invitation_id)
    if invitation.status != InvitationStatus.PENDING:
        raise errors.InvitationNotFound()
    return invitation, table


@transaction.atomic
def invitation_accept(*, user: User, invitation_id: int) -> Table:
    """Takes the first empty seat of the room (the creator may move people later)."""
    invitation, table = _lock_invitation(invitation_id, user)
    seats = seats_lock(table=table)
    if table.status != TableStatus.OPEN:
        invitation.status = InvitationStatus.CANCELLED
        invitation.save(update_fields=["status"])
        raise errors.TableNotOpen()
    if blocked_between(user.pk, invitation.from_user_id):
        raise errors.InvalidInvitation(gettext_lazy("You cannot join this room."))
    refusal = invitation_refusal(table.pk, user.pk)
    if refusal is not None:
        raise errors.InvalidInvitation(refusal)
    empty = next((s for s in seats if s.kind == SeatKind.EMPTY), None)
    if empty is None:
        raise errors.InvalidInvitation(gettext_lazy("There is no empty seat left."))
    seat_take(seat=empty, user=user)
    invitation.status = InvitationStatus.ACCEPTED
    invitation.save(update_fields=["status"])
    user_notify(user_id=user.pk, what="invitations")
    table_broadcast(table=table, seats=seats)
    return table


@transaction.atomic
def invitation_decline(*, user: User, invitation_id: int) -> None:
    invitation, table = _lock_invitation(invitation_id, user)
    invitation.status = InvitationStatus.DECLINED
    invitation.save(update_fields=["status"])
    user_notify(user_id=user.pk, what="invitations")
    table_broadcast(table=table, seats=seats_lock(table=table))


@transaction.atomic
def seat_set_bot(*, user: User, table_id: int, position: int | str | None, bot: bool) -> None:
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
    table_broadcast(table=table, seats=seats)


def _position(seats: list[Seat], position: int | str | None) -> Seat:
    """The seat at `position`, which may be a form's raw value; a bad one is refused."""
    if position is None:
        raise errors.InvalidSeat()
    try:
        index = int(position)
    except ValueError:
        raise errors.InvalidSeat() from None
    if not 0 <= index < len(seats):
        raise errors.InvalidSeat()
    return seats[index]


@transaction.atomic
def seat_swap(
    *, user: User, table_id: int, first: int | str | None, second: int | str | None
) -> None:
    """The creator arranges who partners whom: two seats exchange their occupants."""
    table, seats = _open_room_for_owner(table_id, user)
    a, b = _position(seats, first), _position(seats, second)
    if a.position == b.position:
        raise errors.InvalidSeat()
    fields = ("kind", "user_id", "live", "connections", "sockets", "absent_since", "abandoned")
    values_a = {f: getattr(a, f) for f in fields}
    values_b = {f: getattr(b, f) for f in fields}
    # Clear one seat first so the one-live-seat index never sees the user twice.
    Seat.objects.filter(pk=a.pk).update(kind=SeatKind.EMPTY, user=None, live=False)
    Seat.objects.filter(pk=b.pk).update(**values_a)
    Seat.objects.filter(pk=a.pk).update(**values_b)
    table_broadcast(table=table, seats=seats_lock(table=table))


@transaction.atomic
def seat_leave(*, user: User, table_id: int) -> None:
    """Leaving is the mode's to decide: a match in play is abandoned (the daily deal
    keeps it for later); a table not yet in play is left as a room (the seat is
    freed, the creator leaving closes it) or, at a stake table, with the stake
    refunded."""
    table = table_lock(table_id=table_id)
    match = match_lock(table=table)
    seats = seats_lock(table=table)
    seat = seat_of(seats, user)
    if seat is None or not seat.live:
        raise errors.NotSeated()
    if table.status == TableStatus.PLAYING and match is not None:
        mode_policy(table.mode).seat_leave_in_play(table=table, match=match, seats=seats, seat=seat)
        return
    mode_policy(table.mode).seat_leave(table=table, seats=seats, seat=seat)


def room_seat_leave(*, table: Table, seats: list[Seat], seat: Seat) -> None:
    """A room's seat left before play (the table and seats locked): the creator
    leaving closes the room, anyone else frees their seat."""
    if table.owner_id == seat.user_id:
        room_cancel(table=table, seats=seats)
        return
    seat_free(seat=seat)
    table_broadcast(table=table, seats=seats)


def room_cancel(*, table: Table, seats: list[Seat]) -> None:
    """Closes an open room (locked): its pending invitations are void."""
    table_close(table=table, seats=seats, status=TableStatus.CANCELLED)
    pending = Invitation.objects.filter(table=table, status=InvitationStatus.PENDING)
    for to_user_id in pending.values_list("to_user_id", flat=True):
        user_notify(user_id=to_user_id, what="invitations")
    pending.update(status=InvitationStatus.CANCELLED)
    table_broadcast(table=table, seats=seats)


@transaction.atomic
def match_start(*, user: User, table_id: int, seed: int | None = None) -> Match:
    """The creator starts the match once every seat has a player or a bot."""
    table, seats = _open_room_for_owner(table_id, user)
    if any(s.kind == SeatKind.EMPTY for s in seats):
        raise errors.TableNotReady()
    return table_start(table=table, seats=seats, seed=seed)


# --- play again -----------------------------------------------------------------------


@transaction.atomic
def table_rematch(*, user: User, table_id: int) -> Table:
    """One click, the mode decides what opens (practice: a new match with the same
    choices; otherwise a new room with the same rule set and bots, the same people
    invited again)."""
    try:
        old = Table.objects.get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError):
        raise errors.TableNotFound() from None
    seats = list(old.seats.order_by("position"))
    if seat_of(seats, user) is None:
        raise errors.NotSeated()
    if old.status in (TableStatus.OPEN, TableStatus.PLAYING):
        raise errors.TableNotOpen()
    return mode_policy(old.mode).table_rematch(user=user, table=old, seats=seats)


def room_reopen(*, user: User, table: Table, seats: list[Seat]) -> Table:
    """Its creator opens a friends room like the finished `table`: the same rule set,
    bots in the same seats, the other players invited again."""
    if table.owner_id != user.pk:
        raise errors.NotOwner()
    new_table = Table.objects.create(
        mode=Mode.FRIENDS, rules=table.rules, bot_level=table.bot_level, owner=user
    )
    new_seats = [
        Seat(
            table=new_table,
            position=s.position,
            kind=SeatKind.BOT if s.kind == SeatKind.BOT else SeatKind.EMPTY,
        )
        for s in seats
    ]
    mine = seat_of(seats, user)
    if mine is None:
        raise errors.NotSeated()
    new_seats[mine.position].kind = SeatKind.EMPTY
    Seat.objects.bulk_create(new_seats)
    created = seats_lock(table=new_table)
    seat_take(seat=created[mine.position], user=user)
    for s in seats:
        other = s.user if s.kind == SeatKind.HUMAN else None
        if other is not None and other.pk != user.pk and other.is_active:
            Invitation.objects.create(table=new_table, from_user=user, to_user=other)
            user_notify(user_id=other.pk, what="invitations")
    return new_table
