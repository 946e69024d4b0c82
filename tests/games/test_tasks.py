"""The games app's Celery tasks are idempotent: acknowledged late, a task delivered
again (its worker was killed while it ran, docs/operations.md "Mechanisms") does
nothing the first delivery did not."""

from __future__ import annotations

import pytest

from games import bot_runner, services, tasks
from games.models import MatchAction, Seat
from tests.games.conftest import live_match

pytestmark = pytest.mark.django_db


def _bots_turn(table):
    """The match moved on (the player's clock run out by the sweep's move) until a bot
    is to play."""
    for _ in range(50):
        match = live_match(table)
        if Seat.objects.get(table=table, position=match.to_play).bot_controlled:
            return match
        engine_version = match.version
        match.turn_deadline = match.started_at  # long past
        match.save(update_fields=["turn_deadline"])
        assert services.match_timeout(match_id=match.pk, version=engine_version)
    raise AssertionError("no bot's turn came")


def test_a_bot_move_task_delivered_twice_plays_one_move(player):
    table = services.table_create_practice(user=player, rules="online", bot_level="easy")
    match = _bots_turn(table)
    version = match.version
    tasks.bot_move(table.pk, version)
    tasks.bot_move(table.pk, version)  # delivered again
    assert live_match(table).version == version + 1
    assert MatchAction.objects.filter(match=match).count() == version + 1


def test_a_bot_move_task_for_a_version_the_sweep_already_played_does_nothing(player):
    table = services.table_create_practice(user=player, rules="online", bot_level="easy")
    match = _bots_turn(table)
    version = match.version
    match.turn_deadline = match.started_at
    match.save(update_fields=["turn_deadline"])
    assert services.match_timeout(match_id=match.pk, version=version)  # the safety net
    tasks.bot_move(table.pk, version)  # the lost task, delivered late
    assert live_match(table).version == version + 1


def test_the_bot_move_task_is_queued_with_the_version_it_plays(
    player, settings, monkeypatch, django_capture_on_commit_callbacks
):
    queued = []
    monkeypatch.setattr(tasks.bot_move, "apply_async", lambda args, **options: queued.append(args))
    settings.BOT_RUNNER = "celery"
    table = services.table_create_practice(user=player, rules="online", bot_level="easy")
    match = _bots_turn(table)
    queued.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert bot_runner.play_one(table.pk)
    after = live_match(table)
    if Seat.objects.get(table=table, position=after.to_play).bot_controlled:
        assert queued == [(table.pk, match.version + 1)]
    else:
        assert queued == []
