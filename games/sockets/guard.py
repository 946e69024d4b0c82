"""What every websocket of the site enforces besides its own protocol: limits on the
sockets a user and an address hold open, a message budget per socket, and closing at
once when the session that opened it ends.

- Open sockets: SOCKETS_PER_USER per user and SOCKETS_PER_ADDRESS per client
  address, across every web process (games/fanout/presence.py); one more is closed
  with CLOSE_TOO_MANY_SOCKETS_USER or CLOSE_TOO_MANY_SOCKETS_ADDRESS. Connection
  attempts per address are limited before authentication (ConnectLimit).

- Budget: a token bucket of SOCKET_MESSAGE_BURST messages refilled at
  SOCKET_MESSAGE_RATE per second. A message over budget is not handled: it gets a
  `rate_limited` error frame; SOCKET_MESSAGE_BURST refusals in a row close the
  socket (CLOSE_TOO_MANY_MESSAGES).
- Session: each socket joins the group of its session (`session-<hash>`) and of
  its user (`user-<id>`); logging out sends `session.ended` to the first, a
  password change or a ban to the second (accounts/receivers.py, services.py).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from allauth.account.adapter import get_adapter
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured, PermissionDenied
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts.services import session_group_name
from games.fanout import presence
from ops import metrics

CLOSE_SESSION_ENDED = 4401  # as for a socket opened without a session
CLOSE_TOO_MANY_MESSAGES = 4429
CLOSE_TOO_MANY_SOCKETS_USER = 4430
CLOSE_TOO_MANY_SOCKETS_ADDRESS = 4431

TOO_FAST = _("Too many messages: slow down.")


def socket_address(scope: dict[str, Any]) -> str | None:
    """The client address a socket counts against: the one the site's per-address
    limits use for a request (allauth's `get_client_ip`: the address the
    TRUSTED_PROXY_COUNT-th proxy from the right wrote in X-Forwarded-For, else the
    peer). A header the proxies did not write (shorter than their count, or not an
    address where theirs would be) is ignored: the peer is used. None when neither
    is known (a test's socket)."""
    request = HttpRequest()
    client = scope.get("client")
    peer = client[0] if client else None
    if peer:
        request.META["REMOTE_ADDR"] = peer
    forwarded = [
        value.decode("latin-1")
        for name, value in scope.get("headers") or []
        if name.lower() == b"x-forwarded-for"
    ]
    if forwarded:
        request.META["HTTP_X_FORWARDED_FOR"] = ", ".join(forwarded)
    try:
        return str(get_adapter(request).get_client_ip(request))
    except (ImproperlyConfigured, PermissionDenied):
        # A header shorter than the proxies, or not an address: not the proxies'.
        return peer


class MessageBudget:
    """`burst` messages at once, then `rate` a second (a token bucket)."""

    def __init__(
        self, burst: int, rate: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.burst, self.rate, self.clock = burst, rate, clock
        self.tokens = float(burst)
        self.checked_at = clock()
        self.refused_in_row = 0

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.checked_at) * self.rate)
        self.checked_at = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.refused_in_row = 0
            return True
        self.refused_in_row += 1
        return False

    @property
    def abused(self) -> bool:
        """The client went on sending through as many refusals as its burst."""
        return self.refused_in_row >= self.burst


