from typing import Any

from django.http import HttpRequest


def bell(request: HttpRequest) -> dict[str, Any]:
    """`notifications_unread`: the cached unread count (None: not cached; the bell then
    asks for it once over HTTP), and `notifications_poll`: how often (seconds) the bell
    of a page without the lobby socket reads the cached count again. Never a database
    query on an ordinary page."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    from django.conf import settings

    from notifications.cached import cached_unread_count

    return {
        "notifications_unread": cached_unread_count(user.pk),
        "notifications_poll": settings.NOTIFICATIONS_BELL_POLL_SECONDS,
    }
