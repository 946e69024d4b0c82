"""The policy of the `tournament` mode (games.modes), registered from
`TournamentsConfig.ready()`.

A tournament game is an online match (docs/tournaments.md, "Ratings and league"):
rated, bots stand in for an absent player, anyone may watch, coins and XP by place as
online, league points as online; its result is recorded into the tournament, once,
in the match's finishing transaction. Nobody leaves a tournament table before its
match (the tournament seats it and starts it at once); leaving a match in play
abandons it, as online.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.urls import NoReverseMatch, reverse

from accounts.models import User
from economy.services import FULL_RATE, RewardRate
from games.models import Match, MatchSeat, Mode, Seat, Table
from games.policies import TablePolicy
from online.quitting import abandonment_record
from online.services import match_settle as online_match_settle
from tournaments import errors
from tournaments.services.results import game_record


class TournamentPolicy(TablePolicy):
    mode = Mode.TOURNAMENT
    rated = True

    def reward_rate(self) -> RewardRate:
        return FULL_RATE

    def open_to_watch(self, *, table: Table) -> bool:
        """As online: anyone may watch a tournament table (unless a player forbade it)."""
        return True

    def seat_leave(self, *, table: Table, seats: list[Seat], seat: Seat) -> None:
        """A tournament table starts as soon as it is seated: there is no room to leave."""
        raise errors.TournamentTableLeave()

    def seat_abandoned(
        self, *, table: Table, match: Match, user_id: int, left: bool, at: datetime
    ) -> None:
        """Abandoning a rated match climbs the ladder of waits, as online."""
        abandonment_record(match=match, user_id=user_id, left=left, at=at)

    def match_settle(self, *, table: Table, match: Match, match_seats: list[MatchSeat]) -> None:
        """Coins and XP, league points and ratings as an online match (online's
        settlement), then the result into the tournament (idempotent per game)."""
        online_match_settle(table=table, match=match, match_seats=match_seats, rate=FULL_RATE)
        game_record(table=table, match=match)

    def match_abort(self, *, table: Table, match: Match, seats: list[Seat]) -> None:
        """Staff stopped the match: the game is recorded as lost by both (no points)."""
        game_record(table=table, match=match, aborted=True)

    def table_rematch(self, *, user: User, table: Table, seats: list[Seat]) -> Table:
        """The tournament seats the next game itself."""
        raise errors.TournamentTableRematch()

    def table_info(self, *, table: Table, seats: list[Seat], match: Match | None) -> dict[str, Any]:
        from tournaments.models import Game

        game = (
            Game.objects.filter(table_id=table.pk)
            .values("pairing__tournament_id", "pairing__round__number", "pairing__number", "number")
            .first()
        )
        if game is None:
            return {}
        return {
            "tournament": {
                "id": game["pairing__tournament_id"],
                "round": game["pairing__round__number"],
                "table": game["pairing__number"],
                "game": game["number"],
            }
        }

    def table_panel_url(self, *, table: Table) -> str | None:
        """The tournament's region on the table page, once the pages exist."""
        try:
            return reverse("tournaments:table_panel", args=[table.pk])
        except NoReverseMatch:
            return None
