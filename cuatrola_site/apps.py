from django.apps import AppConfig
from django.core import checks


class SiteConfig(AppConfig):
    name = "cuatrola_site"
    verbose_name = "Cuatrola site"

    def ready(self) -> None:
        from cuatrola_site.checks import check_timing_settings

        checks.register(check_timing_settings)
