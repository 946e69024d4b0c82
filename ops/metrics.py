"""Every metric the site exports, defined once (docs/operations.md, "Metrics").

Counters and histograms are process-local; with PROMETHEUS_MULTIPROC_DIR set (the
scaled mode: several web processes and Celery workers) prometheus_client keeps
them in files under that directory, and /metrics sums every process's. What the
database already knows (tables in play, the queue, the ledger audit, the league
week) is read when /metrics is scraped instead (cuatrola_site/monitoring.py).

Record a change only once it is committed: `after_commit(counter.inc)`.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

from django.db import transaction
from prometheus_client import Counter, Gauge, Histogram

# Requests, the database and the cache.
HTTP_REQUESTS = Counter(
    "cuatrola_http_requests",
    "HTTP requests answered, by method, URL name and status class",
    ["method", "view", "status"],
)
HTTP_SECONDS = Histogram(
    "cuatrola_http_request_seconds",
    "Time to answer an HTTP request, by URL name",
    ["view"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
DB_QUERIES = Counter("cuatrola_db_queries", "Database queries, by connection", ["alias"])
DB_QUERY_ERRORS = Counter("cuatrola_db_query_errors", "Database queries that raised", ["alias"])
DB_SECONDS = Histogram(
    "cuatrola_db_query_seconds",
    "Time of one database query",
    ["alias"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1),
)
CACHE_GETS = Counter("cuatrola_cache_gets", "Cache reads, by result", ["result"])

# Sockets and play.
SOCKETS_OPEN = Gauge(
    "cuatrola_sockets_open",
    "Open websockets, by kind (player: seated at the table; watcher: at a table, not "
    "seated; lobby)",
    ["kind"],
    multiprocess_mode="livesum",
)
MOVES = Counter("cuatrola_moves", "Moves applied, by mode and source", ["mode", "source"])
MOVE_SECONDS = Histogram(
    "cuatrola_move_seconds",
    "A player's move: from the socket receiving it to its frames handed to every socket",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5),
)
# When the socket that carries a move received it (perf_counter), for MOVE_SECONDS:
# set by the consumer around the move, read where the move's frames are sent.
move_received: ContextVar[float | None] = ContextVar("move_received", default=None)
TIMEOUTS = Counter("cuatrola_turn_timeouts", "Turns that ran out (a bot moved for the seat)")
ABSENCES = Counter("cuatrola_absences", "Players marked absent after timeouts in a row")
ABANDONMENTS = Counter("cuatrola_abandonments", "Seats abandoned at a match's end", ["mode"])
MATCHES_SETTLED = Counter("cuatrola_matches_settled", "Matches finished and settled", ["mode"])
MATCHES_STARTED = Counter("cuatrola_matches_started", "Matches started", ["mode"])

# The online queue.
QUEUE_SEAT_SECONDS = Histogram(
    "cuatrola_queue_seat_seconds",
    "Time from joining the online queue to being seated",
    buckets=(1, 2, 5, 10, 15, 20, 25, 30, 45, 60, 120),
)
QUEUE_SEATS = Counter(
    "cuatrola_queue_seats", "Seats of matches made from the queue, by who took them", ["by"]
)

# The economy.
CURRENCY_ISSUED = Counter(
    "cuatrola_currency_issued",
    "Coins and XP issued to players, by currency and transaction kind",
    ["currency", "kind"],
)
CURRENCY_SPENT = Counter(
    "cuatrola_currency_spent",
    "Coins spent in the shop, by currency and transaction kind",
    ["currency", "kind"],
)

# Celery.
TASK_FAILURES = Counter("cuatrola_task_failures", "Celery tasks that raised, by task", ["task"])


# METRICS_ENABLED=0 (ops.apps) turns every recording off: the benchmarks' "off".
ENABLED = True


def after_commit(record: Callable[[], object]) -> None:
    """Records a metric once the current transaction commits (at once outside one):
    a rolled-back move or payment is never counted."""
    if ENABLED:
        transaction.on_commit(record)
