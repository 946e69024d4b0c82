"""Sign-in records are kept SIGN_IN_KEEP_DAYS and deleted by beat each night
(docs/moderation.md, "Linked accounts"; docs/operations.md)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from accounts import tasks
from accounts.models import SignIn
from accounts.services import sign_ins_prune

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed_in(player):
    def at(days_ago: float, count: int = 1) -> None:
        SignIn.objects.bulk_create(
            SignIn(
                user=player,
                at=timezone.now() - timedelta(days=days_ago),
                network="n" * 64,
                device="d" * 64,
            )
            for _ in range(count)
        )

    return at


def test_only_the_sign_ins_past_the_keep_are_deleted(signed_in):
    keep = settings.SIGN_IN_KEEP_DAYS
    assert keep == 90
    signed_in(keep + 1, count=3)
    signed_in(keep - 0.01, count=2)  # still within it
    signed_in(0, count=1)
    assert sign_ins_prune() == 3
    assert SignIn.objects.count() == 3
    cutoff = timezone.now() - timedelta(days=keep)
    assert not SignIn.objects.filter(at__lt=cutoff).exists()


def test_many_old_sign_ins_go_in_batches_and_a_second_run_finds_none(signed_in):
    signed_in(400, count=11)
    signed_in(1, count=2)
    assert sign_ins_prune(batch=4) == 11
    assert SignIn.objects.count() == 2
    assert sign_ins_prune(batch=4) == 0


def test_the_keep_is_a_setting(signed_in, settings):
    signed_in(3, count=2)
    assert sign_ins_prune() == 0
    settings.SIGN_IN_KEEP_DAYS = 2
    assert sign_ins_prune() == 2


def test_beat_runs_the_prune_each_night(signed_in):
    entry = settings.CELERY_BEAT_SCHEDULE["accounts-prune-sign-ins"]
    assert entry["task"] == tasks.prune_sign_ins.name
    assert entry["schedule"].hour == {4} and entry["schedule"].minute == {45}
    signed_in(settings.SIGN_IN_KEEP_DAYS + 5, count=2)
    assert tasks.prune_sign_ins() == 2
