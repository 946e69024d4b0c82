"""Request types for views, in one place (the lowest app, so every app can use them).

django-stubs types `request.user` as `User | AnonymousUser` (login_required does not
narrow it) and knows nothing of django-htmx's `request.htmx`. A view annotates its
request with the type that says what the middleware and decorators guarantee.
"""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from accounts.models import User


class HtmxHttpRequest(HttpRequest):
    """Any request: HtmxMiddleware (in MIDDLEWARE) sets `htmx` on every one."""

    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request to a `login_required` view: its user is signed in."""

    user: User
