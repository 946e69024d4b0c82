from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FairplayConfig(AppConfig):
    """Fair play: the nightly collusion screen (docs/fairplay.md). Pairs of accounts
    who often sit together are screened for lucky guesses, coins moved between them
    and their results; flagged pairs wait in the admin for staff to decide. It reads
    the apps below it and nothing imports it."""

    name = "fairplay"
    verbose_name = _("Fair play")
