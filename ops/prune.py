"""Deleting old rows in batches: the nightly prunes of records kept for a while
(online's queue seatings, accounts' sign-ins; docs/operations.md)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet


def delete_in_batches(rows: QuerySet[Any], *, order_by: str, batch: int) -> int:
    """Deletes `rows` oldest first (by `order_by`, an indexed column), `batch` at a
    time, each batch its own transaction, so the table is never held long. Returns
    how many rows were deleted."""
    deleted = 0
    while True:
        with transaction.atomic():
            ids = list(rows.order_by(order_by).values_list("pk", flat=True)[:batch])
            if ids:
                deleted += rows.model.objects.filter(pk__in=ids).delete()[0]
        if len(ids) < batch:
            return deleted
