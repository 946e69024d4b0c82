"""A Celery worker keeps consuming across a Redis restart (issue 42): a worker of the
site's app against a private redis-server, a task run, Redis killed and started
again empty, and the tasks sent after it still run, with no worker restart
(docs/operations.md, "Mechanisms")."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from celery import Celery

from tests.redis_server import redis_server

pytestmark = pytest.mark.redis

ROOT = Path(__file__).resolve().parents[2]


def _wait_for_line(path: Path, text: str, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and text in path.read_text().split():
            return True
        time.sleep(0.1)
    return False


def test_a_worker_keeps_consuming_after_a_redis_restart(tmp_path):
    out = tmp_path / "ran.txt"
    log = tmp_path / "worker.log"
    with redis_server(tmp_path) as server:
        env = {
            **os.environ,
            "REDIS_URL": server.url,
            "CELERY_SKIP_CHECKS": "1",
            "PYTHONPATH": str(ROOT),
            "DJANGO_SETTINGS_MODULE": "cuatrola_site.settings",
        }
        with log.open("wb") as log_file:
            worker = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "--app",
                    "cuatrola_site",
                    "worker",
                    "--queues",
                    "celery,bots",
                    "--concurrency",
                    "1",
                    "--loglevel",
                    "INFO",
                    "--include",
                    "tests.cuatrola_site.celery_probe",
                ],
                cwd=ROOT,
                env=env,
                stdout=log_file,
                stderr=subprocess.STDOUT,
            )
        sender = Celery("probe", broker=server.url)
        try:

            def send(text: str) -> None:
                sender.send_task("tests.probe_touch", args=[str(out), text], queue="celery")

            send("before")
            assert _wait_for_line(out, "before", 20), log.read_text()[-3000:]

            server.restart()
            send("after")  # queued in the new, empty Redis before the worker is back
            assert _wait_for_line(out, "after", 15), log.read_text()[-3000:]
            send("later")
            assert _wait_for_line(out, "later", 10), log.read_text()[-3000:]
            assert worker.poll() is None  # the same worker, never restarted
        finally:
            sender.close()
            if worker.poll() is None:
                worker.send_signal(signal.SIGTERM)
                try:
                    worker.wait(10)
                except subprocess.TimeoutExpired:
                    worker.kill()
                    worker.wait(10)
