"""The cast at a table and helpers to play through services."""

from __future__ import annotations

import pytest

from games import bot_runner, services
from games.models import Match, MatchStatus
from games.state import cache_clear, engine_match


@pytest.fixture(autouse=True)
def _game_settings(settings):
    settings.BOT_MOVE_PAUSE_SECONDS = 0
    settings.BOT_RUNNER = "off"
    cache_clear()


@pytest.fixture
def partner(make_user):
    return make_user("pablo")


@pytest.fixture
def opponent(make_user):
    return make_user("olga")


@pytest.fixture
def spectator(make_user):
    return make_user("sara")


@pytest.fixture
def banned_user(make_user):
    return make_user("baneado", is_active=False)


@pytest.fixture
def room(player, partner, opponent):
    """A friends room: ana (0), olga (1), pablo (2) and a bot (3), started."""
    table = services.table_create_friends(user=player)
    for user in (opponent, partner):
        invitation = services.invitation_create(
            user=player, table_id=table.pk, username=user.username
        )
        services.invitation_accept(user=user, invitation_id=invitation.pk)
    services.seat_set_bot(user=player, table_id=table.pk, position=3, bot=True)
    return table


@pytest.fixture
def started_room(room, player):
    services.match_start(user=player, table_id=room.pk, seed=7)
    return room


def live_match(table) -> Match:
    return Match.objects.get(table=table, status=MatchStatus.PLAYING)


def drive_bots(table) -> None:
    while bot_runner.play_one(table.pk):
        pass


def highest_bid_else_first(legal: tuple[str, ...]) -> str:
    """The highest contract offered while bidding (its actions start with "pass"), else
    the first legal card: contracts end a match in a few hands, where passing every
    time takes some thirty pass hands of one point each."""
    return legal[-1] if legal[0] == "pass" else legal[0]


def play_out(table, users_by_seat, choose=highest_bid_else_first) -> Match:
    """Plays the match to its end: people pick `choose(legal)`, bots move by themselves."""
    while True:
        drive_bots(table)
        match = Match.objects.filter(table=table).order_by("-pk").first()
        if match.status != MatchStatus.PLAYING:
            return match
        engine = engine_match(match)
        user = users_by_seat[engine.to_play]
        services.match_play(
            user=user,
            table_id=table.pk,
            action=choose(engine.legal_actions()),
            version=match.version,
        )
