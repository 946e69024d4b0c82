"""The daily deal's cast: players who play the day's deals through the real services
(bots moved by hand, as the bot runner would), and a clock set inside one day."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

MADRID = ZoneInfo("Europe/Madrid")
# Noon of an ordinary day, Madrid time, and the first moment after it.
NOON = datetime(2026, 12, 5, 12, 0, tzinfo=MADRID)
NEXT_DAY = datetime(2026, 12, 6, 0, 0, 1, tzinfo=MADRID)


@pytest.fixture(autouse=True)
def _daily_settings(settings):
    settings.BOT_RUNNER = "off"  # bots are moved by the tests, one move at a time
    settings.DAILY_BOT_LEVEL = "easy"  # fast; the tests of hard bots ask for them
    settings.DAILY_SECRET = "a-test-secret-for-the-daily-deal-0123456789"


def first_legal(view: dict) -> str:
    return view["hand"]["legal_actions"][0]


def play_out(user, table_id: int, choose=first_legal, stop_after: int | None = None) -> int:
    """Plays the table's match: `user`'s moves by `choose(view)`, the bots' by the
    games app's own bot move. Stops when the match is over, or after `stop_after` of
    the user's moves; returns how many the user made."""
    from cuatrola.engine import seat_view
    from games import services
    from games.models import Match, MatchStatus
    from games.state import engine_match

    made = 0
    while True:
        match = Match.objects.filter(table_id=table_id).order_by("-pk").first()
        if match is None or match.status != MatchStatus.PLAYING:
            return made
        if match.to_play == 0:
            if stop_after is not None and made >= stop_after:
                return made
            view = seat_view(engine_match(match), 0)
            services.match_play(
                user=user, table_id=table_id, action=choose(view), version=match.version
            )
            made += 1
        else:
            assert services.match_bot_move(table_id=table_id), "a bot should have moved"


def play_day(user, now, choose=first_legal, deals: int = 6) -> list:
    """Plays `deals` of the day's deals for `user` through `daily_play`."""
    from daily import services

    tables = []
    for _ in range(deals):
        table = services.daily_play(user=user, now=now)
        play_out(user, table.pk, choose)
        tables.append(table)
    return tables


def results_day(day, results: dict) -> list:
    """A day whose players finished deals with the given results, written straight to
    the rows (as if played): `results` maps a user to six results, None for a deal
    not played. A player with six results played the set through at noon."""
    from datetime import datetime, time

    from daily import services
    from daily.models import DailyEntry, DailyPlay, PlayStatus

    row = services.day_ensure(day=day)
    deals = {deal.number: deal for deal in row.deals.all()}
    noon = datetime.combine(day, time(12), tzinfo=MADRID)
    entries = []
    for user, line in results.items():
        played = [r for r in line if r is not None]
        entry = DailyEntry.objects.create(
            day=row,
            user=user,
            deals_finished=len(played),
            finished_at=noon if len(played) == 6 else None,
        )
        for number, result in enumerate(line, start=1):
            if result is not None:
                DailyPlay.objects.create(
                    entry=entry,
                    deal=deals[number],
                    status=PlayStatus.FINISHED,
                    result=result,
                    finished_at=noon,
                )
        entries.append(entry)
    return entries
