from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:  # not at import: the app registry is not ready then
    from accounts.models import User


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from accounts.hooks import register_group_sender, register_match_players
        from accounts.signals import user_banned
        from economy.signals import balances_changed
        from games import bot_runner, broadcast, hooks, selectors
        from games.modes import mode_register
        from games.policies import FriendsPolicy, PracticePolicy

        mode_register(PracticePolicy())
        mode_register(FriendsPolicy())
        hooks.register_bot_scheduler(bot_runner.schedule)
        register_group_sender(broadcast.group_send)
        register_match_players(selectors.match_players)
        user_banned.connect(_on_user_banned, dispatch_uid="games-user-banned")
        balances_changed.connect(_on_balances_changed, dispatch_uid="games-balances-changed")


def _on_user_banned(sender: Any, user: User, **kwargs: Any) -> None:
    from games.services import user_remove_from_tables

    user_remove_from_tables(user=user)


def _on_balances_changed(sender: Any, user_ids: list[int], **kwargs: Any) -> None:
    """A payout, refund or stake moved these users' coins: their sockets learn the new
    balances (the table page and the lobby update the nav in place)."""
    from games import broadcast, selectors

    broadcast.send_balances(selectors.user_balances(user_ids))
