"""Who may see a table, and from which seat: the table socket's admission and the
watching rules (docs/watching.md, "Who may watch a table")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import hooks
from games.models import Invitation, InvitationStatus, Seat, Table, TableStatus
from games.modes import mode_policy


@dataclass(frozen=True)
class Access:
    """How a user may see a table: from their seat, or as a spectator (position None)."""

    table: Table
    position: int | None


#: Why a user who may see a table is refused as its watcher (`watch_refusal`); the
#: socket closes with 4433 and 4436 (docs/watching.md).
FORBIDDEN = "forbidden"


PLAYING_ELSEWHERE = "playing_elsewhere"


def table_access(*, user: Any, table_id: int) -> Access | None:
    """Seated players see their seat; staff, invitees and, where the mode opens the
    table to watchers, anyone signed in watch; anyone else sees nothing
    (docs/watching.md, "Who may watch a table"). A watcher may still be refused
    (`watch_refusal`)."""
    table = Table.objects.select_related("owner").filter(pk=table_id).first()
    if table is None:
        return None
    seat = Seat.objects.filter(table=table, user=user).first()
    if seat is not None:
        return Access(table, seat.position)
    if may_watch(user=user, table=table):
        return Access(table, None)
    return None


def _invited(*, user: Any, table: Table) -> bool:
    """An invitation still waiting for an answer: one declined, cancelled or accepted
    (the invitee sat down, and may have left since) gives no view of the room."""
    return Invitation.objects.filter(
        table=table, to_user=user, status=InvitationStatus.PENDING
    ).exists()


def may_watch(*, user: Any, table: Table) -> bool:
    """Whether `user`, not seated at `table`, may see it as a watcher: staff, someone
    invited to the room, or anyone at a table its mode opens to watchers (online and
    stake tables, a friends room its owner opened)."""
    return (
        user.is_staff
        or mode_policy(table.mode).open_to_watch(table=table)
        or _invited(user=user, table=table)
    )


def watchable(table: Table, seats: list[Seat]) -> bool:
    """Open to watchers by the rules: the mode opens the table to them and none of its
    players forbade them when they sat. Staff and a room's invitees watch anyway."""
    return mode_policy(table.mode).open_to_watch(table=table) and not any(
        seat.forbids_watchers for seat in seats
    )


def playing_elsewhere(*, user: Any, table: Table) -> bool:
    """The user holds a live seat at another table whose match is being played (a user
    waiting at an open table is not playing)."""
    return (
        Seat.objects.filter(
            user_id=user.pk, live=True, abandoned=False, table__status=TableStatus.PLAYING
        )
        .exclude(table_id=table.pk)
        .exists()
    )


def watch_refusal(*, user: Any, table: Table, seats: list[Seat] | None = None) -> str | None:
    """Why `user` may not watch `table` now (they may see it: `table_access`), or None:
    FORBIDDEN (a player forbade watchers, or the room is closed to them: a room's
    invitees are not refused for that; or a player here blocked the user),
    PLAYING_ELSEWHERE (their own match is being played at another table). Staff are
    never refused, nor is a player seated here (they see their seat). `seats`: the
    table's, when the caller read them already."""
    if user.is_staff:
        return None
    if seats is None:
        seats = list(Seat.objects.filter(table=table))
    if any(seat.user_id == user.pk for seat in seats):
        return None
    if not watchable(table, seats) and not _invited(user=user, table=table):
        return FORBIDDEN
    players = [seat.user_id for seat in seats if seat.user_id is not None]
    if hooks.blocked_by_any(user.pk, players):
        # A player you blocked cannot watch your table; told as a forbidden table,
        # so that a block is never revealed (docs/social.md).
        return FORBIDDEN
    if playing_elsewhere(user=user, table=table):
        return PLAYING_ELSEWHERE
    return None


@dataclass(frozen=True)
class Admission:
    """What a table socket learns before it opens (one database call): whether the
    user may see the table and from which seat, whether they are banned, why they may
    not watch it (`watch_refusal`), and for a watcher whose talk it must not show."""

    found: bool
    position: int | None = None
    banned: bool = False
    refusal: str | None = None
    talk_blocked: frozenset[int] = frozenset()
    talk_hidden: bool = False


def table_admission(*, user: Any, table_id: int) -> Admission:
    """The checks a table socket makes before joining anything (games/sockets/consumers.py)."""
    from accounts.selectors import ban_in_force

    access = table_access(user=user, table_id=table_id)
    if access is None:
        return Admission(found=False)
    banned = ban_in_force(user.pk) is not None
    if access.position is not None or banned:
        return Admission(found=True, position=access.position, banned=banned)
    blocked, hidden = hooks.watcher_talk_filter(user.pk)
    return Admission(
        found=True,
        refusal=watch_refusal(user=user, table=access.table),
        talk_blocked=blocked,
        talk_hidden=hidden,
    )
