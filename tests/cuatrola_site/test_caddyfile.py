"""The shipped Caddyfile, as Caddy reads it (`caddy adapt`): every upstream is health
checked, so a dead or draining web process leaves the rotation within seconds and
`uri_hash` sends its tables to the survivors (docs/operations.md, "Mechanisms")."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.conftest import CADDY_PATH
from tests.cuatrola_site.test_front_door import CADDYFILE

pytestmark = pytest.mark.caddy

SECOND = 1_000_000_000  # Caddy's durations are nanoseconds in JSON


def _proxies() -> list[dict]:
    adapted = subprocess.run(
        [CADDY_PATH, "adapt", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
        env={**os.environ, "SITE_ADDRESS": ":8099", "WEB_UPSTREAMS": "a:8000 b:8000"},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    found: list[dict] = []

    def walk(node) -> None:
        if isinstance(node, dict):
            if node.get("handler") == "reverse_proxy":
                found.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads(adapted.stdout))
    return found


def test_every_upstream_is_health_checked_and_a_failing_one_leaves_quickly():
    proxies = _proxies()
    assert len(proxies) == 2  # the tables' sockets and everything else
    policies = set()
    for proxy in proxies:
        checks = proxy["health_checks"]
        assert checks["active"]["uri"] == "/healthz"
        assert checks["active"]["interval"] == 2 * SECOND
        assert checks["active"]["timeout"] <= 2 * SECOND
        assert checks["passive"]["fail_duration"] == 5 * SECOND
        assert [u["dial"] for u in proxy["upstreams"]] == ["a:8000", "b:8000"]
        policies.add(proxy["load_balancing"]["selection_policy"]["policy"])
    assert policies == {"uri_hash", "round_robin"}
