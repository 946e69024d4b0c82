"""Fair play's Celery task (thin: it calls the service). Beat runs it each night
(`fairplay-screen`, CELERY_BEAT_SCHEDULE); it runs on the bots queue, whose workers
do the same CPU-bound searches (cuatrola_site/celery.py routes it)."""

from __future__ import annotations

from celery import shared_task

from fairplay import services


@shared_task(name="fairplay.screen", ignore_result=True)
def screen() -> None:
    """Idempotent: a match screened before is never analysed again, and a pair flagged
    before gets its evidence updated, never a second flag."""
    services.screen_run()
