"""deploy/: the alert rules and Prometheus's configuration pass promtool, the alerts
fire on the series that should fire them, and every figure the rules and the
dashboard read is one the site exports."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from prometheus_client.metrics import MetricWrapperBase

from ops import metrics

ROOT = Path(__file__).resolve().parents[2]
PROMETHEUS = ROOT / "deploy" / "prometheus"
DASHBOARD = ROOT / "deploy" / "grafana" / "dashboards" / "cuatrola.json"

# The figures /metrics reads at scrape time (cuatrola_site/monitoring.StateCollector).
STATE = {
    "cuatrola_tables_playing",
    "cuatrola_queue_waiting",
    "cuatrola_queue_oldest_wait_seconds",
    "cuatrola_ledger_audit_ok",
    "cuatrola_ledger_audit_age_seconds",
    "cuatrola_league_week_overdue_seconds",
    "cuatrola_beat_heartbeat_age_seconds",
    "cuatrola_celery_queue_depth",
}


def exported() -> set[str]:
    names = set(STATE)
    for value in vars(metrics).values():
        if not isinstance(value, MetricWrapperBase):
            continue
        for family in value.describe():
            names.add(family.name)
            for suffix in ("_total", "_bucket", "_count", "_sum"):
                names.add(family.name + suffix)
    return names


def series_in(expression: str) -> set[str]:
    return set(re.findall(r"\b(cuatrola_[a-z_]+)", expression))


def promtool() -> str:
    found = shutil.which("promtool")
    if found is None:
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail("promtool is missing (apt-get install prometheus)")
        pytest.skip("promtool is missing (apt-get install prometheus)")
    return found


def test_promtool_accepts_the_rules_and_the_configuration():
    tool = promtool()
    for command in (
        [tool, "check", "rules", "alerts.yml"],
        [tool, "check", "config", "prometheus.yml"],
        [tool, "test", "rules", "alerts_test.yml"],
    ):
        result = subprocess.run(command, cwd=PROMETHEUS, capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr


def test_the_rules_read_only_figures_the_site_exports():
    rules = yaml.safe_load((PROMETHEUS / "alerts.yml").read_text())
    names = exported()
    alerts = [rule for group in rules["groups"] for rule in group["rules"]]
    assert {
        "MovesSlow",
        "QueueSlowToSeat",
        "AbandonmentsDoubled",
        "LedgerAuditFailing",
        "LedgerAuditStale",
        "LeagueWeekNotClosed",
        "BeatSilent",
    } <= {rule["alert"] for rule in alerts}
    for rule in alerts:
        assert series_in(rule["expr"]) <= names, rule["alert"]


def test_the_dashboard_is_grafana_json_over_exported_figures():
    dashboard = json.loads(DASHBOARD.read_text())
    assert dashboard["uid"] and dashboard["panels"]
    names = exported()
    shown = set()
    for panel in dashboard["panels"]:
        for target in panel["targets"]:
            assert series_in(target["expr"]) <= names, panel["title"]
            shown |= series_in(target["expr"])
    # Every figure an alert watches is on the dashboard too.
    rules = yaml.safe_load((PROMETHEUS / "alerts.yml").read_text())
    watched = set().union(*(series_in(r["expr"]) for g in rules["groups"] for r in g["rules"]))
    assert watched - {"up"} <= shown
