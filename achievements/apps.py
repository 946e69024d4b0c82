from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AchievementsConfig(AppConfig):
    """Achievements earned from settled matches, exactly once (docs/achievements.md).

    Nothing imports this app: it hears of each settled match through games'
    `match_finished` signal, of each closed day, league week and finished tournament
    through games' `results_recorded`, and shows itself on the player page through history's
    player sections, both registered here."""

    name = "achievements"
    verbose_name = _("Achievements")

    def ready(self) -> None:
        from achievements.receivers import on_match_finished, on_results_recorded
        from achievements.selectors import player_section
        from games.signals import match_finished, results_recorded
        from history.hooks import register_player_section

        match_finished.connect(on_match_finished, dispatch_uid="achievements-match-finished")
        results_recorded.connect(on_results_recorded, dispatch_uid="achievements-results")
        register_player_section(player_section)
