from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("Weekly league")

    def ready(self) -> None:
        from leagues import signals  # noqa: F401  (connects the new-user signal)
