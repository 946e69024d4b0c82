from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoachConfig(AppConfig):
    """The coach: each decision of a finished match judged from the seat that made
    it (docs/coach.md), shown in the replay, practised against the bots, and the
    trends of the player page."""

    name = "coach"
    verbose_name = _("Coach")

    def ready(self) -> None:
        from coach.hooks import register_analysis_scheduler
        from coach.policies import PositionPolicy
        from coach.runner import analysis_schedule
        from games.modes import mode_register

        mode_register(PositionPolicy())
        register_analysis_scheduler(analysis_schedule)
