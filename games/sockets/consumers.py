"""Websocket consumers: the table (/ws/tables/<id>/) and the lobby (/ws/lobby/).

Thin: they authenticate, limit, parse, call services in a database thread and
forward the frames the services broadcast. The protocol is docs/protocol.md.

Database work runs on a small pool of threads (`WEB_DB_THREADS`, one database
connection each: games/sockets/db_threads.py), not channels' single thread-sensitive one:
a process then waits on several PostgreSQL round trips and commits at once. Moves
go first, and each user's calls take their turn with everyone else's, so one user's
flood never queues another's move. Services lock rows themselves, exactly as when
several processes serve one table.

A table socket's jobs each have their module: whether it may open and the close
code that says why not (games/sockets/admission.py), the messages it receives,
parsed once into typed messages (inbound.py), the seat it shows (seat.py), its place
among the table's watchers (watching.py) and the talk it shows (talk.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest
from django.utils import translation

from accounts.selectors import ban_in_force
from games import errors, selectors, services
from games.fanout import audience, listeners, transport, watchers
from games.frames import builder
from games.sockets import admission, heartbeat, inbound, seat, talk, watching
from games.sockets.db_threads import DatabaseThreads, Lane
from games.sockets.guard import GuardedSocket, socket_address
from ops import context, metrics, shutdown

logger = logging.getLogger(__name__)

# Owners of the database calls that are the process's, not a user's.
HEARTBEAT = "heartbeat"

# The database did not answer (PostgreSQL restarting, its connections killed): the
# message is answered with a `retry` frame and the socket stays open; the connection
# is closed after the failed call (db_threads), so the next call opens a new one.
DATABASE_DOWN = (OperationalError, InterfaceError)
# How long the client waits before it sends the message again (docs/protocol.md).
RETRY_AFTER_MS = 1000

_threads: DatabaseThreads | None = None
_threads_lock = threading.Lock()


def db_threads() -> DatabaseThreads:
    """This process's database threads for socket work."""
    global _threads
    with _threads_lock:
        if _threads is None:
            _threads = DatabaseThreads(settings.WEB_DB_THREADS, settings.WEB_DB_SURGE_THREADS)
        return _threads


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


def _vouch(seat_ids: list[int]) -> Any:
    return db_threads().run(
        services.seats_heard, seat_ids=seat_ids, lane=Lane.BEAT, owner=HEARTBEAT
    )


def _mark_process() -> Any:
    return db_threads().run(services.web_process_beat, lane=Lane.BEAT, owner=HEARTBEAT)


heartbeat.on_process_beat(_mark_process)


def _join_and_talk(
    *, user: Any, table_id: int, process: str
) -> tuple[services.Joined | None, list[dict[str, Any]]]:
    """A socket's join (`services.table_join`), then, if it may see the table, what
    was said there before it opened (`selectors.talk_log`, read after the join's
    transaction): a database thread's one call."""
    joined = services.table_join(user=user, table_id=table_id, process=process)
    if joined is None or joined.refused is not None:
        return joined, []
    return joined, selectors.talk_log(table_id, user_id=user.pk, seated=joined.position is not None)


def _list_process(table_id: int, process: str, listening: bool) -> Any:
    return db_threads().run(
        services.table_listening,
        table_id=table_id,
        process=process,
        listening=listening,
        lane=Lane.SEAT,
        owner=("table", table_id),
    )


def _check_listed(table_ids: list[int], process: str) -> Any:
    return db_threads().run(
        selectors.tables_unlisted,
        table_ids=table_ids,
        process=process,
        lane=Lane.SEAT,
        owner=HEARTBEAT,
    )


def _sent_while_connected(send: Callable[[dict[str, Any]], Awaitable[None]]) -> Any:
    """The server's `send`, dropping what is sent once the client is gone: uvicorn
    raises then (daphne drops it). A frame on its way to a closed socket is no
    failure, and the `websocket.disconnect` already queued releases the socket."""

    async def sending(message: dict[str, Any]) -> None:
        try:
            await send(message)
        except OSError:  # uvicorn's ClientDisconnected, or the transport's own
            logger.debug("a frame for a socket whose client is gone was dropped")

    return sending


