"""What the current request or task is about, for every log line it writes.

Set by ops.middleware for a request, by the Celery hooks for a task (the request id
travels in the task's headers), and by the table's code for a table or match.
"""

from __future__ import annotations

import re
import uuid
from contextvars import ContextVar

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
user_id: ContextVar[int | None] = ContextVar("user_id", default=None)
table_id: ContextVar[int | None] = ContextVar("table_id", default=None)
match_id: ContextVar[int | None] = ContextVar("match_id", default=None)

# A request id given by the proxy is kept if it looks like one (no log injection).
_VALID_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")


def new_request_id(given: str | None = None) -> str:
    if given and _VALID_ID.match(given):
        return given
    return uuid.uuid4().hex
