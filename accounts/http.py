"""Request types for views, and the reading of numbers from a query string, in one
place (the lowest app, so every app can use them).

django-stubs types `request.user` as `User | AnonymousUser` (login_required does not
narrow it) and knows nothing of django-htmx's `request.htmx`. A view annotates its
request with the type that says what the middleware and decorators guarantee.
"""

from __future__ import annotations

import re
from typing import overload

from allauth.account.adapter import get_adapter
from django.core.exceptions import BadRequest, ImproperlyConfigured, PermissionDenied
from django.core.paginator import InvalidPage, Page, Paginator
from django.http import Http404, HttpRequest
from django_htmx.middleware import HtmxDetails

from accounts.models import User
from accounts.selectors import active_user_named


class HtmxHttpRequest(HttpRequest):
    """Any request: HtmxMiddleware (in MIDDLEWARE) sets `htmx` on every one."""

    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request to a `login_required` view: its user is signed in."""

    user: User


# Numbers in a query string: the only kind a view reads from one (page, step, division,
# match). The site's own links always carry a valid one; anything else is an error the
# visitor sees, never a fallback page and never a 500 (tests/test_query_numbers.py).
_WHOLE_NUMBER = re.compile(r"-?[0-9]+")
# Beyond every page, step, division and id of the site (and PostgreSQL's bigint), so
# longer digit strings name nothing, whatever their value.
_MOST_DIGITS = 18


@overload
def query_number(
    request: HttpRequest, name: str, *, default: int, minimum: int, maximum: int | None = None
) -> int: ...
@overload
def query_number(
    request: HttpRequest,
    name: str,
    *,
    default: None = None,
    minimum: int,
    maximum: int | None = None,
) -> int | None: ...
def query_number(
    request: HttpRequest,
    name: str,
    *,
    default: int | None = None,
    minimum: int,
    maximum: int | None = None,
) -> int | None:
    """The whole number the query parameter `name` holds, `default` when it is absent.
    Present but not written as a whole number (empty, "abc", "1.5", " 2"): 400. A whole
    number below `minimum`, above `maximum` or of more than 18 digits: 404, the address
    names nothing."""
    value = request.GET.get(name)
    if value is None:
        return default
    if not _WHOLE_NUMBER.fullmatch(value):
        raise BadRequest(f"the {name} parameter is not a whole number")
    if len(value.lstrip("-")) > _MOST_DIGITS:
        raise Http404(f"no {name} {value}")
    number = int(value)
    if number < minimum or (maximum is not None and number > maximum):
        raise Http404(f"no {name} {number}")
    return number


def page_or_404[T](paginator: Paginator[T], number: int) -> Page[T]:
    """The page numbered `number` (from `query_number`): a page past the last is a 404."""
    try:
        return paginator.page(number)
    except InvalidPage:
        raise Http404(f"no page {number}") from None


def user_or_404(username: str) -> User:
    """The active user named `username` in any letter case (a profile, a player
    page, a report), or 404."""
    user = active_user_named(username)
    if user is None:
        raise Http404
    return user


def query_text(request: HttpRequest, name: str, *, max_length: int) -> str | None:
    """The text the query parameter `name` holds, for an optional hint a page may
    ignore (the table page's `follow`): None when absent, empty, longer than
    `max_length` or holding a character that is not printable. Never an error."""
    value = request.GET.get(name)
    if not value or len(value) > max_length or not value.isprintable():
        return None
    return value


def client_address(request: HttpRequest) -> str | None:
    """The client's address as every per-address limit reads it (allauth's
    `get_client_ip`: the one the TRUSTED_PROXY_COUNT-th proxy from the right wrote in
    X-Forwarded-For, else the peer). A header the proxies did not write (shorter than
    their count, or not an address there) is ignored: the peer. None when neither is
    known."""
    try:
        return str(get_adapter(request).get_client_ip(request))
    except (ImproperlyConfigured, PermissionDenied):
        return request.META.get("REMOTE_ADDR") or None
