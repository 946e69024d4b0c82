from __future__ import annotations

from datetime import datetime

from django.db.models import QuerySet
from django.db.models.functions import Lower
from django.shortcuts import get_object_or_404

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
    """The ban keeping this user out right now, if any (the services keep at most one)."""
    return Ban.objects.active(at).filter(user_id=user_id).order_by("-created_at", "-pk").first()
