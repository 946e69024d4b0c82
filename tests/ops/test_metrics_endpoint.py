"""/metrics: Prometheus's text format, every named metric, only for allowed addresses."""

from __future__ import annotations

from datetime import timedelta
from ipaddress import ip_network

import pytest
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from economy.models import LedgerAudit
from games.models import Mode, Table, TableStatus
from leagues.models import LeagueWeek, WeekStatus
from online.models import QueueEntry

pytestmark = pytest.mark.django_db

# Every figure the issue names, by the family name Prometheus's parser gives it.
NAMED = {
    "cuatrola_http_requests",
    "cuatrola_http_request_seconds",
    "cuatrola_db_queries",
    "cuatrola_db_query_seconds",
    "cuatrola_cache_gets",
    "cuatrola_sockets_open",
    "cuatrola_tables_playing",
    "cuatrola_moves",
    "cuatrola_move_seconds",
    "cuatrola_queue_waiting",
    "cuatrola_queue_oldest_wait_seconds",
    "cuatrola_queue_seat_seconds",
    "cuatrola_queue_seats",
    "cuatrola_turn_timeouts",
    "cuatrola_absences",
    "cuatrola_abandonments",
    "cuatrola_matches_settled",
    "cuatrola_matches_started",
    "cuatrola_currency_issued",
    "cuatrola_currency_spent",
    "cuatrola_ledger_audit_ok",
    "cuatrola_ledger_audit_age_seconds",
    "cuatrola_league_week_overdue_seconds",
    "cuatrola_beat_heartbeat_age_seconds",
    "cuatrola_task_failures",
}


def scrape(client, **extra) -> dict:
    response = client.get("/metrics", **extra)
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"].startswith("text/plain")
    return {f.name: f for f in text_string_to_metric_families(response.content.decode())}


def value(families: dict, name: str, labels: dict | None = None, suffix: str = "") -> float:
    for sample in families[name].samples:
        if sample.name == name + suffix and sample.labels == (labels or {}):
            return sample.value
    raise KeyError((name, labels))


def test_the_endpoint_parses_and_carries_every_named_metric(client):
    client.get("/")  # a request, a query, a cache read
    families = scrape(client)
    assert set(families) >= NAMED, sorted(NAMED - set(families))


def test_the_figures_of_the_moment_come_from_the_database(client, make_user, settings):
    now = timezone.now()
    owner = make_user("owner")
    Table.objects.create(mode=Mode.ONLINE, owner=owner, status=TableStatus.PLAYING)
    Table.objects.create(mode=Mode.ONLINE, owner=owner, status=TableStatus.PLAYING)
    Table.objects.create(mode=Mode.PRACTICE, owner=owner, status=TableStatus.FINISHED)
    QueueEntry.objects.create(user=make_user("waiting"), joined_at=now - timedelta(seconds=12))
    LedgerAudit.objects.create(ran_at=now - timedelta(hours=2), seconds=0.1, violations=3)
    LeagueWeek.objects.create(
        starts_at=now - timedelta(days=7, hours=2), ends_at=now - timedelta(hours=2)
    )
    families = scrape(client)
    assert value(families, "cuatrola_tables_playing", {"mode": "online"}) == 2
    assert value(families, "cuatrola_tables_playing", {"mode": "practice"}) == 0
    assert value(families, "cuatrola_queue_waiting") == 1
    assert 11 < value(families, "cuatrola_queue_oldest_wait_seconds") < 60
    assert value(families, "cuatrola_ledger_audit_ok") == 0
    assert 7190 < value(families, "cuatrola_ledger_audit_age_seconds") < 7300
    assert 7190 < value(families, "cuatrola_league_week_overdue_seconds") < 7300
    LeagueWeek.objects.update(status=WeekStatus.CLOSED, closed_at=now)
    assert value(scrape(client), "cuatrola_league_week_overdue_seconds") == 0


def test_no_audit_ever_run_reads_as_unknown_and_infinitely_old(client):
    families = scrape(client)
    assert value(families, "cuatrola_ledger_audit_ok") == -1
    assert value(families, "cuatrola_ledger_audit_age_seconds") == float("inf")


