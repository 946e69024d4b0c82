from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EconomyConfig(AppConfig):
    name = "economy"
    verbose_name = _("Economy")

    def ready(self) -> None:
        from django.conf import settings
        from django.db.models.signals import post_save

        from economy.receivers import grant_signup_bonus

        post_save.connect(
            grant_signup_bonus,
            sender=settings.AUTH_USER_MODEL,
            dispatch_uid="economy_signup_bonus",
        )

    def seed(self) -> str:
        """Create missing default products; give users without ledger accounts their bonus."""
        from accounts.models import User
        from economy.catalogue import products_seed
        from economy.services import signup_bonus_grant

        products = products_seed()

        missing = User.objects.exclude(ledger_accounts__kind="user")
        count = 0
        for user in missing.iterator():
            signup_bonus_grant(user=user)
            count += 1
        done = []
        if products:
            done.append(f"{products} products")
        if count:
            done.append(f"signup bonus for {count} existing users")
        return ", ".join(done)
