from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from accounts.hooks import (
            register_group_sender,
            register_match_players,
            register_match_talk,
        )
        from accounts.signals import user_banned
        from economy.signals import balances_changed
        from games import bot_runner, hooks, selectors
        from games.fanout import transport
        from games.modes import mode_register
        from games.policies import FriendsPolicy, PracticePolicy
        from games.receivers import balances_tell_sockets, banned_user_leave_tables

        mode_register(PracticePolicy())
        mode_register(FriendsPolicy())
        hooks.register_bot_scheduler(bot_runner.schedule)
        register_group_sender(transport.group_send)
        register_match_players(selectors.match_players)
        register_match_talk(selectors.talk_said)
        user_banned.connect(banned_user_leave_tables, dispatch_uid="games-user-banned")
        balances_changed.connect(balances_tell_sockets, dispatch_uid="games-balances-changed")
