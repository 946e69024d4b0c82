"""Websocket consumers: the table (/ws/tables/<id>/) and the lobby (/ws/lobby/).

Thin: they authenticate, parse, call services in a database thread and forward
the frames the services broadcast. The protocol is docs/protocol.md.

Database work runs on a small pool of threads (`WEB_DB_THREADS`, one database
connection each), not channels' single thread-sensitive one: a process then
waits on several PostgreSQL round trips and commits at once. Services lock
rows themselves, exactly as when several processes serve one table.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import SyncToAsync
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import close_old_connections
from django.db import connections as db_connections
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.selectors import ban_in_force
from games import broadcast, errors, listeners, presence, selectors, services
from games.socket_guard import GuardedSocket

# Close codes (4000–4999 are the application's).
CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_ALLOWED = 4403
CLOSE_NOT_FOUND = 4404
# A client message's limit, far below the server's own (daphne closes the socket with
# 1009 over 1 MiB, before the application sees the message): a message over it gets
# a `too_large` error frame and the socket stays open (docs/protocol.md).
MAX_MESSAGE_BYTES = 4096

TOO_BIG = _("Send JSON text frames of at most 4 KiB.")
NOT_JSON = _("That is not JSON.")
NOT_AN_OBJECT = _("Send a JSON object.")
UNKNOWN_TYPE = _("Unknown message type.")
BAD_PLAY = _("A play needs a string action and an integer version.")

_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()


def _db_executor() -> ThreadPoolExecutor:
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(
                max_workers=settings.WEB_DB_THREADS, thread_name_prefix="web-db"
            )
        return _executor


# Seconds: a connection that answered within this time skips Django's health check.
HEALTHY_FOR = 5.0


class _DatabaseThreadCall(SyncToAsync):
    """As channels' DatabaseSyncToAsync: stale connections are closed before and
    after the call. But with CONN_HEALTH_CHECKS that close re-arms Django's health
    check, a `SELECT 1` round trip before every call (every move); a connection that
    completed a call less than HEALTHY_FOR seconds ago is known to work, so it is
    checked only when it has been idle longer than that."""

    def thread_handler(self, loop: Any, *args: Any, **kwargs: Any) -> Any:
        close_old_connections()
        now = time.monotonic()
        for conn in db_connections.all(initialized_only=True):
            if conn.connection is not None and now - getattr(conn, "answered_at", 0) < HEALTHY_FOR:
                # Django's own flag (since 4.1), missing from django-stubs' BaseDatabaseWrapper.
                conn.health_check_done = True  # type: ignore[attr-defined]
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            now = time.monotonic()
            for conn in db_connections.all(initialized_only=True):
                if conn.connection is not None and not conn.errors_occurred:
                    # Our marker on the wrapper, read back above with getattr (a default for
                    # connections that never answered); the stubs' class has no such attribute.
                    conn.answered_at = now  # type: ignore[attr-defined]
            close_old_connections()


def in_db_thread(func: Callable[..., Any]) -> Callable[..., Any]:
    """`func` run in one of the process's database threads."""
    return _DatabaseThreadCall(func, thread_sensitive=False, executor=_db_executor())


def socket_language(scope: dict[str, Any], user: Any) -> str:
    """The language a socket's messages are written in, as for the user's pages: the
    language saved on the account, else the language cookie, else the browser's."""
    if getattr(user, "language", ""):
        return user.language
    headers = dict(scope.get("headers") or [])
    request = HttpRequest()
    request.COOKIES = scope.get("cookies") or {}
    request.META = {"HTTP_ACCEPT_LANGUAGE": headers.get(b"accept-language", b"").decode("latin-1")}
    request.path_info = "/"
    return translation.get_language_from_request(request)


def balance_frame(event: dict[str, Any]) -> str:
    """The user's new balances after a payout, refund or stake (docs/protocol.md)."""
    return json.dumps(
        {"type": "balance", "coins": event["coins"], "xp": event["xp"], "level": event["level"]}
    )


def _join(user: Any, table_id: int, position: int | None) -> tuple[dict[str, Any], int | None]:
    """A socket joined: a seated player is present again. Returns the full state and
    the seat the socket now counts for (None for a spectator or a seat given up)."""
    seat = services.seat_connect(user=user, table_id=table_id) if position is not None else None
    frame = selectors.table_frame(table_id=table_id, position=position)
    return frame, seat.pk if seat is not None else None


def _vouch(seat_ids: list[int]) -> Any:
    return in_db_thread(services.seats_heard)(seat_ids=seat_ids)


