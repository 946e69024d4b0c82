from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from accounts.signals import user_banned

        user_banned.connect(_on_user_banned, dispatch_uid="games-user-banned")


def _on_user_banned(sender, user, **kwargs) -> None:
    from games.services import user_remove_from_tables

    user_remove_from_tables(user=user)
