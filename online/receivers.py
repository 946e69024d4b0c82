"""The online app's signal receivers, connected in `OnlineConfig.ready()`: a banned
player leaves the queue and any stake table still filling (refunded)."""

from typing import Any

from accounts.models import User
from online.services import queue_remove_banned


def remove_banned(sender: Any, user: User, **kwargs: Any) -> None:
    queue_remove_banned(user=user)
