from __future__ import annotations

from datetime import datetime

from django.db import connection
from django.db.models import QuerySet
from django.db.models.functions import Lower
from django.shortcuts import get_object_or_404
from django.utils import timezone

from accounts.models import Ban, User


def active_users_named(username: str) -> QuerySet[User]:
    """The active user with this username in any letter case (none or one): compared
    as LOWER(username), so the case-insensitive unique index finds it (`iexact`
    compares UPPER() and scans the whole table)."""
    return User.objects.alias(username_lower=Lower("username")).filter(
        username_lower=username.lower(), is_active=True
    )


def user_by_username(username: str) -> User:
    """The active user with this username in any letter case, or 404."""
    return get_object_or_404(active_users_named(username))


def ban_in_force(user_id: int, at: datetime | None = None) -> Ban | None:
    """The ban keeping this user out right now, if any (the services keep at most one).

    Asked on every logged-in request (BannedUserMiddleware): almost always there is
    none, so a plain SQL probe (the same conditions) comes first and the ban is only
    loaded when one is in force."""
    at = at or timezone.now()
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT 1 FROM {Ban._meta.db_table} WHERE user_id = %s AND lifted_at IS NULL "
            'AND ("until" IS NULL OR "until" > %s) LIMIT 1',
            [user_id, connection.ops.adapt_datetimefield_value(at)],
        )
        if cursor.fetchone() is None:
            return None
    return Ban.objects.active(at).filter(user_id=user_id).order_by("-created_at", "-pk").first()
