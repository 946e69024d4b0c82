"""Reads for pages and sockets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from economy.models import Currency
from games import broadcast, hooks
from games.models import (
    LIVE_STATUSES,
    Invitation,
    InvitationStatus,
    Match,
    MatchSeat,
    MatchStatus,
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
        outcome=match_outcome(match),
    )


def user_balances(user_ids: list[int]) -> dict[int, dict[str, int]]:
    """Each user's coins, XP and level (what the navigation shows), by user id."""
    from economy.levels import level_progress
    from economy.selectors import balances

    return {
        user_id: {
            "coins": amounts[Currency.COINS],
            "xp": amounts[Currency.XP],
            "level": level_progress(amounts[Currency.XP]).level,
        }
        for user_id in user_ids
        for amounts in [balances(user_id)]
    }


def match_outcome(match: Match | None) -> dict[str, Any] | None:
    """A finished match's places, with the coins and XP each player earned (from the
    ledger) and the players' balances now; None while it is not finished."""
    if match is None or match.status != MatchStatus.FINISHED:
        return None
    from economy.selectors import match_rewards

    rows = list(match.match_seats.order_by("position"))
    rewards = match_rewards([match.pk])
    ratings = hooks.match_ratings(match.pk)
    places = []
    for ms in rows:
        got = rewards.get((match.pk, ms.user_id), {}) if ms.user_id else {}
        places.append(
            {
                "position": ms.position,
                "place": ms.place,
                "won": bool(ms.won),
                "abandoned": ms.abandoned,
                "personal_points": ms.personal_points,
                "tricks": ms.tricks_won,
                "coins": got.get("coins", 0),
                "xp": got.get("xp", 0),
                # before, after, change, provisional; None where the seat was not rated
                "rating": ratings.get(ms.position),
            }
        )
    humans = [ms.user_id for ms in rows if ms.user_id and not ms.is_bot]
    return {
        "winner": match.winner,
        "scores": [match.score_a, match.score_b],
        "places": places,
        "balances": user_balances(humans),
    }


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


def match_players(match_id: int) -> set[int]:
    """The ids of the people who played the match (registered for accounts' reports)."""
    return set(
        MatchSeat.objects.filter(match_id=match_id, user__isnull=False).values_list(
            "user_id", flat=True
        )
    )
