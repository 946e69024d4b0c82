"""The lobby's reads: the live table a player sits at, and invitations."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from games.models import LIVE_STATUSES, Invitation, InvitationStatus, Seat, Table


def live_table_for(user: Any) -> Table | None:
    """The live table the user sits at, if any (there is at most one)."""
    seat = (
        Seat.objects.filter(user=user, live=True, table__status__in=LIVE_STATUSES)
        .select_related("table")
        .first()
    )
    return seat.table if seat is not None else None


def live_tables_of(user_ids: list[int]) -> dict[int, str]:
    """The mode of the live table each of these users sits at (those at none left out)."""
    rows = Seat.objects.filter(
        user_id__in=user_ids, live=True, table__status__in=LIVE_STATUSES
    ).values_list("user_id", "table__mode")
    return dict(rows)


def live_table_ids_of(user_ids: list[int]) -> dict[int, int]:
    """The id of the live table each of these users sits at (those at none left out)."""
    rows = Seat.objects.filter(
        user_id__in=user_ids, live=True, table__status__in=LIVE_STATUSES
    ).values_list("user_id", "table_id")
    return dict(rows)


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
