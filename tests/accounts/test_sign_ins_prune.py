"""Sign-in records are kept SIGN_IN_KEEP_DAYS (90) and deleted by beat each night
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


def signed_in(user, *ages_in_days: float) -> None:
    now = timezone.now()
    SignIn.objects.bulk_create(
        SignIn(user=user, at=now - timedelta(days=age), network="n" * 64, device="d" * 64)
        for age in ages_in_days
    )


def ages_left() -> list[int]:
    now = timezone.now()
    return sorted(
        round((now - at).total_seconds() / 86400)
        for at in SignIn.objects.values_list("at", flat=True)
    )


def test_the_records_past_ninety_days_are_deleted_in_batches(player):
    assert settings.SIGN_IN_KEEP_DAYS == 90
    signed_in(player, 400, 200, 91, 90.01, 89.99, 30, 0)
    assert sign_ins_prune(batch=2) == 4
    assert ages_left() == [0, 30, 90]
    assert sign_ins_prune(batch=2) == 0


def test_the_keep_is_a_setting(player, settings):
    signed_in(player, 3, 1)
    settings.SIGN_IN_KEEP_DAYS = 2
    assert sign_ins_prune() == 1 and ages_left() == [1]


def test_beat_runs_the_prune_each_night_at_a_quarter_to_five(player):
    entry = settings.CELERY_BEAT_SCHEDULE["accounts-prune-sign-ins"]
    assert entry["task"] == tasks.prune_sign_ins.name == "accounts.prune_sign_ins"
    assert entry["schedule"].hour == {4} and entry["schedule"].minute == {45}
    signed_in(player, 95, 100, 1)
    assert tasks.prune_sign_ins() == 2
