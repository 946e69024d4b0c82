import atexit
import os

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
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            # A process that ends stops counting in the live gauges (open sockets);
            # one killed outright leaves its file: empty the folder at each start.
            from prometheus_client import multiprocess

            atexit.register(multiprocess.mark_process_dead, os.getpid())
