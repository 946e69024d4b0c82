"""Several processes on one host (a worker's pool, several web processes) count in
PROMETHEUS_MULTIPROC_DIR, and /metrics serves their sum."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

COUNT = """
import django
django.setup()
from ops import metrics
metrics.TIMEOUTS.inc(3)
metrics.SOCKETS_OPEN.labels("player").inc()
"""

SERVE = """
import django
django.setup()
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families
from cuatrola_site import monitoring
from cuatrola_site.monitoring import metrics_registry
monitoring.StateCollector.collect = lambda self: iter(())  # no database in this process
text = generate_latest(metrics_registry()).decode()
for family in text_string_to_metric_families(text):
    for sample in family.samples:
        if sample.name in ("cuatrola_turn_timeouts_total", "cuatrola_sockets_open"):
            print(sample.name, dict(sample.labels), sample.value)
"""


def _run(code: str, folder: Path) -> str:
    env = {
        **os.environ,
        "PROMETHEUS_MULTIPROC_DIR": str(folder),
        "DJANGO_SETTINGS_MODULE": "cuatrola_site.settings",
        "DEBUG": "1",
    }
    env.pop("DATABASE_URL", None)  # the counts need no database (SQLite, never opened)
    env.pop("REDIS_URL", None)
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_two_processes_counts_are_summed_and_the_dead_ones_sockets_drop(tmp_path):
    _run(COUNT, tmp_path)
    _run(COUNT, tmp_path)
    lines = _run(SERVE, tmp_path).splitlines()
    assert "cuatrola_turn_timeouts_total {} 6.0" in lines, lines
    # Open sockets count only while their process lives (livesum): both exited.
    assert not any(line.startswith("cuatrola_sockets_open") for line in lines), lines
