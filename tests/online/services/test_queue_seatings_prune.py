"""The queue's seating records (the live view's time to a seat) are kept
QUEUE_SEATING_KEEP_DAYS and deleted by beat each night (docs/operations.md)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from games.models import Mode, Table, TableStatus
from online import tasks
from online.models import QueueSeating
from online.services import queue_seatings_prune

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(make_user):
    table = Table.objects.create(mode=Mode.ONLINE, owner=make_user("o"), status=TableStatus.PLAYING)

    def at(days_ago: float, count: int = 1) -> None:
        QueueSeating.objects.bulk_create(
            QueueSeating(
                seated_at=timezone.now() - timedelta(days=days_ago),
                waited_ms=1000,
                table=table,
                bot_seats=0,
            )
            for _ in range(count)
        )

    return at


def test_only_the_seatings_past_the_keep_are_deleted(seated):
    keep = settings.QUEUE_SEATING_KEEP_DAYS
    seated(keep + 1, count=3)
    seated(keep - 0.01, count=2)  # still within it
    seated(0, count=1)
    assert queue_seatings_prune() == 3
    assert QueueSeating.objects.count() == 3
    cutoff = timezone.now() - timedelta(days=keep)
    assert not QueueSeating.objects.filter(seated_at__lt=cutoff).exists()


def test_many_old_seatings_go_in_batches_and_a_second_run_finds_none(seated):
    seated(400, count=11)
    seated(1, count=2)
    assert queue_seatings_prune(batch=4) == 11
    assert QueueSeating.objects.count() == 2
    assert queue_seatings_prune(batch=4) == 0


def test_the_keep_is_a_setting(seated, settings):
    seated(3, count=2)
    assert queue_seatings_prune() == 0
    settings.QUEUE_SEATING_KEEP_DAYS = 2
    assert queue_seatings_prune() == 2


def test_beat_runs_the_prune_each_night(seated):
    entry = settings.CELERY_BEAT_SCHEDULE["online-prune-queue-seatings"]
    assert entry["task"] == tasks.prune_queue_seatings.name
    assert entry["schedule"].hour == {4} and entry["schedule"].minute == {30}
    seated(settings.QUEUE_SEATING_KEEP_DAYS + 5, count=2)
    assert tasks.prune_queue_seatings() == 2
