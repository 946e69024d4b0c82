"""A table's rows and its `state` frames, read together: the seats, the latest
match, one seat's full state for the page and the sockets, a finished match's outcome."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction

from games import hooks
from games.frames import live
from games.models import Match, MatchStatus, Seat, Table
from games.modes import mode_policy
from games.selectors.balances import user_balances
from games.state import engine_match


def table_seats(table: Table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).select_related("user").order_by("position"))


def latest_match(table: Table) -> Match | None:
    return Match.objects.filter(table=table).order_by("-pk").first()


@contextmanager
def snapshot() -> Iterator[None]:
    """Reads that must agree with each other (which seat a user holds, and that seat's
    cards): one transaction that sees the database as it was at its first read
    (REPEATABLE READ on PostgreSQL, where each statement of a READ COMMITTED
    transaction would see the commits made meanwhile; a SQLite transaction reads one
    snapshot already). Inside a transaction already, its reads are the caller's to
    keep consistent (a service holding the table's lock does)."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


def state_frame(
    *, table: Table, seats: list[Seat], match: Match | None, position: int | None
) -> dict[str, Any]:
    """The full `state` frame of one seat (or the spectators') from rows read together."""
    engine = engine_match(match) if match is not None else None
    return live.build_frame(
        kind="state",
        table=table,
        seats=seats,
        match=match,
        engine=engine,
        position=position,
        outcome=match_outcome(match, mode=table.mode),
    )


def table_frame(*, table_id: int, position: int | None) -> dict[str, Any]:
    """The full state frame for one seat (or spectators), as the table page draws it
    first. The caller reads `position` in the same snapshot (views.table_page)."""
    table = Table.objects.select_related("owner").get(pk=table_id)
    return state_frame(
        table=table, seats=table_seats(table), match=latest_match(table), position=position
    )


@dataclass(frozen=True)
class SeatFrame:
    """A `state` frame and the seat it was built for, read in one snapshot."""

    frame: dict[str, Any]
    position: int | None  # None: the spectators' frame
    seat_id: int | None


def seat_frame(*, table_id: int, user: Any) -> SeatFrame | None:
    """The full state for the seat `user` holds as it is read, or the spectators' when
    they hold none (`user` None: the spectators'); None when there is no such table.
    A socket's `sync`: the position may have changed since the socket last heard."""
    with snapshot():
        table = Table.objects.select_related("owner").filter(pk=table_id).first()
        if table is None:
            return None
        seats = table_seats(table)
        seat = next((s for s in seats if user is not None and s.user_id == user.pk), None)
        position = seat.position if seat is not None else None
        frame = state_frame(table=table, seats=seats, match=latest_match(table), position=position)
    return SeatFrame(frame, position, seat.pk if seat is not None else None)


def tables_unlisted(*, table_ids: list[int], process: str) -> list[int]:
    """Of these tables, those whose row does not list web process `process` among its
    listeners (games/fanout/listeners.py); a table deleted meanwhile is left out."""
    rows = Table.objects.filter(pk__in=table_ids).values_list("pk", "listeners")
    return sorted(pk for pk, listeners in rows if process not in listeners.split())


def match_outcome(match: Match | None, *, mode: str | None = None) -> dict[str, Any] | None:
    """A finished match's places, with the coins and XP each player earned (from the
    ledger) and the players' balances now; None while it is not finished.

    `coins` and `xp` are None where nothing could be earned: a bot's seat, and every
    seat in a mode that pays nothing (practice). `mode` is the table's (read from the
    match when not given)."""
    if match is None or match.status != MatchStatus.FINISHED:
        return None
    from economy.selectors import match_rewards

    pays = mode_policy(mode or match.table.mode).reward_rate() is not None
    rows = list(match.match_seats.order_by("position"))
    rewards = match_rewards([match.pk]) if pays else {}
    ratings = hooks.match_ratings(match.pk)
    places = []
    for ms in rows:
        earns = pays and ms.user_id is not None and not ms.is_bot
        got = rewards.get((match.pk, ms.user_id), {}) if earns else {}
        places.append(
            {
                "position": ms.position,
                "place": ms.place,
                "won": bool(ms.won),
                "abandoned": ms.abandoned,
                "personal_points": ms.personal_points,
                "tricks": ms.tricks_won,
                "coins": got.get("coins", 0) if earns else None,
                "xp": got.get("xp", 0) if earns else None,
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
