"""The coach's Celery task (thin: it calls the service). It runs on the bots queue:
the same workers that think for the bots, CPU-bound work kept off the web
processes (cuatrola_site/celery.py routes it)."""

from __future__ import annotations

from celery import shared_task

from coach import services


@shared_task(name="coach.analyse", ignore_result=True)
def analyse(analysis_id: int) -> None:
    """Idempotent: an analysis already done, or under way elsewhere, is left alone;
    one stopped half-way resumes after its last stored decision."""
    services.analysis_run(analysis_id=analysis_id)
