from typing import Any

from django.http import HttpRequest


def bell(request: HttpRequest) -> dict[str, Any]:
    """`notifications_unread`: the cached unread count (None: not cached; the bell then
    asks for it once over HTTP). Never a database query on an ordinary page."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    from notifications.cached import cached_unread_count

    return {"notifications_unread": cached_unread_count(user.pk)}
