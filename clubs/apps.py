from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    """Clubs (docs/clubs.md). Games asks it, through its hooks, whether a player may
    be invited to a club's table, and shows its lobby region; the finished matches of
    two members or more are recorded for the club page."""

    name = "clubs"
    verbose_name = _("Clubs")

    def ready(self) -> None:
        from clubs.receivers import on_match_finished
        from clubs.sections import lobby_section
        from clubs.selectors import invitation_refusal
        from games.hooks import register_invitation_rule, register_page_section
        from games.signals import match_finished

        register_invitation_rule(invitation_refusal)
        register_page_section("lobby", lobby_section)
        match_finished.connect(on_match_finished, dispatch_uid="clubs_match_finished")
