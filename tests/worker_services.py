"""Each pytest-xdist worker gets its own Redis database (`make test` runs the suite in
parallel; the README).

Loaded with `-p tests.worker_services` (pyproject.toml's addopts), so this module runs
before pytest-django reads the settings: a conftest.py is imported only after that,
too late for anything the settings derive from REDIS_URL (the cache, the channel
layer and its prefix, the Celery broker).

Workers share nothing else that matters:
- PostgreSQL: pytest-django gives each worker its own test database (test_<name>_gw0,
  test_<name>_gw1, ...); the roles tests make are named after it.
- Redis: the cache's `clear()` (before and after every test) is a FLUSHDB, and channel
  groups are named by table id, which every worker's database numbers from 1; so worker
  N uses database base + N (REDIS_URL's number plus the worker's index). With
  REDIS_URL=redis://host:6379/0 and `-n 2`, databases 0 and 1. Redis has 16 by default.
  The subprocess servers the tests start (uvicorn, a Celery worker) inherit it.
- Ports are asked of the kernel (port 0), files go to each test's tmp_path.
"""

from __future__ import annotations

import os
import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit


def worker_index(worker: str | None = None) -> int | None:
    """The index of this xdist worker (gw0 → 0), None outside a worker."""
    worker = os.environ.get("PYTEST_XDIST_WORKER") if worker is None else worker
    if not worker:
        return None
    found = re.fullmatch(r"gw(\d+)", worker)
    if found is None:
        raise RuntimeError(f"unexpected PYTEST_XDIST_WORKER {worker!r}")
    return int(found.group(1))


def redis_url_for_worker(url: str, index: int) -> str:
    """`url` with its database number moved up by `index` (redis://h:6379/5, 2 → /7)."""
    parts = urlsplit(url)
    if parts.scheme == "unix":  # unix:///run/redis.sock?db=3
        query = dict(parse_qsl(parts.query))
        query["db"] = str(int(query.get("db") or 0) + index)
        return f"unix://{parts.netloc}{parts.path}?{urlencode(query)}"
    base = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{base + index}"))


_index = worker_index()
if _index is not None and os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = redis_url_for_worker(os.environ["REDIS_URL"], _index)
