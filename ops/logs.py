"""Log records as one JSON object a line (production) or plain text (`make run`).

Every record carries the request id, user id, table id and match id where known
(ops.context). Nothing a user typed as a secret reaches a line: Django never logs
request bodies, and `RedactSecrets` masks what looks like a password, a session
key, a token or a DSN in a message or its arguments (tests/ops/test_logs.py
captures every line of a log-in).
"""

from __future__ import annotations

import logging
import re
from typing import Any

from pythonjsonlogger.json import JsonFormatter

from ops import context

_SECRET_WORDS = (
    r"password|passwd|secret|token|sessionid|session_key|csrfmiddlewaretoken|api_key|dsn"
)
_SECRET_PAIR = re.compile(
    rf"(?i)(['\"]?(?:\w*(?:{_SECRET_WORDS})\w*)['\"]?\s*[:=]\s*)(['\"]?)[^'\"&\s,}}]+"
)
_URL_CREDENTIALS = re.compile(r"(\w+://[^:/@\s]+:)[^@\s]+@")


def redact(text: str) -> str:
    text = _SECRET_PAIR.sub(r"\1\2[hidden]", text)
    return _URL_CREDENTIALS.sub(r"\1[hidden]@", text)


class ContextFilter(logging.Filter):
    """Adds the ids of ops.context to every record (None where unknown)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = context.request_id.get()
        record.user_id = context.user_id.get()
        record.table_id = context.table_id.get()
        record.match_id = context.match_id.get()
        return True


class RedactSecrets(logging.Filter):
    """Renders the message once, masked; drops the request object some Django loggers
    attach (its repr may carry headers and cookies)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: keep the raw text
            message = str(record.msg)
        record.msg = redact(message)
        record.args = None
        if hasattr(record, "request"):
            record.request = None
        return True


class JsonLines(JsonFormatter):
    """One JSON object a line: timestamp, level, logger, message and the ids."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault(
            "fmt",
            "%(asctime)s %(levelname)s %(name)s %(message)s"
            " %(request_id)s %(user_id)s %(table_id)s %(match_id)s",
        )
        kwargs.setdefault(
            "rename_fields",
            {"asctime": "timestamp", "levelname": "level", "name": "logger"},
        )
        kwargs.setdefault("datefmt", "%Y-%m-%dT%H:%M:%S%z")
        super().__init__(*args, **kwargs)

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        return redact(text) if record.exc_info else text


PLAIN_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"


def logging_config(*, json_lines: bool, level: str) -> dict[str, Any]:
    """The LOGGING setting: JSON lines or plain text, every record through the
    context and redaction filters."""
    formatter: dict[str, Any] = (
        {"()": "ops.logs.JsonLines"} if json_lines else {"format": PLAIN_FORMAT}
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "context": {"()": "ops.logs.ContextFilter"},
            "redact": {"()": "ops.logs.RedactSecrets"},
        },
        "formatters": {"site": formatter},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": "site",
                "filters": ["context", "redact"],
            }
        },
        "root": {"handlers": ["console"], "level": level},
        # One line per periodic task every second drowns everything else.
        "loggers": {"celery.app.trace": {"level": "WARNING"}},
    }
