from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HistoryConfig(AppConfig):
    """Finished matches looked back at: a player's history and page, public records,
    replays.

    Its one model, `PlayerMatch`, is written in the settlement transaction of each
    match (through `games.signals.match_finished`); everything else is read from the
    games app's rows (and the ledger and league rows when those apps are installed).
    """

    name = "history"
    verbose_name = _("Match history")

    def ready(self) -> None:
        from django.urls import reverse

        from games.hooks import register_link, register_seat_reputation
        from games.signals import match_finished
        from history.receivers import on_match_finished
        from history.selectors import reputation_by_user, reputation_of
        from ratings.hooks import register_reputation

        match_finished.connect(on_match_finished, dispatch_uid="history-match-finished")
        register_seat_reputation(reputation_of)
        register_link("match_page", lambda match_id: reverse("history_match", args=[match_id]))
        register_reputation(lambda ids: {u: r.seat for u, r in reputation_by_user(ids).items()})
