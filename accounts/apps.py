import os

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    # Not "Accounts": allauth's e-mail addresses section is already called that.
    verbose_name = _("Users and moderation")

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from accounts.groups import ensure_staff_groups

        # After every app's migrations (not only ours): other apps' permissions join too.
        post_migrate.connect(ensure_staff_groups, dispatch_uid="accounts.staff_groups")

        from django.contrib.auth.signals import user_logged_in, user_logged_out
        from django.db.models.signals import post_save

        from accounts.models import User
        from accounts.receivers import (
            close_sockets_on_logout,
            close_sockets_on_password_change,
            record_sign_in,
        )

        user_logged_out.connect(close_sockets_on_logout, dispatch_uid="accounts.logout_sockets")
        user_logged_in.connect(record_sign_in, dispatch_uid="accounts.record_sign_in")
        post_save.connect(
            close_sockets_on_password_change,
            sender=User,
            dispatch_uid="accounts.password_sockets",
        )

    def seed(self) -> str:
        """An administrator from ADMIN_USERNAME / ADMIN_EMAIL / ADMIN_PASSWORD, if given."""
        username = os.environ.get("ADMIN_USERNAME")
        password = os.environ.get("ADMIN_PASSWORD")
        if not username or not password:
            return ""
        from accounts.models import User

        if User.objects.filter(username__iexact=username).exists():
            return ""
        email = os.environ.get("ADMIN_EMAIL", f"{username}@localhost")
        User.objects.create_superuser(username=username, email=email, password=password)
        return f"administrator {username} created"
