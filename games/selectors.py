"""Reads for pages and sockets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from games import broadcast
from games.models import (
    LIVE_STATUSES,
    Invitation,
    InvitationStatus,
    Match,
    Seat,
    Table,
)
from games.state import engine_match


@dataclass(frozen=True)
class Access:
    """How a user may see a table: from their seat, or as a spectator (position None)."""

    table: Table
    position: int | None


def table_access(*, user: Any, table_id: int) -> Access | None:
    """Seated players see their seat; invitees and staff watch; anyone else sees nothing."""
    table = Table.objects.select_related("owner").filter(pk=table_id).first()
    if table is None:
        return None
    seat = Seat.objects.filter(table=table, user=user).first()
    if seat is not None:
        return Access(table, seat.position)
    if user.is_staff or Invitation.objects.filter(table=table, to_user=user).exists():
        return Access(table, None)
    return None


def table_seats(table: Table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).select_related("user").order_by("position"))


def latest_match(table: Table) -> Match | None:
    return Match.objects.filter(table=table).order_by("-pk").first()


def table_frame(*, table_id: int, position: int | None) -> dict[str, Any]:
    """The full state frame for one seat (or spectators): sent on connect and resync."""
    table = Table.objects.select_related("owner").get(pk=table_id)
    seats = table_seats(table)
    match = latest_match(table)
    engine = engine_match(match) if match is not None else None
    return broadcast.build_frame(
        kind="state",
        table=table,
        seats=seats,
        match=match,
        engine=engine,
        position=position,
    )


def live_table_for(user: Any) -> Table | None:
    """The live table the user sits at, if any (there is at most one)."""
    seat = (
        Seat.objects.filter(user=user, live=True, table__status__in=LIVE_STATUSES)
        .select_related("table")
        .first()
    )
    return seat.table if seat is not None else None


def pending_invitations(user: Any) -> list[Invitation]:
    return list(
        Invitation.objects.filter(
            to_user=user, status=InvitationStatus.PENDING, table__status__in=LIVE_STATUSES
        )
        .select_related("from_user", "table")
        .order_by("-created_at")
    )


def room_invitations(table: Table) -> list[Invitation]:
    return list(
        Invitation.objects.filter(table=table)
        .filter(Q(status=InvitationStatus.PENDING) | Q(status=InvitationStatus.DECLINED))
        .select_related("to_user")
        .order_by("created_at")
    )
