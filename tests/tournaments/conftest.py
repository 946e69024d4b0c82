"""The cast for tournaments: players with coins, friendships, a clock, a tournament
open for registration, and games finished with chosen scores."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from games import services as games
from games.state import cache_clear
from social.models import Friendship
from tournaments.models import Game, Tournament, TournamentState
from tournaments.services import tournament_create


@pytest.fixture(autouse=True)
def _tournament_settings(settings):
    settings.BOT_MOVE_PAUSE_SECONDS = 0
    settings.BOT_RUNNER = "off"  # tests finish the games themselves
    cache_clear()


@pytest.fixture
def players(make_user):
    """`count` players (each has the sign-up bonus of 1000 coins)."""

    def make(count: int, prefix: str = "p") -> list:
        return [make_user(f"{prefix}{i:02d}") for i in range(count)]

    return make


def befriend(a, b) -> None:
    low, high = sorted([a, b], key=lambda u: u.pk)
    Friendship.objects.get_or_create(user_low=low, user_high=high)


@pytest.fixture
def friends():
    return befriend


class Clock:
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


@pytest.fixture
def make_tournament(db, clock):
    """A tournament whose registration is open now (state set), closing in an hour and
    starting ten minutes later."""

    def make(**fields) -> Tournament:
        now = clock()
        values = {
            "name": "Saturday Swiss",
            "format": "swiss",
            "rounds": 3,
            "entry_fee": 100,
            "min_entries": 2,
            "max_entries": 64,
            "round_minutes": 30,
            "pause_minutes": 2,
            "registration_opens_at": now - timedelta(minutes=1),
            "registration_closes_at": now + timedelta(hours=1),
            "starts_at": now + timedelta(hours=1, minutes=10),
            "state": TournamentState.REGISTRATION_OPEN,
        }
        values.update(fields)
        return tournament_create(**values)

    return make


def tournament_escrow(tournament_id: int) -> int:
    from economy.models import Account, AccountKind

    account = Account.objects.filter(
        kind=AccountKind.TOURNAMENT, tournament_id=tournament_id
    ).first()
    return account.balance if account is not None else 0


class _Ended:
    hands = ()

    def __init__(self, winner: int) -> None:
        self.winner = winner

    def personal_points(self):
        return (30, 20, 10, 5)

    def tricks_won(self):
        return (3, 2, 3, 2)


def game_finish(table_id: int, *, score_a: int, score_b: int) -> None:
    """End the live match of the table with these scores (pair 1 = team A), as the last
    move does: places, the mode's settlement, in one transaction."""
    from games.services.play import _finish

    with transaction.atomic():
        table = games.table_lock(table_id=table_id)
        match = games.match_lock(table=table)
        seats = games.seats_lock(table=table)
        match.score_a, match.score_b = score_a, score_b
        _finish(table, match, seats, _Ended(0 if score_a > score_b else 1))
        match.save()


def games_in_play(tournament: Tournament) -> list[Game]:
    return list(
        Game.objects.filter(pairing__tournament=tournament, recorded_at__isnull=True)
        .select_related("pairing")
        .order_by("pairing__number", "number")
    )


def play_all(tournament: Tournament, *, winner_a: bool = True, margin: int = 10) -> int:
    """Finish every game in play: team A wins (or B) by `margin` to a 21 target."""
    played = 0
    for game in games_in_play(tournament):
        high, low = 21, max(0, 21 - margin)
        score_a, score_b = (high, low) if winner_a else (low, high)
        game_finish(game.table_id, score_a=score_a, score_b=score_b)
        played += 1
    return played
