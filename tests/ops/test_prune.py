"""ops.prune.delete_in_batches: the nightly prunes' deletion, oldest first, a batch a
transaction."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import SignIn
from ops.prune import delete_in_batches

pytestmark = pytest.mark.django_db


def test_rows_go_oldest_first_a_batch_a_transaction_until_none_is_left(player):
    now = timezone.now()
    SignIn.objects.bulk_create(
        SignIn(user=player, at=now - timedelta(days=d), device="d" * 64) for d in range(7)
    )
    old = SignIn.objects.filter(at__lt=now - timedelta(days=2.5))
    with CaptureQueriesContext(connection) as queries:
        assert delete_in_batches(old, order_by="at", batch=3) == 4
    savepoints = [q for q in queries.captured_queries if q["sql"].startswith("SAVEPOINT")]
    assert len(savepoints) == 2  # two batches: three rows, then one
    assert SignIn.objects.count() == 3
    assert delete_in_batches(old, order_by="at", batch=3) == 0
