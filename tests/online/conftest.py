"""The cast for online play: many players, a clock, and helpers to play through services."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from games import bot_runner, services
from games.models import Match, MatchStatus, Seat, Table
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
    """Plays the match to its end: people bid the highest contract offered, else play
    their first legal card (as the browser tests' `play_one`); bots play their own.

    Contracts end a match in a few hands (passing every time takes some thirty pass
    hands of one point each), which keeps the tests that play whole matches short."""
    while True:
        match = Match.objects.filter(table=table).order_by("-pk").first()
        if match.status != MatchStatus.PLAYING:
            return match
        engine = engine_match(match)
        seat = Seat.objects.select_related("user").get(table=table, position=engine.to_play)
        if seat.bot_controlled:  # what bot_runner.play_one checks before it moves
            assert bot_runner.play_one(table.pk), f"no bot moved for seat {seat.position}"
            continue
        legal = engine.legal_actions()
        services.match_play(
            user=seat.user,
            table_id=table.pk,
            action=legal[-1] if engine.phase == "bidding" else legal[0],
            version=match.version,
        )


class _Ended:
    """What the end of a match reads from a finished engine match, with a chosen winner."""

    hands = ()

    def __init__(self, winner: int) -> None:
        self.winner = winner

    def personal_points(self):
        return (30, 20, 10, 5)

    def tricks_won(self):
        return (3, 2, 3, 2)


def finish(table: Table, winner: int) -> Match:
    """End the live match with `winner` as the last move does (places, the mode's
    settlement, the hook), in one transaction."""
    from games.services.play import _finish

    with transaction.atomic():
        locked = services.table_lock(table_id=table.pk)
        match = services.match_lock(table=locked)
        seats = services.seats_lock(table=locked)
        _finish(locked, match, seats, _Ended(winner))
        match.save()
    return match
