from django.shortcuts import get_object_or_404

from accounts.models import User


def user_by_username(username: str) -> User:
    """The active user with this username in any letter case, or 404."""
    return get_object_or_404(User, username__iexact=username, is_active=True)
