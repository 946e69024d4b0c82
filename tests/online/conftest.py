"""The cast for online play: many players, a clock, and helpers to play through services."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import bot_runner, services
from games.models import Match, MatchStatus, Seat
from games.state import cache_clear, engine_match


@pytest.fixture(autouse=True)
def _online_settings(settings):
    settings.BOT_MOVE_PAUSE_SECONDS = 0
    settings.BOT_RUNNER = "off"  # tests move the bots themselves
    settings.ONLINE_BOT_FILL_SECONDS = 20
    settings.STAKE_FILL_SECONDS = 120
    cache_clear()


@pytest.fixture
def players(make_user):
    """make `n` players (each has the sign-up bonus of 1000 coins)."""

    def make(count: int, prefix: str = "p") -> list:
        return [make_user(f"{prefix}{i:02d}") for i in range(count)]

    return make


class Clock:
    """A controllable `now` for services that take one."""

    def __init__(self) -> None:
        self.now = timezone.now()

    def __call__(self):
        return self.now

    def advance(self, seconds: float):
        self.now += timedelta(seconds=seconds)
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def coins_of():
    from economy.selectors import balances

    return lambda user: balances(user)["coins"]


@pytest.fixture
def xp_of():
    from economy.selectors import balances

    return lambda user: balances(user)["xp"]


def escrow_balance(table_id: int) -> int:
    from economy.models import Account, AccountKind

    account = Account.objects.filter(kind=AccountKind.ESCROW, table_id=table_id).first()
    return account.balance if account is not None else 0


def play_out(table) -> Match:
    """Plays the match to its end: people play their first legal action, bots their own."""
    while True:
        while bot_runner.play_one(table.pk):
            pass
        match = Match.objects.filter(table=table).order_by("-pk").first()
        if match.status != MatchStatus.PLAYING:
            return match
        engine = engine_match(match)
        seat = Seat.objects.select_related("user").get(table=table, position=engine.to_play)
        services.match_play(
            user=seat.user,
            table_id=table.pk,
            action=engine.legal_actions()[0],
            version=match.version,
        )
