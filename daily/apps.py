from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DailyConfig(AppConfig):
    """The daily deal (docs/daily.md): the same six deals for everyone each day, played
    once against hard bots, scored against everyone who held them (matchpoints).

    Its tables are a mode of the games app (`daily.policies.DailyPolicy`); the
    lobby's link and offline practice's replay of past days are regions it adds to
    games' pages (`games.hooks.register_page_section`); the player page shows a
    player's days through `history.hooks`."""

    name = "daily"
    verbose_name = _("Daily deal")

    def ready(self) -> None:
        from daily.policies import DailyPolicy
        from daily.sections import lobby_section, offline_section
        from daily.selectors import player_section
        from games.hooks import register_page_section
        from games.modes import mode_register
        from history.hooks import register_player_section

        mode_register(DailyPolicy())
        register_player_section(player_section)
        register_page_section("lobby", lobby_section)
        register_page_section("offline", offline_section)
