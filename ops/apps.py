from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Operating the site: metrics, structured logs, request ids, error reporting.

    The lowest layer: every app may record a metric or read the request id; this
    app imports none of them (docs/operations.md, "Metrics, logs and alerts")."""

    name = "ops"
    verbose_name = "Operations"

    def ready(self) -> None:
        from django.conf import settings

        from ops import hooks, metrics

        metrics.ENABLED = settings.METRICS_ENABLED
        hooks.connect(metrics=metrics.ENABLED)
