from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EconomyConfig(AppConfig):
    name = "economy"
    verbose_name = _("Economy")

    def ready(self) -> None:
        from economy import signals  # noqa: F401  (connects the signup bonus)

    def seed(self) -> str:
        """Give every user who has no ledger accounts yet their accounts and signup bonus."""
        from accounts.models import User
        from economy.services import signup_bonus_grant

        missing = User.objects.exclude(ledger_accounts__kind="user")
        count = 0
        for user in missing.iterator():
            signup_bonus_grant(user=user)
            count += 1
        return f"signup bonus for {count} existing users" if count else ""