def test_the_beat_heartbeat_task_resets_its_age(client):
    from cuatrola_site.tasks import beat_heartbeat

    assert value(scrape(client), "cuatrola_beat_heartbeat_age_seconds") == float("inf")
    beat_heartbeat()
    assert value(scrape(client), "cuatrola_beat_heartbeat_age_seconds") < 5


def test_the_ledger_audit_task_stores_its_result(client, make_user):
    from economy import services
    from economy.tasks import audit_ledger

    services.signup_bonus_grant(user=make_user("rich"))
    assert audit_ledger() == 0
    run = LedgerAudit.objects.get()
    assert run.passed and run.seconds >= 0
    assert value(scrape(client), "cuatrola_ledger_audit_ok") == 1


@pytest.mark.parametrize("address", ["10.1.2.3", "203.0.113.9", "::ffff:8.8.8.8"])
def test_an_address_outside_the_setting_gets_a_404(client, address):
    response = client.get("/metrics", REMOTE_ADDR=address)
    assert response.status_code == 404
    assert b"cuatrola_" not in response.content


def test_a_client_behind_the_proxy_is_judged_by_its_own_address(client, settings):
    """Through the front door the peer is the proxy (allowed): the address it vouches
    for decides, so the outside world never reads /metrics through it."""
    settings.TRUSTED_PROXY_COUNT = 1
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    outside = client.get("/metrics", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert outside.status_code == 404
    inside = client.get("/metrics", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="127.0.0.1")
    assert inside.status_code == 200


def test_a_network_in_the_setting_is_allowed(client, settings):
    settings.METRICS_ALLOWED_NETWORKS = (ip_network("172.16.0.0/12"),)
    assert client.get("/metrics", REMOTE_ADDR="172.18.0.5").status_code == 200
    assert client.get("/metrics").status_code == 404  # 127.0.0.1 is no longer listed


def test_requests_are_counted_by_url_name_and_status_class(client):
    before = scrape(client)
    client.get("/how-to-play/")
    client.get("/no-such-page/")
    after = scrape(client)

    def count(families, view, status):
        try:
            labels = {"method": "GET", "view": view, "status": status}
            return value(families, "cuatrola_http_requests", labels, "_total")
        except KeyError:
            return 0

    assert count(after, "how_to_play", "2xx") == count(before, "how_to_play", "2xx") + 1
    assert count(after, "<unresolved>", "4xx") == count(before, "<unresolved>", "4xx") + 1


def test_invented_methods_are_counted_as_one_other_method(client):
    """The hole: each invented method (XYPJ870, XYPJ871, …) made a new series in every
    web process, without bound."""
    for n in range(50):
        client.generic(f"XYPJ{870 + n}", "/how-to-play/")
    client.generic("get", "/how-to-play/")  # methods are case-sensitive: another one
    families = scrape(client)
    methods = {s.labels["method"] for s in families["cuatrola_http_requests"].samples}
    assert not any(m.startswith("XYPJ") for m in methods)
    assert "other" in methods and methods <= {"GET", "HEAD", "POST", "other"}


def test_every_response_names_its_request_id(client):
    given = client.get("/how-to-play/", HTTP_X_REQUEST_ID="proxy-given-id-123")
    assert given["X-Request-ID"] == "proxy-given-id-123"
    forged = client.get("/how-to-play/", HTTP_X_REQUEST_ID="bad id\nwith a newline")
    assert forged["X-Request-ID"] != "bad id\nwith a newline"
    assert len(forged["X-Request-ID"]) == 32


def test_with_metrics_off_nothing_is_recorded_and_the_endpoint_does_not_exist(
    client, settings, monkeypatch
):
    from ops import metrics

    monkeypatch.setattr(metrics, "ENABLED", False)
    settings.METRICS_ENABLED = False
    recorded = []
    monkeypatch.setattr(metrics.transaction, "on_commit", recorded.append)
    metrics.after_commit(metrics.TIMEOUTS.inc)
    assert recorded == []
    assert client.get("/metrics").status_code == 404