class _Consumer(GuardedSocket, AsyncWebsocketConsumer):
    refused = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """The socket's whole life, known to the process's graceful restart
        (ops/shutdown.py), which waits for it to end. Whatever ends it, what it set up
        is undone: channels calls disconnect() only for a `websocket.disconnect`, not
        when a handler fails."""
        shutdown.opened(self)
        try:
            await super().__call__(scope, receive, _sent_while_connected(send))
        finally:
            try:
                await asyncio.shield(self._release())
            finally:
                shutdown.ended(self)

    async def _release(self) -> None:
        """Undoes what connect set up, each part once (each consumer's own)."""

    async def restart_close(self) -> None:
        """The process restarts: closed with 4500 (the page reconnects at once)."""
        if self.refused:
            return
        self.refused = True  # nothing it sends from now on is handled
        await self.close(code=admission.CLOSE_RESTARTING)

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
        in `db_threads()`, which closes stale connections itself (measured: the hop
        cost as much as a move's frames; docs/operations.md)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class TableConsumer(_Consumer):
    """A table's socket, split by job: whether it may open (`admission`), the seat it
    shows (`seat.SeatShown`), its place among the watchers (`watching.WatchCount`),
    the talk it shows (`talk.TalkShown`) and the messages it receives, parsed once
    into typed messages (`inbound.parse`). What stays here wires them together: the
    groups it joins, the first state, the handlers of each message and of each
    broadcast, and undoing all of it when it closes."""

    table_id: int = 0
    accepted = False
    restarting = False  # closed by the process's restart (4500)
    joined = False  # its first state is sent: broadcasts are forwarded, not kept
    listening = False  # counted in games.fanout.listeners (this process listed on the table)
    delivered_directly = False  # the layer hands it messages (deliver_directly)
    in_audience = False  # hears the table through games.fanout.audience (a watcher's socket)
    process_id = listeners.PROCESS_ID  # as listed (tests play another process)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.joined_groups: list[str] = []
        self.early: list[dict[str, Any]] = []  # broadcasts before the first state
        self.early_talk: list[dict[str, Any]] = []  # talk said before the first state
        self.db_turn = asyncio.Lock()  # one database call of this socket at a time
        self.synced_at = float("-inf")
        self.sync_later: asyncio.TimerHandle | None = None
        self.sync_task: asyncio.Task[None] | None = None
        self.sync_id: Any = None
        self.releasing: asyncio.Future[None] | None = None
        self.seat = seat.SeatShown(vouch=_vouch, changed=self._seat_changed)
        self.talk_shown = talk.TalkShown()
        self.watch: watching.WatchCount | None = None  # a socket without a seat's

    @property
    def position(self) -> int | None:
        """The seat whose frames this socket forwards (None: the spectators')."""
        return self.seat.position

    async def restart_close(self) -> None:
        """Closed with 4500 once its database call in flight (a move) has ended."""
        if self.refused:
            return
        self.restarting = True  # its seat is counted off without an absence
        async with self.db_turn:
            await super().restart_close()

    async def connect(self) -> None:
        transport.register_server_loop(asyncio.get_running_loop())
        if shutdown.closing():  # during the notice it is served, closed with the rest
            await self.refuse(admission.CLOSE_RESTARTING)
            return
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(admission.CLOSE_UNAUTHENTICATED)
            return
        self.user = user
        self.language = socket_language(self.scope, user)
        table_id = admission.table_id_of(self.scope)
        if table_id is None:
            await self.refuse(admission.CLOSE_NOT_FOUND)
            return
        self.table_id = table_id
        # This socket's task keeps them: every log line of its work carries them.
        context.user_id.set(user.pk)
        context.table_id.set(self.table_id)
        try:
            await self._open()
        except DATABASE_DOWN:
            # The database did not answer: undone, and closed with 4503, so the page
            # reconnects in a moment instead of taking the table for gone.
            logger.warning("table %s socket: the database failed while it opened", table_id)
            await self._release()
            await self._close_retry_soon()
        except BaseException:
            # Channels calls disconnect() only for a socket whose connect ended: one
            # that failed or was cancelled (the web server cancels an application still
            # running when it stops) undoes here whatever it had set up.
            await self._release()
            raise

    async def _close_retry_soon(self) -> None:
        self.refused = True
        if not self.accepted:
            await self.accept()
        await self.close(code=admission.CLOSE_RETRY_SOON)

    async def _open(self) -> None:
        """Connect's steps; each records what it set up before it waits, so that
        `_release` undoes exactly that, whenever it stops."""
        refused = await self.admit_socket(self.user.pk)
        if refused is not None:
            await self.refuse(refused)
            return
        admitted = await self._db(admission.read, self.user, self.table_id, lane=Lane.SEAT)
        refused = admission.refusal(admitted)
        if refused is not None:
            await self.refuse(refused)
            return
        if admitted.position is None:
            self.talk_shown = talk.TalkShown(admitted.talk_blocked, admitted.talk_hidden)
            self.watch = watching.WatchCount(
                socket=self.channel_name,
                user=self.user,
                table_id=self.table_id,
                address=socket_address(self.scope),
                layer=self.channel_layer,
            )
            refused = await self.watch.admit()
            if refused is not None:
                await self.refuse(refused)
                return
        # Join the groups before reading the state, so no change falls in between.
        # A watcher's socket hears the table through the process's audience of it
        # (games/fanout/audience.py: one member of the table's group for all of them).
        # Moderation (see docs/protocol.md): a ban closes every socket of the user.
        if admitted.position is None:
            self.in_audience = True  # before the join: a cancelled one is left too
            await audience.join(
                self.table_id, self, self.channel_layer, frame_key=builder.WATCH_KEY
            )
        else:
            self.joined_groups.append(transport.table_group(self.table_id))
        self.joined_groups.append(transport.user_group(self.user.pk))
        for group in self.joined_groups:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.join_session_group()  # logging out closes it (games/sockets/guard.py)
        await self.accept()
        self.accepted = True
        # From now on (accepted: it may send), messages straight from the layer,
        # without a queue and a wake-up of this consumer's task per move (the Redis
        # layer; cuatrola_site/channel_layer.py). Every handler here is quick: none
        # waits on the database. Any message queued before is dispatched after this.
        direct = getattr(self.channel_layer, "deliver_directly", None)
        if direct is not None:
            self.delivered_directly = True
            direct(self.channel_name, self.dispatch)
        # Listed on the table before reading its state (games/fanout/listeners.py).
        await listeners.opened(self.table_id, _list_process, self.process_id)
        self.listening = True
        listeners.keep_listed(_check_listed, _list_process)
        joined, talk_events = await self._join()
        if joined is None or joined.refused is not None:
            # No longer one who may see it, or refused as its watcher meanwhile.
            self.refused = True
            code = (
                admission.CLOSE_NOT_FOUND
                if joined is None
                else admission.watch_refused(joined.refused or "")
            )
            await self.close(code=code)
            return
        self.seat.adopt(joined.frame["seq"], joined.position, joined.seat_id)
        if self.position is not None and self.watch is not None:
            await self.watch.release()  # seated meanwhile: a player, not a watcher
        # What was said before it opened (or while it was away), read before the state
        # is sent; a line said from now on comes live (kept meanwhile in early_talk).
        talk_log = self._talk_log(talk_events)
        await self.send(text_data=json.dumps(joined.frame))
        # What came meanwhile, in order: anything older than the state is dropped.
        while self.early:
            await self._forward(self.early.pop(0))
        self.joined = True
        self.count_open("watcher" if self.position is None else "player")
        # The page shows each line once (by id), whichever way it came.
        if talk_log is not None:
            await self.send(text_data=json.dumps(talk_log))
        while self.early_talk:
            await self.table_talk(self.early_talk.pop(0))
        # How many watch, after the first state (none: nothing to tell).
        count = await watching.watchers_now(self.table_id)
        if count:
            await self.send(text_data=json.dumps(watchers.frame(count)))

    async def _join(self) -> tuple[services.Joined | None, list[dict[str, Any]]]:
        """`services.table_join` in a database thread, then (in the same call) what was
        said at the table before, for the `talk_log` frame. One call, not two: after a
        web process's death every socket of its tables opens here at once, and each
        call of an opening waits its turn behind one call of every other socket.
        If connect is cancelled while it runs, it is waited for (the join commits or
        not, as a whole), and a socket it counted on the seat is recorded, for
        `_release` to count it off."""
        threads = db_threads()
        call = threads.submit(
            _join_and_talk,
            user=self.user,
            table_id=self.table_id,
            process=self.process_id,
            lane=Lane.SEAT,
            owner=self.user.pk,
        )
        try:
            return await asyncio.shield(call.future)
        except asyncio.CancelledError:
            if not threads.withdraw(call):
                with contextlib.suppress(Exception):
                    late, _ = await call.future
                    if late is not None:
                        self.seat.adopt(late.frame["seq"], late.position, late.seat_id)
            raise
        except errors.TableNotFound:
            return None, []

    async def _db(self, func: Callable[..., Any], *args: Any, lane: Lane, **kwargs: Any) -> Any:
        """`func` in a database thread, as this socket's user's, one call of this
        socket at a time (the queue holds at most one call per socket)."""
        async with self.db_turn:
            return await db_threads().run(func, *args, lane=lane, owner=self.user.pk, **kwargs)

    async def disconnect(self, code: int) -> None:
        await self._release()

    async def _release(self) -> None:
        """Undoes what connect set up, each part once, to the end even if the task is
        cancelled meanwhile (disconnect, or a connect that failed or was cancelled)."""
        if self.releasing is None:
            self.releasing = asyncio.ensure_future(self._release_all())
        await asyncio.shield(self.releasing)

    async def _release_all(self) -> None:
        self.joined = False
        self.early.clear()
        self.early_talk.clear()
        if self.sync_later is not None:
            self.sync_later.cancel()
            self.sync_later = None
        if self.sync_task is not None:
            self.sync_task.cancel()
            self.sync_task = None
        if self.delivered_directly:
            self.delivered_directly = False
            forget = getattr(self.channel_layer, "forget_directly", None)
            if forget is not None:
                forget(self.channel_name)
        if self.in_audience:
            self.in_audience = False
            await self._undo("leaving the audience", audience.leave(self.table_id, self))
        while self.joined_groups:
            group = self.joined_groups.pop()
            await self._undo(
                "leaving " + group, self.channel_layer.group_discard(group, self.channel_name)
            )
        await self._undo("leaving the session group", self.leave_session_group())
        if self.listening:
            self.listening = False
            await self._undo(
                "unlisting", listeners.closed(self.table_id, _list_process, self.process_id)
            )
        position = self.position
        self.seat.set(None, None)
        if position is not None:
            await self._undo(
                "counting the seat's socket off",
                db_threads().run(
                    services.seat_disconnect,
                    user=self.user,
                    table_id=self.table_id,
                    restarting=self.restarting,
                    process=self.process_id,
                    lane=Lane.SEAT,
                    owner=self.user.pk,
                ),
            )
        if self.watch is not None:
            await self._undo("counting the watcher off", self.watch.release())
        await self._undo("releasing the socket's place", self.release_socket())

    async def _undo(self, what: str, step: Awaitable[Any]) -> None:
        """One part of the release; a failure is logged and the next part still runs."""
        try:
            await step
        except Exception:
            logger.exception("table %s socket: %s failed", self.table_id, what)

    def _seat_changed(self, position: int | None) -> None:
        self.recount_open("watcher" if position is None else "player")

    # --- what the client sends -------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.refused or await self.over_budget(self.send_error):
            return
        message = inbound.parse(text_data)
        try:
            await self._handle(message)
        except DATABASE_DOWN:
            logger.warning(
                "table %s socket: the database failed; the client retries", self.table_id
            )
            await self.send_retry(message)

    async def send_retry(self, message: inbound.ClientOut | inbound.Bad) -> None:
        """The message could not be handled because the database failed: the client
        sends it again after `after_ms` (a `play` names its version, so a move that
        did commit is refused as stale, never played twice)."""
        frame: dict[str, Any] = {
            "type": "retry",
            "of": inbound.type_of(message),
            "after_ms": RETRY_AFTER_MS,
        }
        request_id = getattr(message, "id", None)
        if request_id is not None:
            frame["id"] = request_id
        await self.send(text_data=json.dumps(frame))

    async def _handle(self, message: inbound.ClientOut | inbound.Bad) -> None:
        match message:
            case inbound.Sync():
                await self.sync(message.id)
            case inbound.Ping():
                await self.send(text_data=json.dumps({"type": "pong", "id": message.id}))
            case inbound.Play():
                await self.play(message)
            case inbound.Talk():
                await self.talk(message)
            case inbound.Mute():
                await self.mute(message)
            case inbound.Bad(type="play") if self.position is None:
                # Whatever a play holds, a socket without a seat cannot play.
                await self.send_refusal(errors.NotSeated(), message.id)
            case inbound.Bad():
                await self.send_error(message.code, message.message, message.id)

    async def send_state(self, request_id: Any = None) -> None:
        """The whole state again, for the seat the user holds as it is read (the
        spectators' for a spectator's socket)."""
        watcher = self.position is None
        read = await self._db(
            selectors.seat_frame,
            table_id=self.table_id,
            user=None if watcher else self.user,
            lane=Lane.READ,
        )
        if read is None:  # the table is gone
            await self.close(code=admission.CLOSE_NOT_FOUND)
            return
        frame = read.frame
        if not watcher:
            self.seat.adopt(frame["seq"], read.position, read.seat_id)
        else:
            self.seat.seen(frame["seq"])
        if request_id is not None:
            frame["id"] = request_id
        await self.send(text_data=json.dumps(frame))

    async def sync(self, request_id: Any) -> None:
        """Answered at once, or, within SOCKET_SYNC_SECONDS of the last answer, once
        that time is up (one answer, with the last `id`, for every `sync` meanwhile)."""
        self.sync_id = request_id
        wait = self.synced_at + settings.SOCKET_SYNC_SECONDS - time.monotonic()
        if self.sync_later is not None or self.sync_task is not None:
            return  # an answer is on its way
        if wait > 0:
            self.sync_later = asyncio.get_running_loop().call_later(wait, self._sync_due)
            return
        await self._answer_sync()

    def _sync_due(self) -> None:
        self.sync_later = None
        self.sync_task = asyncio.ensure_future(self._answer_sync())

    async def _answer_sync(self) -> None:
        request_id, self.sync_id = self.sync_id, None
        self.synced_at = time.monotonic()
        try:
            await self.send_state(request_id)
        except DATABASE_DOWN:
            logger.warning(
                "table %s socket: the database failed; the client retries", self.table_id
            )
            await self.send_retry(inbound.Sync(id=request_id))
        finally:
            if self.sync_task is asyncio.current_task():
                self.sync_task = None

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

    async def play(self, message: inbound.Play) -> None:
        if self.position is None:
            await self.send_refusal(errors.NotSeated(), message.id)
            return
        # The database thread runs in a copy of this context: its frames' send reads it.
        received = metrics.move_received.set(time.perf_counter() if metrics.ENABLED else None)
        try:
            await self._db(
                services.match_play,
                user=self.user,
                table_id=self.table_id,
                action=message.action,
                version=message.version,
                lane=Lane.PLAY,
            )
        except errors.GameError as error:
            await self.send_refusal(error, message.id)
            if isinstance(error, errors.StaleVersion):
                await self.send_state(message.id)
            return
        finally:
            metrics.move_received.reset(received)
        if message.id is not None:
            # Every seat's `update` confirms the move; a separate `ack` is sent only
            # to a client that asked for one with an `id` (one frame less a move).
            await self.send(text_data=json.dumps({"type": "ack", "id": message.id}))

    async def talk(self, message: inbound.Talk) -> None:
        """A phrase id or free text (docs/protocol.md, "Table talk"); the line itself
        comes back to every socket of the table, this one included. A watcher's socket
        says a phrase to the other watchers only (docs/watching.md)."""
        if self.position is None:
            if message.text is not None:
                await self.send_refusal(errors.WatcherPhrasesOnly(), message.id)
                return
            refused = await self._refused(
                message.id, services.talk_watch_send, phrase=message.phrase
            )
        else:
            refused = await self._refused(
                message.id, services.talk_send, phrase=message.phrase, text=message.text
            )
        if refused:
            return
        if message.id is not None:
            await self.send(text_data=json.dumps({"type": "ack", "id": message.id}))

    async def mute(self, message: inbound.Mute) -> None:
        muted = {"position": message.seat, "muted": message.muted}
        if await self._refused(message.id, services.talk_mute, **muted):
            return
        frame: dict[str, Any] = {"type": "muted", "seat": message.seat, "muted": message.muted}
        if message.id is not None:
            frame["id"] = message.id
        await self.send(text_data=json.dumps(frame))

    async def _refused(self, request_id: Any, service: Callable[..., Any], **kwargs: Any) -> bool:
        """Runs a talk service for this user and table (the reads' lane); True, with
        the refusal sent, when it refused."""
        try:
            await self._db(
                service, user=self.user, table_id=self.table_id, lane=Lane.READ, **kwargs
            )
        except errors.GameError as error:
            await self.send_refusal(error, request_id)
            return True
        return False

    def _talk_log(self, events: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The `talk_log` frame of this socket (None: nothing it would show), from the
        lines read as it joined (`_join`)."""
        lines = []
        for event in events:
            frame = self.talk_shown.frame(
                event, user_id=self.user.pk, position=self.position, language=self.language
            )
            if frame is not None:
                del frame["type"]
                lines.append(frame)
        return {"type": "talk_log", "lines": lines} if lines else None

    # --- what the table broadcasts ---------------------------------------------------

    async def table_talk(self, event: dict[str, Any]) -> None:
        """A line said at the table, shown as this socket shows talk (games/sockets/talk.py)."""
        if not self.joined:
            self.early_talk.append(event)  # shown after the log, once the state is sent
            return
        frame = self.talk_shown.frame(
            event, user_id=self.user.pk, position=self.position, language=self.language
        )
        if frame is not None:
            await self.send(text_data=json.dumps(frame))

    async def table_frames(self, event: dict[str, Any]) -> None:
        """A change at the table: forward this socket's own frame only (kept until the
        first state is sent)."""
        if not self.joined:
            self.early.append(event)
            return
        await self._forward(event)

    async def spectate(self, event: dict[str, Any], shared: dict[str, Any] | None) -> None:
        """A change's frames, from the table's audience (games/fanout/audience.py):
        `shared` is the one `websocket.send` message of the spectators' frame that every
        watcher of this process is handed, as it is."""
        if not self.joined:
            self.early.append(event)
            return
        await self._forward(event, shared)

    async def _forward(self, event: dict[str, Any], shared: dict[str, Any] | None = None) -> None:
        if not self.seat.newer(event.get("seq")):
            return  # older than a frame this socket was given: the page drops it
        sitting = event.get("sitting")
        if sitting is not None:
            if self.watch is not None:
                self.watch.sitting(sitting)  # the watcher took a seat here
            self.seat.moved(sitting, self.user.pk)
        if shared is not None and self.seat.frame_key == builder.WATCH_KEY:
            await self.base_send(shared)  # the audience's one message, as it is
            return
        text = event["frames"].get(self.seat.frame_key)
        if text is not None:
            await self.send(text_data=text)

    async def table_watchers(self, event: dict[str, Any]) -> None:
        """How many watch the table (games/fanout/watchers.py)."""
        if self.joined:
            await self.send(text_data=json.dumps(watchers.frame(event["count"])))

    def _watches_by_the_rules(self) -> bool:
        """A socket the watchers' rules apply to: no seat, and not staff's."""
        return not self.refused and self.position is None and not self.user.is_staff

    async def table_unwatchable(self, event: dict[str, Any]) -> None:
        """Watchers were forbidden at the table: its watchers' sockets close (4433),
        but those of the users it keeps (players, a room's invitees) and staff's."""
        if self._watches_by_the_rules() and self.user.pk not in event["keep"]:
            self.refused = True
            await self.close(code=admission.CLOSE_WATCH_FORBIDDEN)

    async def user_playing(self, event: dict[str, Any]) -> None:
        """The user's own match started at another table: they stop watching this one
        (4436; docs/watching.md)."""
        if event["table"] != self.table_id and self._watches_by_the_rules():
            self.refused = True
            await self.close(code=admission.CLOSE_PLAYING_ELSEWHERE)

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        """Lobby notices reach a table socket through the shared user group: ignored."""

    async def notifications_count(self, event: dict[str, Any]) -> None:
        """The bell's count reaches a table socket through the user group: ignored."""

    async def user_balance(self, event: dict[str, Any]) -> None:
        await self.send(text_data=balance_frame(event))

    async def user_banned(self, event: dict[str, Any]) -> None:
        await self.close(code=admission.CLOSE_NOT_ALLOWED)


class LobbyConsumer(_Consumer):
    """Tells a signed-in user's lobby that their invitations changed."""

    group = ""

    async def connect(self) -> None:
        transport.register_server_loop(asyncio.get_running_loop())
        if shutdown.closing():  # during the notice it is served, closed with the rest
            await self.refuse(admission.CLOSE_RESTARTING)
            return
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(admission.CLOSE_UNAUTHENTICATED)
            return
        try:
            await self._open(user)
        except DATABASE_DOWN:  # the page reconnects in a moment (4503)
            logger.warning("lobby socket: the database failed while it opened")
            await asyncio.shield(self._release())
            self.refused = True
            await self.accept()
            await self.close(code=admission.CLOSE_RETRY_SOON)
        except BaseException:  # failed or cancelled: channels calls no disconnect()
            await asyncio.shield(self._release())
            raise

    async def _open(self, user: Any) -> None:
        refused = await self.admit_socket(user.pk)
        if refused is not None:
            await self.refuse(refused)
            return
        banned = await db_threads().run(ban_in_force, user.pk, lane=Lane.SEAT, owner=user.pk)
        if banned is not None:
            await self.refuse(admission.CLOSE_NOT_ALLOWED)
            return
        self.group = transport.user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.join_session_group()
        await self.accept()
        self.count_open("lobby")

    async def disconnect(self, code: int) -> None:
        await asyncio.shield(self._release())

    async def _release(self) -> None:
        if self.group:
            group, self.group = self.group, ""
            await self.channel_layer.group_discard(group, self.channel_name)
        await self.leave_session_group()
        await self.release_socket()

    async def send_error(self, code: str, message: Any = "", request_id: Any = None) -> None:
        await self.send(text_data=json.dumps({"type": "error", "code": code}))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.refused or await self.over_budget(self.send_error):
            return
        await self.send_error("unknown_type")

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps({"type": "lobby", "what": event["what"]}))

    async def notifications_count(self, event: dict[str, Any]) -> None:
        """The bell's unread count changed (notifications.services, after commit)."""
        unread = event.get("unread")
        if isinstance(unread, int) and unread >= 0:
            await self.send(text_data=json.dumps({"type": "notifications", "unread": unread}))

    async def user_playing(self, event: dict[str, Any]) -> None:
        """The user's match started (it closes their watching table sockets): ignored."""

    async def user_balance(self, event: dict[str, Any]) -> None:
        await self.send(text_data=balance_frame(event))

    async def user_banned(self, event: dict[str, Any]) -> None:
        await self.close(code=admission.CLOSE_NOT_ALLOWED)