class ConnectLimit:
    """ASGI middleware in front of the websocket routes (before authentication): per
    client address, SOCKET_CONNECT_BURST connection attempts at once, refilled at
    SOCKET_CONNECT_RATE a second, in this process. One more is held about
    SOCKET_CONNECT_HOLD_SECONDS (half to one and a half times it, at random), then
    refused during the handshake (HTTP 403, as for a foreign Origin). A socket
    refused for its user's or its address's open sockets costs a session read and a
    Redis round trip, and one refused here still costs its handshake (about a
    millisecond of the event loop): a client retrying at once, many sockets at a
    time, would otherwise spend a web process's loop on refusals in bursts. Held, it
    retries less often, and its attempts spread out (docs/operations.md, "Socket
    limits and the database threads")."""

    def __init__(
        self,
        app: Any,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        self.app = app
        self.clock = clock
        self.sleep = sleep
        self.budgets: dict[str, MessageBudget] = {}
        self.calls = 0

    def allows(self, address: str) -> bool:
        budget = self.budgets.get(address)
        if budget is None:
            budget = MessageBudget(
                settings.SOCKET_CONNECT_BURST, settings.SOCKET_CONNECT_RATE, self.clock
            )
            self.budgets[address] = budget
        self.calls += 1
        if self.calls % 1024 == 0:
            self._forget_full()
        return budget.take()

    def _forget_full(self) -> None:
        """Drops the budgets refilled to the full burst (as good as new ones)."""
        now = self.clock()
        for address, budget in list(self.budgets.items()):
            if budget.tokens + (now - budget.checked_at) * budget.rate >= budget.burst:
                del self.budgets[address]

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        address = socket_address(scope) if scope.get("type") == "websocket" else None
        if address is None or self.allows(address):
            return await self.app(scope, receive, send)
        message = await receive()
        if message.get("type") != "websocket.connect":
            return None
        hold = settings.SOCKET_CONNECT_HOLD_SECONDS * random.uniform(0.5, 1.5)
        held = asyncio.ensure_future(self.sleep(hold))
        left = asyncio.ensure_future(receive())  # the client may give up meanwhile
        try:
            await asyncio.wait([held, left], return_when=asyncio.FIRST_COMPLETED)
        finally:
            held.cancel()
            left.cancel()
        if left.done() and not left.cancelled():
            return None  # gone: nothing to refuse
        await send({"type": "websocket.close"})  # before accepting: HTTP 403
        return None


class GuardedSocket:
    """Mixed into the site's consumers (AsyncWebsocketConsumer subclasses)."""

    session_group: str = ""
    budget: MessageBudget | None = None
    counted: bool = False  # counted in games.fanout.presence
    open_kind: str | None = None  # counted in ops.metrics.SOCKETS_OPEN under this kind

    if TYPE_CHECKING:
        # What the consumer class this is mixed into provides (channels ships no
        # types). Declared for the checker only: at run time the consumer's own
        # `close` must stay the one found, so nothing is defined here.
        scope: dict[str, Any]
        channel_layer: Any
        channel_name: str

        async def close(self, code: int | None = None) -> None: ...

    async def admit_socket(self, user_id: int) -> int | None:
        """Counts this socket against its user's and its address's open sockets: None,
        or the close code that refuses it (then it is not counted)."""
        self.counted = True  # before the count: a cancelled admission is released too
        refused = await presence.admit(
            socket=self.channel_name, user_id=user_id, address=socket_address(self.scope)
        )
        if refused is None:
            return None
        self.counted = False
        if refused == presence.USER:
            return CLOSE_TOO_MANY_SOCKETS_USER
        return CLOSE_TOO_MANY_SOCKETS_ADDRESS

    def count_open(self, kind: str) -> None:
        """Counts this socket as open in ops.metrics.SOCKETS_OPEN (player, watcher or
        lobby), until `release_socket`."""
        if self.open_kind is None and metrics.ENABLED:
            self.open_kind = kind
            metrics.SOCKETS_OPEN.labels(kind).inc()

    def recount_open(self, kind: str) -> None:
        """Moves a counted socket to `kind` (a watcher who sat down at the table is a
        player now, a player whose seat was taken a watcher)."""
        if self.open_kind is not None and self.open_kind != kind:
            metrics.SOCKETS_OPEN.labels(self.open_kind).dec()
            metrics.SOCKETS_OPEN.labels(kind).inc()
            self.open_kind = kind

    async def release_socket(self) -> None:
        if self.open_kind is not None:
            metrics.SOCKETS_OPEN.labels(self.open_kind).dec()
            self.open_kind = None
        if self.counted:
            self.counted = False
            await presence.release(socket=self.channel_name)

    async def join_session_group(self) -> None:
        session = self.scope.get("session")
        key = getattr(session, "session_key", None)
        if key:
            self.session_group = session_group_name(key)
            await self.channel_layer.group_add(self.session_group, self.channel_name)

    async def leave_session_group(self) -> None:
        if self.session_group:
            group, self.session_group = self.session_group, ""
            await self.channel_layer.group_discard(group, self.channel_name)

    async def over_budget(self, send_error: Callable[..., Any], request_id: Any = None) -> bool:
        """True when this message must not be handled (an error frame or the close
        has been sent)."""
        if self.budget is None:
            self.budget = MessageBudget(settings.SOCKET_MESSAGE_BURST, settings.SOCKET_MESSAGE_RATE)
        if self.budget.take():
            return False
        if self.budget.abused:
            await self.close(code=CLOSE_TOO_MANY_MESSAGES)
        else:
            await send_error("rate_limited", TOO_FAST, request_id)
        return True

    async def session_ended(self, event: dict[str, Any]) -> None:
        """Logged out, or the password changed: the socket's session is over."""
        await self.close(code=CLOSE_SESSION_ENDED)