def _list_process(table_id: int, process: str, listening: bool) -> Any:
    return in_db_thread(services.table_listening)(
        table_id=table_id, process=process, listening=listening
    )


class _Consumer(GuardedSocket, AsyncWebsocketConsumer):
    refused = False

    async def refuse(self, code: int) -> None:
        """Accepts, then closes with `code`: a browser sees the code (docs/protocol.md)
        and knows not to retry, where a refused handshake shows only 1006. Whatever
        the socket sends before the close reaches it is ignored."""
        self.refused = True
        await self.accept()
        await self.close(code=code)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """As channels' own, without its close_old_connections() hop to the single
        thread-sensitive thread before every message: this app's database work runs
        in `in_db_thread`, which closes stale connections itself (measured: the hop
        cost as much as a move's frames; docs/operations.md)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class TableConsumer(_Consumer):
    position: int | None = None
    frame_key: str = broadcast.WATCH_KEY
    table_id: int = 0
    group: str = ""
    user_group: str = ""
    seat_id: int | None = None  # the seat this socket counts in Seat.connections
    listening = False  # counted in games.listeners (this process listed on the table)
    process_id = listeners.PROCESS_ID  # as listed (tests play another process)

    async def connect(self) -> None:
        broadcast.register_server_loop(asyncio.get_running_loop())
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(CLOSE_UNAUTHENTICATED)
            return
        self.user = user
        self.language = socket_language(self.scope, user)
        try:
            self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        except (KeyError, ValueError):
            await self.refuse(CLOSE_NOT_FOUND)
            return
        access, banned = await in_db_thread(self._admit)(user, self.table_id)
        if access is None:
            await self.refuse(CLOSE_NOT_FOUND)
            return
        if banned:
            await self.refuse(CLOSE_NOT_ALLOWED)
            return
        self.position = access.position
        self.frame_key = broadcast.frame_key(self.position)
        self.group = broadcast.table_group(self.table_id)
        # Join the groups before reading the state, so no change falls in between.
        await self.channel_layer.group_add(self.group, self.channel_name)
        # Moderation (see docs/protocol.md): a ban closes every socket of the user.
        self.user_group = broadcast.user_group(user.pk)
        await self.channel_layer.group_add(self.user_group, self.channel_name)
        await self.join_session_group()  # logging out closes it (games/socket_guard.py)
        await self.accept()
        # From now on (accepted: it may send), messages straight from the layer,
        # without a queue and a wake-up of this consumer's task per move (the Redis
        # layer; cuatrola_site/channel_layer.py). Every handler here is quick: none
        # waits on the database. Any message queued before is dispatched after this.
        direct = getattr(self.channel_layer, "deliver_directly", None)
        if direct is not None:
            direct(self.channel_name, self.dispatch)
        # Listed on the table before reading its state (games/listeners.py).
        self.listening = True
        await listeners.opened(self.table_id, _list_process, self.process_id)
        frame, self.seat_id = await in_db_thread(_join)(user, self.table_id, self.position)
        if self.seat_id is not None:
            presence.opened(self.seat_id, _vouch)
        await self.send(text_data=json.dumps(frame))

    @staticmethod
    def _admit(user: Any, table_id: int) -> tuple[selectors.Access | None, bool]:
        access = selectors.table_access(user=user, table_id=table_id)
        if access is None:
            return None, False
        return access, ban_in_force(user.pk) is not None

    async def disconnect(self, code: int) -> None:
        if self.group:
            forget = getattr(self.channel_layer, "forget_directly", None)
            if forget is not None:
                forget(self.channel_name)
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.channel_layer.group_discard(self.user_group, self.channel_name)
        await self.leave_session_group()
        if self.listening:
            self.listening = False
            await listeners.closed(self.table_id, _list_process, self.process_id)
        if self.seat_id is not None:
            presence.closed(self.seat_id)
        if self.position is not None:
            await in_db_thread(services.seat_disconnect)(user=self.user, table_id=self.table_id)

    async def send_state(self, request_id: Any = None) -> None:
        frame = await in_db_thread(selectors.table_frame)(
            table_id=self.table_id, position=self.position
        )
        if request_id is not None:
            frame["id"] = request_id
        await self.send(text_data=json.dumps(frame))

    async def send_error(
        self,
        code: str,
        message: Any,
        request_id: Any = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        """An error frame to this socket only, its message in the user's language."""
        with translation.override(self.language):
            text = str(message)
        frame: dict[str, Any] = {
            "type": "error",
            "code": code,
            "params": params or {},
            "message": text,
        }
        if request_id is not None:
            frame["id"] = request_id
        await self.send(text_data=json.dumps(frame))

    async def send_refusal(self, error: errors.GameError, request_id: Any = None) -> None:
        """A refused message: the error's code and params, and its message rendered
        from them in the user's language."""
        with translation.override(self.language):
            text = error.message
        await self.send_error(error.code, text, request_id, error.params)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.refused or await self.over_budget(self.send_error):
            return
        if text_data is None:
            await self.send_error("malformed", TOO_BIG)  # a binary frame
            return
        # Characters first (cheap), then the UTF-8 bytes the limit is about.
        if len(text_data) > MAX_MESSAGE_BYTES or len(text_data.encode()) > MAX_MESSAGE_BYTES:
            await self.send_error("too_large", TOO_BIG)
            return
        try:
            message = json.loads(text_data)
        except ValueError:
            await self.send_error("malformed", NOT_JSON)
            return
        if not isinstance(message, dict):
            await self.send_error("malformed", NOT_AN_OBJECT)
            return
        request_id = message.get("id")
        if not isinstance(request_id, (str, int)) or isinstance(request_id, bool):
            request_id = None
        kind = message.get("type")
        if kind == "sync":
            await self.send_state(request_id)
        elif kind == "ping":
            await self.send(text_data=json.dumps({"type": "pong", "id": request_id}))
        elif kind == "play":
            await self.play(message, request_id)
        else:
            await self.send_error("unknown_type", UNKNOWN_TYPE, request_id)

    async def play(self, message: dict[str, Any], request_id: Any) -> None:
        if self.position is None:
            await self.send_refusal(errors.NotSeated(), request_id)
            return
        action, version = message.get("action"), message.get("version")
        if not isinstance(action, str) or not isinstance(version, int):
            await self.send_error("malformed", BAD_PLAY, request_id)
            return
        try:
            await in_db_thread(services.match_play)(
                user=self.user, table_id=self.table_id, action=action, version=version
            )
        except errors.GameError as error:
            await self.send_refusal(error, request_id)
            if isinstance(error, errors.StaleVersion):
                await self.send_state(request_id)
            return
        if request_id is not None:
            # Every seat's `update` confirms the move; a separate `ack` is sent only
            # to a client that asked for one with an `id` (one frame less a move).
            await self.send(text_data=json.dumps({"type": "ack", "id": request_id}))

    async def table_frames(self, event: dict[str, Any]) -> None:
        """A change at the table: forward this socket's own frame only."""
        sitting = event.get("sitting")
        if sitting is not None and self.position is not None:
            self._follow_seat(sitting.get(str(self.user.pk)))
        text = event["frames"].get(self.frame_key)
        if text is not None:
            await self.send(text_data=text)

    def _follow_seat(self, seat: list[int] | None) -> None:
        """The user was moved to another seat (or freed theirs): this socket now
        forwards that seat's frames (or the spectators')."""
        position, seat_id = seat if seat is not None else (None, None)
        if position == self.position:
            return
        self.position = position
        self.frame_key = broadcast.frame_key(position)
        if self.seat_id is not None:
            presence.closed(self.seat_id)
        self.seat_id = seat_id
        if seat_id is not None:
            presence.opened(seat_id, _vouch)

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        """Lobby notices reach a table socket through the shared user group: ignored."""

    async def user_balance(self, event: dict[str, Any]) -> None:
        await self.send(text_data=balance_frame(event))

    async def user_banned(self, event: dict[str, Any]) -> None:
        await self.close(code=CLOSE_NOT_ALLOWED)


class LobbyConsumer(_Consumer):
    """Tells a signed-in user's lobby that their invitations changed."""

    group = ""

    async def connect(self) -> None:
        broadcast.register_server_loop(asyncio.get_running_loop())
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(CLOSE_UNAUTHENTICATED)
            return
        if await in_db_thread(ban_in_force)(user.pk) is not None:
            await self.refuse(CLOSE_NOT_ALLOWED)
            return
        self.group = broadcast.user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.join_session_group()
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.leave_session_group()

    async def send_error(self, code: str, message: Any = "", request_id: Any = None) -> None:
        await self.send(text_data=json.dumps({"type": "error", "code": code}))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.refused or await self.over_budget(self.send_error):
            return
        await self.send_error("unknown_type")

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps({"type": "lobby", "what": event["what"]}))

    async def user_balance(self, event: dict[str, Any]) -> None:
        await self.send(text_data=balance_frame(event))

    async def user_banned(self, event: dict[str, Any]) -> None:
        await self.close(code=CLOSE_NOT_ALLOWED)
