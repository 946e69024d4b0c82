"""A banned player leaves the queue and any stake table still filling (refunded)."""

from typing import Any

from django.dispatch import receiver

from accounts.models import User
from accounts.signals import user_banned


@receiver(user_banned, dispatch_uid="online_remove_banned")
def _remove_banned(sender: Any, user: User, **kwargs: Any) -> None:
    from online.services import queue_remove_banned

    queue_remove_banned(user=user)
