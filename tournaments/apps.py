from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """Tournaments for pairs (docs/tournaments.md): Swiss and knockout, on tables of the
    games app's `tournament` mode (`tournaments.policies.TournamentPolicy`)."""

    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from clubs.hooks import register_club_section
        from games.modes import mode_register
        from history.hooks import register_player_section
        from tournaments.policies import TournamentPolicy
        from tournaments.selectors import club_section, player_section

        mode_register(TournamentPolicy())
        register_player_section(player_section)
        register_club_section(club_section)
