"""Django set-up shared by the benchmarks that use their own PostgreSQL database."""

from __future__ import annotations

import os
import sys
from pathlib import Path


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

    django.setup()
