"""Where an analysis runs: the Celery task on the bots queue (scaled), a background
thread (embedded), or nowhere (tests); the task itself runs the service once."""

from __future__ import annotations

import pytest

from coach import runner, services, tasks
from coach.models import AnalysisStatus, Decision
from cuatrola_site.celery import app

pytestmark = pytest.mark.django_db


def test_the_task_is_routed_to_the_bots_queue():
    assert app.conf.task_routes["coach.analyse"] == {"queue": "bots"}
    assert tasks.analyse.name == "coach.analyse"


def test_with_celery_the_analysis_is_sent_to_the_bots_queue(settings, monkeypatch):
    sent = []
    monkeypatch.setattr(tasks.analyse, "apply_async", lambda args, **kw: sent.append((args, kw)))
    settings.COACH_RUNNER = "celery"
    runner.analysis_schedule(7)
    settings.COACH_RUNNER = "auto"
    settings.CELERY_TASK_ALWAYS_EAGER = False
    runner.analysis_schedule(8)
    assert sent == [((7,), {"queue": "bots"}), ((8,), {"queue": "bots"})]


def test_off_runs_nothing(settings, monkeypatch):
    monkeypatch.setattr(tasks.analyse, "apply_async", lambda *a, **kw: pytest.fail("queued"))
    monkeypatch.setattr(runner, "_executor", None)
    settings.COACH_RUNNER = "off"
    runner.analysis_schedule(7)
    assert runner._executor is None


def test_the_task_runs_the_analysis_and_a_second_delivery_does_nothing(played, player):
    analysis = services.analysis_request(user=player, match_id=played.pk)
    tasks.analyse(analysis.pk)
    analysis.refresh_from_db()
    assert analysis.status == AnalysisStatus.DONE
    judged = list(Decision.objects.filter(analysis=analysis).values_list("pk", "loss"))
    tasks.analyse(analysis.pk)  # redelivered
    assert list(Decision.objects.filter(analysis=analysis).values_list("pk", "loss")) == judged
