"""The periodic sweep: in the beat schedule, and doing the bot fill and the cancellations."""

from __future__ import annotations

from datetime import timedelta

import pytest

from cuatrola_site.celery import app
from games.models import Seat, Table, TableStatus
from online import services
from online.models import QueueEntry, StakeTable
from online.tasks import sweep

pytestmark = pytest.mark.django_db


def test_the_sweep_is_in_the_beat_schedule():
    entry = app.conf.beat_schedule["online-sweep"]
    assert entry["task"] == "online.sweep" and entry["schedule"] == 1.0


def test_the_sweep_task_fills_with_bots_and_cancels_stale_stake_tables(players, coins_of):
    waiting, opener = players(2)
    services.queue_join(user=waiting)
    QueueEntry.objects.update(joined_at=QueueEntry.objects.get().joined_at - timedelta(seconds=21))
    table = services.stake_table_open(user=opener, stake=100)
    StakeTable.objects.update(
        expires_at=StakeTable.objects.get().expires_at - timedelta(seconds=121)
    )
    assert sweep.apply().get() == {"tables": 1, "cancelled": 1}
    assert Seat.objects.filter(user=waiting, live=True, table__mode="online").exists()
    assert Table.objects.get(pk=table.pk).status == TableStatus.CANCELLED
    assert coins_of(opener) == 1000


def test_a_banned_player_at_a_filling_stake_table_is_refunded(
    players, coins_of, staff_user, django_capture_on_commit_callbacks
):
    from accounts.services import user_ban

    opener, other = players(2)
    table = services.stake_table_open(user=opener, stake=250)
    services.stake_table_sit(user=other, table_id=table.pk)
    with django_capture_on_commit_callbacks(execute=True):
        user_ban(staff_user=staff_user, user=other, reason="cheating")
    assert coins_of(other) == 1000
    assert not Seat.objects.filter(user=other, live=True).exists()
    assert Table.objects.get(pk=table.pk).status == TableStatus.OPEN
