"""The policies of the modes games plays by itself: practice and friends.

Registered from `GamesConfig.ready()`; `TablePolicy` is what a mode does where it
says nothing else (online and stake build on it, in `online.policies`).
"""

from __future__ import annotations

from fractions import Fraction

from django.conf import settings

from accounts.models import User
from economy.services import Placement, RewardRate, match_reward
from games.models import Match, MatchSeat, Mode, Seat, Table
from games.modes import ModePolicy
from games.services import (
    room_reopen,
    room_seat_leave,
    seat_abandon_locked,
    table_create_practice,
)


class TablePolicy(ModePolicy):
    """A table not yet in play is a room: leaving frees the seat, its creator
    leaving closes it. A finished match pays the ledger's place rewards at the
    mode's `reward_rate` (bots and abandoners get nothing; the economy's
    `match_reward` applies those rules). Playing again opens a room with the same
    rule set, the bots in the same seats and the other players invited again."""

    def seat_leave(self, *, table: Table, seats: list[Seat], seat: Seat) -> None:
        room_seat_leave(table=table, seats=seats, seat=seat)

    def seat_leave_in_play(
        self, *, table: Table, match: Match, seats: list[Seat], seat: Seat
    ) -> None:
        """Leaving a match in play abandons it: a bot plays the seat to the end."""
        seat_abandon_locked(table=table, match=match, seats=seats, seat=seat)

    def match_settle(self, *, table: Table, match: Match, match_seats: list[MatchSeat]) -> None:
        rate = self.reward_rate()
        if rate is None:
            return
        placements = [
            Placement(user=ms.user, place=ms.place, abandoned=ms.abandoned)
            for ms in match_seats
            if ms.place is not None
        ]
        match_reward(
            match_id=match.pk,
            label=table.mode,
            rate=rate,
            placements=placements,
            now=match.finished_at,
        )

    def table_rematch(self, *, user: User, table: Table, seats: list[Seat]) -> Table:
        return room_reopen(user=user, table=table, seats=seats)


class PracticePolicy(TablePolicy):
    """You and three bots: nothing is paid; playing again starts a new match with the
    same choices at once."""

    mode = Mode.PRACTICE

    def table_rematch(self, *, user: User, table: Table, seats: list[Seat]) -> Table:
        return table_create_practice(user=user, rules=table.rules, bot_level=table.bot_level)


class FriendsPolicy(TablePolicy):
    """A private room its creator arranges; the winning pair earns the place rewards
    at ECONOMY_FRIENDS_RATE (½, rounded down), the others nothing."""

    mode = Mode.FRIENDS
    seats_by_owner = True
    free_text_talk = True

    def open_to_watch(self, *, table: Table) -> bool:
        """A room is watched by anyone only when its owner opened it to watchers."""
        return table.open_to_watch

    def reward_rate(self) -> RewardRate:
        rate = Fraction(settings.ECONOMY_FRIENDS_RATE)
        return RewardRate(coins=rate, xp=rate, places=frozenset({1, 2}))
