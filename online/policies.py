"""The policies of online and stake tables (`games.modes`), registered from
`OnlineConfig.ready()`.

Online: the matchmaker seats the players (bots fill after a wait); every place
earns coins and XP, and league points. Stake: each player pays the stake into
escrow to sit; leaving before the match starts refunds it; the winning pair
takes the pot, everyone the XP of an online match, and league points; an
aborted match gives every stake back.
"""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from typing import Any

from economy.services import FULL_RATE, RewardRate, stake_refund
from games.models import Match, MatchSeat, Mode, Seat, Table, TableStatus
from games.modes import TableStakes
from games.policies import TablePolicy
from online.quitting import abandonment_record
from online.selectors import stake_and_stakers, table_stake_expression
from online.services import match_settle, stake_seat_leave_locked


class OnlinePolicy(TablePolicy):
    mode = Mode.ONLINE
    rated = True
    #: Whether the winning pair takes the stakes in escrow.
    pot = False

    def reward_rate(self) -> RewardRate:
        return FULL_RATE

    def open_to_watch(self, *, table: Table) -> bool:
        """Online and stake tables: anyone may watch (unless a player forbade it)."""
        return True

    def seat_abandoned(
        self, *, table: Table, match: Match, user_id: int, left: bool, at: datetime
    ) -> None:
        """Abandoning a rated or stake match climbs the ladder of waits (a first
        disconnect is forgiven; docs/fairplay.md)."""
        abandonment_record(match=match, user_id=user_id, left=left, at=at)

    def match_settle(self, *, table: Table, match: Match, match_seats: list[MatchSeat]) -> None:
        match_settle(
            table=table,
            match=match,
            match_seats=match_seats,
            rate=self.reward_rate(),
            pot=self.pot,
        )


class StakePolicy(OnlinePolicy):
    mode = Mode.STAKE
    pot = True

    def reward_rate(self) -> RewardRate:
        return RewardRate(coins=Fraction(0))  # the pot is the coins; XP as online

    def seat_leave(self, *, table: Table, seats: list[Seat], seat: Seat) -> None:
        stake_seat_leave_locked(table=table, seats=seats, seat=seat)

    def match_abort(self, *, table: Table, match: Match, seats: list[Seat]) -> None:
        stake_refund(table_id=table.pk)  # every stake in escrow, once

    def table_stake_expression(self) -> Any:
        return table_stake_expression()

    def table_stakes(self, *, table: Table) -> TableStakes | None:
        """The stake, and the pot: every stake paid by a player still sitting there
        (an abandoner's stays in it); nothing once the table was cancelled or its
        match aborted (every stake went back)."""
        found = stake_and_stakers(table_id=table.pk)
        if found is None:
            return None
        stake, stakers = found
        pot = 0 if table.status == TableStatus.CANCELLED else stake * stakers
        return TableStakes(stake=stake, pot=pot)
