"""Every new user starts in Bronze: their membership row is created with the user."""

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="leagues_membership_on_signup")
def membership_on_signup(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    if created and not raw:
        from leagues.services import league_membership_ensure

        league_membership_ensure(user=instance)
