"""What operators read: /metrics for Prometheus, and the staff's live view.

/metrics (docs/operations.md, "Metrics, logs and alerts") answers only the
addresses in METRICS_ALLOWED_NETWORKS (404 elsewhere, as if it did not exist);
the address is the one every per-address limit uses (the peer, or what
TRUSTED_PROXY_COUNT proxies vouch for). It serves the counters and histograms of
ops.metrics (summed over every process with PROMETHEUS_MULTIPROC_DIR) and, read at
scrape time from the authorities that hold them, the figures of the moment:
tables in play, the queue, the ledger audit, the league week, Celery's queues and
beat's heartbeat.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from allauth.account.adapter import get_adapter
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured, PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.template.response import TemplateResponse
from django.utils import timezone
from prometheus_client import REGISTRY, CollectorRegistry
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.django import PrometheusDjangoView
from prometheus_client.multiprocess import MultiProcessCollector

from economy import selectors as economy
from games import selectors as games
from games.fanout import presence
from games.models import Mode
from leagues import selectors as leagues
from online import selectors as online

logger = logging.getLogger(__name__)

HEARTBEAT_KEY = "cuatrola:beat-heartbeat"
CELERY_QUEUES = ("celery", "bots")


def heartbeat_mark() -> None:
    cache.set(HEARTBEAT_KEY, time.time(), timeout=None)


def heartbeat_age() -> float | None:
    """Seconds since beat's last heartbeat ran (None: never, since the cache was new)."""
    beat = cache.get(HEARTBEAT_KEY)
    return max(0.0, time.time() - beat) if isinstance(beat, (int, float)) else None


def celery_queue_depths() -> dict[str, int] | None:
    """Messages waiting in each Celery queue (Redis lists); None without a broker."""
    if not settings.REDIS_URL:
        return None
    import redis

    client = redis.Redis.from_url(str(settings.CELERY_BROKER_URL))
    try:
        return {queue: int(client.llen(queue)) for queue in CELERY_QUEUES}
    finally:
        client.close()


class StateCollector:
    """The figures of the moment, read when scraped (never stored in the process)."""

    def collect(self) -> Iterator[Metric]:
        now = timezone.now()
        playing = GaugeMetricFamily(
            "cuatrola_tables_playing", "Tables with a match in play, by mode", labels=["mode"]
        )
        for mode, count in games.tables_playing_by_mode().items():
            playing.add_metric([mode], count)
        yield playing
        queue = online.queue_now(now)
        yield GaugeMetricFamily(
            "cuatrola_queue_waiting", "Players waiting in the online queue", value=queue.waiting
        )
        yield GaugeMetricFamily(
            "cuatrola_queue_oldest_wait_seconds",
            "How long the longest-waiting player of the online queue has waited",
            value=queue.oldest_seconds,
        )
        audit = economy.ledger_audit_last()
        yield GaugeMetricFamily(
            "cuatrola_ledger_audit_ok",
            "1 if the last ledger audit found no violation, 0 if it found some, -1 if none ran",
            value=-1 if audit is None else int(audit.passed),
        )
        yield GaugeMetricFamily(
            "cuatrola_ledger_audit_age_seconds",
            "Seconds since the last ledger audit ran (+Inf if none ever did)",
            value=math.inf if audit is None else (now - audit.ran_at).total_seconds(),
        )
        yield GaugeMetricFamily(
            "cuatrola_league_week_overdue_seconds",
            "Seconds the oldest league week past its end has waited to be closed (0: none)",
            value=leagues.league_week_overdue_seconds(now),
        )
        beat = heartbeat_age()
        yield GaugeMetricFamily(
            "cuatrola_beat_heartbeat_age_seconds",
            "Seconds since beat's heartbeat task last ran (+Inf if never)",
            value=math.inf if beat is None else beat,
        )
        depths = celery_queue_depths()
        if depths is not None:
            family = GaugeMetricFamily(
                "cuatrola_celery_queue_depth", "Tasks waiting in a Celery queue", labels=["queue"]
            )
            for queue_name, depth in depths.items():
                family.add_metric([queue_name], depth)
            yield family


class _ThisProcess:
    """The default registry's metrics (no PROMETHEUS_MULTIPROC_DIR: one process)."""

    def collect(self) -> Iterator[Metric]:
        yield from REGISTRY.collect()


