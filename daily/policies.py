"""The daily deal as a mode of the games app (registered from `DailyConfig.ready()`).

A daily table is the practice table marked "Reparto del día": the player in seat
0, three hard bots, one hand of the day's deal. Where it differs from a room:

- nobody stands in for the player: no turn limit, no absence, no abandonment; a
  player who leaves keeps the deal as it is and comes back to it (the same day);
- the bots play with no clock, so the same cards meet the same bot play;
- its matches stay out of the history (`in_history = False`: their cards must stay
  secret until the day is over; the daily pages show them when they may);
- the end of the hand is the deal's result; "play again" is the next deal.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from accounts.models import User
from daily import services
from daily.deals import DEALS, TURN_NAMES
from daily.models import DailyPlay
from games.models import Match, MatchSeat, MatchStatus, Mode, Seat, Table
from games.policies import TablePolicy


class DailyPolicy(TablePolicy):
    mode = Mode.DAILY
    bots_stand_in = False
    bots_reproducible = True
    in_history = False

    def seat_leave_in_play(
        self, *, table: Table, match: Match, seats: list[Seat], seat: Seat
    ) -> None:
        services.play_leave_locked(table=table, match=match, seats=seats, seat=seat)

    def match_settle(self, *, table: Table, match: Match, match_seats: list[MatchSeat]) -> None:
        services.play_finish_locked(match=match)

    def match_abort(self, *, table: Table, match: Match, seats: list[Seat]) -> None:
        services.play_expire_locked(match=match)

    def table_rematch(self, *, user: User, table: Table, seats: list[Seat]) -> Table:
        return services.daily_play(user=user)

    def table_info(self, *, table: Table, seats: list[Seat], match: Match | None) -> dict[str, Any]:
        if match is None:
            return {}
        play = DailyPlay.objects.filter(match=match).select_related("deal__day").first()
        if play is None:
            return {}
        deal = play.deal
        over = match.status == MatchStatus.FINISHED
        return {
            "daily": {
                "date": deal.day.date.isoformat(),
                "deal": deal.number,
                "deals": DEALS,
                # Once the deal is over: its result for the player's pair (docs/daily.md,
                # "Scoring") and the number of the next deal (None after the last).
                "result": match.score_a - match.score_b if over else None,
                "next": deal.number + 1 if over and deal.number < DEALS else None,
                "turn": TURN_NAMES[deal.dealer],
                # The player left the deal for later: their seat waits for them.
                "parked": table.status == "playing" and not seats[0].live,
                "page": reverse("daily:home"),
                "play": reverse("daily:play"),
                "replay": reverse("daily:deal", args=[deal.day.date.isoformat(), deal.number]),
            }
        }
