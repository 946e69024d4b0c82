from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HistoryConfig(AppConfig):
    """Finished matches looked back at: a player's history, public records, replays.

    Read-only: it owns no models and reads the games app's rows (and the ledger's
    rewards when the economy app is installed).
    """

    name = "history"
    verbose_name = _("Match history")
