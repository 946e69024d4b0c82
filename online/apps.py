from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OnlineConfig(AppConfig):
    name = "online"
    verbose_name = _("Online play")

    def ready(self) -> None:
        from django.urls import reverse

        from accounts.signals import user_banned
        from games.hooks import register_link, register_match_points, register_page_section
        from games.modes import mode_register
        from online.policies import OnlinePolicy, StakePolicy
        from online.receivers import remove_banned
        from online.sections import lobby_partner_section, lobby_section
        from online.services import match_league_points

        mode_register(OnlinePolicy())
        mode_register(StakePolicy())
        register_match_points(match_league_points)
        register_link("play_online", lambda: reverse("online:play"))
        register_page_section("lobby", lobby_section)
        register_page_section("lobby_invitations", lobby_partner_section)
        user_banned.connect(remove_banned, dispatch_uid="online_remove_banned")
