"""A banned player leaves the queue and any stake table still filling (refunded)."""

from django.dispatch import receiver

from accounts.signals import user_banned


@receiver(user_banned, dispatch_uid="online_remove_banned")
def _remove_banned(sender, user, **kwargs) -> None:
    from online.services import queue_remove_banned

    queue_remove_banned(user=user)
