"""A timed-out turn: the bot's move is chosen with no lock held, then applied only
if the match is still where the bot saw it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from games import services
from games.models import ActionSource, Match, MatchAction
from games.services import play
from games.state import engine_match
from tests.games.conftest import drive_bots, live_match
from tests.threads import run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _turn_runs_out(table) -> Match:
    drive_bots(table)  # a player's turn now
    match = live_match(table)
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    return live_match(table)


def _lock_the_table_elsewhere(table_id: int) -> bool:
    """Another connection takes the table's row lock without waiting."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT id FROM games_table WHERE id = %s FOR UPDATE NOWAIT", [table_id])
    return True


def test_a_timed_out_turns_bot_thinks_while_nothing_is_locked(started_room, monkeypatch):
    match = _turn_runs_out(started_room)
    think = play.bot_action
    while_thinking = []

    def watched(*args):
        while_thinking.extend(run_together(1, lambda _: _lock_the_table_elsewhere(match.table_id)))
        return think(*args)

    monkeypatch.setattr(play, "bot_action", watched)
    assert services.match_timeout(match_id=match.pk, version=match.version)
    assert while_thinking == [True]
    last = MatchAction.objects.filter(match=match).order_by("-number").first()
    assert last.source == ActionSource.TIMEOUT and last.number == match.version + 1


def test_a_timed_out_move_is_dropped_when_the_player_moved_while_the_bot_thought(
    started_room, player, partner, opponent, monkeypatch
):
    match = _turn_runs_out(started_room)
    users = {0: player, 1: opponent, 2: partner}
    think = play.bot_action

    def player_moves_meanwhile(engine, table, seen, position):
        action = think(engine, table, seen, position)
        services.match_play(
            user=users[position],
            table_id=table.pk,
            action=engine_match(seen).legal_actions()[0],
            version=seen.version,
        )
        return action

    monkeypatch.setattr(play, "bot_action", player_moves_meanwhile)
    assert not services.match_timeout(match_id=match.pk, version=match.version)
    actions = MatchAction.objects.filter(match=match, number__gt=match.version)
    assert [a.source for a in actions] == [ActionSource.PLAYER]
