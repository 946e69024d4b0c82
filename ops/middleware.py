"""The request id and the request metrics, around every HTTP request."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse

from ops import context, errors, metrics

#: The methods counted by name; any other is counted as "other". The method is the
#: client's to choose, and each label value is a new series in every web process:
#: an anonymous client inventing methods grew the metrics without bound.
COUNTED_METHODS = frozenset(
    {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"}
)


def method_label(method: str | None) -> str:
    return method if method in COUNTED_METHODS else "other"


class RequestMiddleware:
    """First in MIDDLEWARE: gives the request its id (the proxy's X-Request-ID when it
    looks like one, else a new one), returns it in X-Request-ID, counts and times the
    request by URL name, and puts the user id on its log lines once known."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = context.new_request_id(request.headers.get("X-Request-ID"))
        # Left set after the response: Django logs a 4xx or 5xx after every middleware
        # has returned, and that line must carry the id too (each request's context
        # is its own; the next request sets its own id).
        context.request_id.set(request_id)
        context.user_id.set(None)
        started = time.perf_counter()
        response = self.get_response(request)
        response["X-Request-ID"] = request_id
        if not metrics.ENABLED:
            return response
        match = getattr(request, "resolver_match", None)
        view = (match.view_name if match is not None else "") or "<unresolved>"
        metrics.HTTP_SECONDS.labels(view).observe(time.perf_counter() - started)
        status = f"{response.status_code // 100}xx"
        metrics.HTTP_REQUESTS.labels(method_label(request.method), view, status).inc()
        return response

    def process_view(self, request: HttpRequest, *args: Any, **kwargs: Any) -> None:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            context.user_id.set(user.pk)
            errors.set_user(user.pk)
