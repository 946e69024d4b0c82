"""Django set-up shared by the benchmarks that use their own PostgreSQL database."""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any


def setup_django(default_database_url: str) -> None:
    """Configure Django for a bench run: the database from BENCH_DATABASE_URL (else the
    given scratch database), no Redis, production-like settings, quiet logs."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL", default_database_url)
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cuatrola_site.settings")
    os.environ.setdefault(
        "SECRET_KEY", "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz"
    )
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("HTTPS", "0")
    os.environ.setdefault("STATIC_MANIFEST", "0")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("LOG_LEVEL", "WARNING")

    import django

    _database_create_if_missing(os.environ["DATABASE_URL"])
    django.setup()


def _database_create_if_missing(url: str) -> None:
    """A fresh machine has no scratch database: make it (PostgreSQL only)."""
    from urllib.parse import urlsplit

    import psycopg

    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        return
    name = parts.path.strip("/")
    server = parts._replace(path="/postgres").geturl()
    with psycopg.connect(server, autocommit=True) as connection:
        exists = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (name,)
        ).fetchone()
        if not exists:
            connection.execute(f'CREATE DATABASE "{name}"')


def machine() -> str:
    """The machine, its load and the PostgreSQL version (after setup_django)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        version = cursor.fetchone()[0]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"{platform.node()} · {platform.processor() or platform.machine()} · "
        f"{os.cpu_count()} CPUs (load average {load}) · Python {platform.python_version()} · "
        f"PostgreSQL {version}"
    )


def timed_get(client: Any, url: str, repeat: int, cpu: list | None = None) -> list[float]:
    """Wall milliseconds per request; the process's CPU milliseconds go to `cpu`."""
    times = []
    for _ in range(repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        times.append((time.perf_counter() - started) * 1000)
        if cpu is not None:
            cpu.append((time.process_time() - started_cpu) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    return times


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[max(0, int(len(ordered) * 0.95) - 1)]
    return f"median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms, max {max(times):.1f} ms"


def database_time(url: str, client: Any, repeat: int = 5) -> tuple[int, float]:
    """(queries, median over `repeat` runs of the summed PostgreSQL ms) of one request.

    The wall times include waiting for a CPU on a shared machine; this is the
    database's own work for the page.
    """
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    totals = []
    for _ in range(repeat):
        total = 0.0
        for query in queries.captured_queries:
            with connection.cursor() as cursor:
                cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + query["sql"])
                plan = cursor.fetchone()[0]
            plan = plan[0] if isinstance(plan, list) else plan
            total += plan["Planning Time"] + plan["Execution Time"]
        totals.append(total)
    return len(queries.captured_queries), statistics.median(totals)
