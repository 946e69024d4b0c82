"""The end of an online or stake match: coins and XP by place, the pot, league
points, ratings and the ladder of waits, inside the match's finishing transaction."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

from accounts.models import User
from economy.services import (
    FULL_RATE,
    Placement,
    RewardRate,
    match_reward,
    pot_pay_out,
    stake_refund,
)
from games.models import Match, MatchSeat, Table
from leagues.services import LeagueResult, league_points_record_match
from online import quitting
from online.models import MatchLeaguePoints
from ratings.services import match_rate


def league_points_for(*, place: int, with_bots: bool) -> int:
    points = int(settings.ONLINE_LEAGUE_POINTS[place])
    if with_bots:
        points = int(points * Fraction(settings.ONLINE_BOT_LEAGUE_RATE))  # rounds down
    return points


def _place(ms: MatchSeat) -> int:
    """A finished match's seat has its place (set with the others before settlement)."""
    if ms.place is None:
        raise ValueError(f"match seat {ms.pk} has no place: its match is not finished")
    return ms.place


def match_settle(
    *,
    table: Table,
    match: Match,
    match_seats: list[MatchSeat],
    rate: RewardRate = FULL_RATE,
    pot: bool = False,
) -> None:
    """Pay an online or stake match that just finished, inside its finishing transaction
    (the online and stake policies' settlement, `online.policies`).

    Coins and XP per place through economy.match_reward at `rate` (stake tables: XP
    only); with `pot`, the whole pot to the winning pair's players who did not
    abandon; league points stored per seat and recorded in the league; the players'
    ratings updated (once per match: `ratings.services.match_rate`).
    """
    users = User.objects.in_bulk([ms.user_id for ms in match_seats if ms.user_id])
    finished_at = match.finished_at or timezone.now()
    placements = [
        Placement(
            user=None if ms.is_bot or ms.user_id is None else users[ms.user_id],
            place=_place(ms),
            abandoned=ms.abandoned,
        )
        for ms in match_seats
    ]
    match_reward(
        match_id=match.pk, label=table.mode, rate=rate, placements=placements, now=finished_at
    )
    if pot:
        _pot_share(table, match, match_seats, users)
    with_bots = any(ms.is_bot for ms in match_seats)
    rows = []
    for ms in match_seats:
        earns = not ms.is_bot and ms.user_id is not None and not ms.abandoned
        points = league_points_for(place=_place(ms), with_bots=with_bots) if earns else 0
        rows.append(
            MatchLeaguePoints(
                match=match,
                position=ms.position,
                user_id=ms.user_id,
                place=_place(ms),
                points=points,
                halved=with_bots,
            )
        )
    MatchLeaguePoints.objects.bulk_create(rows, ignore_conflicts=True)
    earners = [(users[r.user_id], r.points, r.place <= 2) for r in rows if r.points]
    _league_record(match, earners, finished_at)
    match_rate(match=match, match_seats=match_seats, bot_level=table.bot_level)
    # The ladder of waits: a clean finish takes it down, an abandonment not yet counted
    # is counted (docs/fairplay.md).
    quitting.finish_record(match=match, match_seats=match_seats, at=finished_at)


def _pot_share(
    table: Table, match: Match, match_seats: list[MatchSeat], users: dict[int, User]
) -> None:
    winners = [ms for ms in match_seats if ms.position % 2 == match.winner]
    present = [users[ms.user_id] for ms in winners if not ms.abandoned and ms.user_id]
    if not present:
        # Both winners abandoned (silent in PLATFORM.md): the players who stayed share it.
        present = [users[ms.user_id] for ms in match_seats if not ms.abandoned and ms.user_id]
    if present:
        pot_pay_out(table_id=table.pk, winners=present, match_id=match.pk, now=match.finished_at)
    else:
        stake_refund(table_id=table.pk, now=match.finished_at)  # all four abandoned


def _league_record(
    match: Match, earners: list[tuple[User, int, bool]], finished_at: datetime
) -> None:
    """The league's seam (docs/league.md): every earner at once; idempotent per (user, match)."""
    if earners:
        league_points_record_match(
            match_id=match.pk,
            finished_at=finished_at,
            results=[LeagueResult(user=u, points=p, won=won) for u, p, won in earners],
        )


def match_league_points(
    match_ids: list[int], users: Iterable[Any] | None = None
) -> dict[tuple[int, int], int]:
    """The league points stored with these matches by (match id, user id), of `users`
    only when given (registered as games.hooks' match points, for the history pages)."""
    # Plain SQL: the history page asks it on every view (building the query was
    # most of its cost); the users are picked out here.
    if not match_ids:
        return {}
    wanted = None if users is None else {getattr(user, "pk", user) for user in users}
    placeholders = ", ".join(["%s"] * len(match_ids))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT match_id, user_id, points FROM {MatchLeaguePoints._meta.db_table} "
            f"WHERE match_id IN ({placeholders})",
            [int(match_id) for match_id in match_ids],
        )
        return {
            (match_id, user_id): points
            for match_id, user_id, points in cursor.fetchall()
            if wanted is None or (user_id is not None and user_id in wanted)
        }
