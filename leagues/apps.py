from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("Weekly league")

    def ready(self) -> None:
        from django.conf import settings
        from django.db.models.signals import post_save

        from leagues.receivers import membership_on_signup

        post_save.connect(
            membership_on_signup,
            sender=settings.AUTH_USER_MODEL,
            dispatch_uid="leagues_membership_on_signup",
        )
