from __future__ import annotations

from datetime import datetime

from django.shortcuts import get_object_or_404

from accounts.models import Ban, User


def user_by_username(username: str) -> User:
    """The active user with this username in any letter case, or 404."""
    return get_object_or_404(User, username__iexact=username, is_active=True)


def ban_in_force(user_id: int, at: datetime | None = None) -> Ban | None:
    """The ban keeping this user out right now, if any (the services keep at most one)."""
    return Ban.objects.active(at).filter(user_id=user_id).order_by("-created_at", "-pk").first()
