from celery import shared_task

from cuatrola_site import monitoring


@shared_task(name="cuatrola_site.beat_heartbeat")
def beat_heartbeat() -> None:
    """Beat's sign of life, run by a worker: /metrics shows its age (an alert fires
    when beat or every worker has stopped)."""
    monitoring.heartbeat_mark()
