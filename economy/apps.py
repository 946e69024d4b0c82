from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EconomyConfig(AppConfig):
    name = "economy"
    verbose_name = _("Economy")

    def ready(self) -> None:
        from economy import signals  # noqa: F401  (connects the signup bonus)

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
