from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OnlineConfig(AppConfig):
    name = "online"
    verbose_name = _("Online play")

    def ready(self) -> None:
        from games.hooks import register_match_points
        from games.modes import mode_register
        from online import signals  # noqa: F401  (connects the ban handler)
        from online.policies import OnlinePolicy, StakePolicy
        from online.services import match_league_points

        mode_register(OnlinePolicy())
        mode_register(StakePolicy())
        register_match_points(match_league_points)
