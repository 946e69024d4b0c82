"""Optional error reporting to Sentry: on only when SENTRY_DSN is set.

With no DSN nothing is initialised and nothing is ever sent. With one, events carry
the user's id and nothing else about them (no e-mail, username, address, cookies or
request bodies: the SDK's default of no personal data, and `scrub` on every event).
"""

from __future__ import annotations

from typing import Any

import sentry_sdk


def init(*, dsn: str, environment: str, release: str | None, traces_rate: float) -> bool:
    if not dsn:
        return False
    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=release or None,
        max_request_body_size="never",
        traces_sample_rate=traces_rate,
        before_send=scrub,
    )
    return True


def set_user(user_id: int) -> None:
    if sentry_sdk.get_client().is_active():
        sentry_sdk.set_user({"id": str(user_id)})


def scrub(event: Any, hint: Any) -> Any:
    """Keeps the user id only; drops cookies, headers that identify, and bodies."""
    user = event.get("user") or {}
    event["user"] = {"id": user["id"]} if "id" in user else {}
    request = event.get("request")
    if isinstance(request, dict):
        for key in ("cookies", "data", "env"):
            request.pop(key, None)
        headers = request.get("headers")
        if isinstance(headers, dict):
            for name in list(headers):
                if name.lower() in ("cookie", "authorization", "x-forwarded-for", "x-real-ip"):
                    del headers[name]
    return event
