"""Every new user starts in Bronze: their membership row is created with the user."""

from typing import Any

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.models import User


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="leagues_membership_on_signup")
def membership_on_signup(
    sender: type[User], instance: User, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    if created and not raw:
        from leagues.services import league_membership_ensure

        league_membership_ensure(user=instance)