def metrics_registry() -> CollectorRegistry:
    registry = CollectorRegistry(auto_describe=False)
    if PrometheusDjangoView.multiprocess_mode:
        MultiProcessCollector(registry)
    else:
        registry.register(_ThisProcess())
    registry.register(StateCollector())
    return registry


def client_address(request: HttpRequest) -> str | None:
    try:
        return str(get_adapter(request).get_client_ip(request))
    except (ImproperlyConfigured, PermissionDenied):
        # A forwarded header the proxies did not write: the peer, as the limits do.
        return request.META.get("REMOTE_ADDR")


def address_allowed(address: str | None) -> bool:
    if not address:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in settings.METRICS_ALLOWED_NETWORKS)


class MetricsView(PrometheusDjangoView):
    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not settings.METRICS_ENABLED or not address_allowed(client_address(request)):
            raise Http404
        self.registry = metrics_registry()
        return super().dispatch(request, *args, **kwargs)


# --- The staff's live view ------------------------------------------------------------


@dataclass(frozen=True)
class Bucket:
    starts: datetime
    moves: int

    @property
    def per_second(self) -> float:
        return self.moves / (LIVE_BUCKET_MINUTES * 60)


LIVE_BUCKET_MINUTES = 5


def _percentile(sorted_values: list[float], fraction: float) -> float | None:
    if not sorted_values:
        return None
    index = min(len(sorted_values) - 1, math.ceil(fraction * len(sorted_values)) - 1)
    return sorted_values[max(0, index)]


def live_figures(now: datetime | None = None) -> dict[str, Any]:
    """The last hour as the staff's live view shows it (all from the database, Redis
    and the cache: it needs no Prometheus)."""
    now = now or timezone.now()
    # Sixty whole minutes, the current one last: twelve slices of five.
    since = now.replace(second=0, microsecond=0) - timedelta(minutes=59)
    by_minute = games.moves_by_minute(since)
    buckets = []
    for index in range(60 // LIVE_BUCKET_MINUTES):
        starts = since + timedelta(minutes=index * LIVE_BUCKET_MINUTES)
        ends = starts + timedelta(minutes=LIVE_BUCKET_MINUTES)
        moves = sum(n for minute, n in by_minute.items() if starts <= minute < ends)
        buckets.append(Bucket(starts=starts, moves=moves))
    peak = max((b.moves for b in buckets), default=0)
    moves = sum(by_minute.values())
    finished = games.finished_since(since)
    queue = online.queue_since(since)
    waiting = online.queue_now(now)
    audit = economy.ledger_audit_last()
    playing = games.tables_playing_by_mode()
    return {
        "now": now,
        "since": since,
        "tables_playing": playing,
        "tables_playing_named": [(Mode(mode).label, count) for mode, count in playing.items()],
        "tables_playing_total": sum(playing.values()),
        "players_online": presence.users_online(),
        "queue_waiting": waiting.waiting,
        "queue_oldest": waiting.oldest_seconds,
        "seated": queue.seated,
        "wait_p50": _percentile(queue.waits_seconds, 0.5),
        "wait_p95": _percentile(queue.waits_seconds, 0.95),
        "bot_share": None if queue.bot_seat_share is None else 100 * queue.bot_seat_share,
        "finished": finished.matches,
        "finished_total": sum(finished.matches.values()),
        "abandoned": finished.abandoned,
        "abandon_rate": (100 * finished.abandoned / finished.seats) if finished.seats else None,
        "moves": moves,
        "moves_per_second": moves / ((now - since).total_seconds() or 1),
        "buckets": [(b, (100 * b.moves // peak) if peak else 0) for b in buckets],
        "audit": audit,
        "audit_age": None if audit is None else now - audit.ran_at,
        "audit_stale": audit is None
        or (now - audit.ran_at).total_seconds() > 2 * settings.LEDGER_AUDIT_SECONDS,
        "league_overdue": leagues.league_week_overdue_seconds(now),
        "beat_age": heartbeat_age(),
    }


def live_view(request: HttpRequest) -> HttpResponse:
    """The admin's live page (any staff member: moderators and finance alike)."""
    from django.contrib import admin

    context = {
        **admin.site.each_context(request),
        "title": "",
        "figures": live_figures(),
        "refresh_seconds": settings.LIVE_VIEW_REFRESH_SECONDS,
    }
    return TemplateResponse(request, "admin/live.html", context)
