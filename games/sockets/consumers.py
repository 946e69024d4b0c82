"""Websocket consumers: the table (/ws/tables/<id>/) and the lobby (/ws/lobby/).

Thin: they authenticate, limit, parse, call services in a database thread and
forward the frames the services broadcast. The protocol is docs/protocol.md.

Database work runs on a small pool of threads (`WEB_DB_THREADS`, one database
connection each: games/sockets/db_threads.py), not channels' single thread-sensitive one:
a process then waits on several PostgreSQL round trips and commits at once. Moves
go first, and each user's calls take their turn with everyone else's, so one user's
flood never queues another's move. Services lock rows themselves, exactly as when
several processes serve one table.

A table socket shows the seat its user holds: its first frame is built under the
table's lock together with the seat it is for (`services.table_join`), a `sync`
reads the seat and its state in one snapshot, and every broadcast says where each
user sits (`sitting`). Whichever of these is the latest (by the table's `seq`)
decides the seat the socket forwards; an older one never moves it back.

A watcher's socket (docs/watching.md: no seat, and not staff's) is counted among
the table's and its user's watching sockets (games/sockets/limits.py) from before
it joins anything until it closes, or until its user takes a seat at the table
(`sitting` lists them): a seated player is no watcher. A socket whose user leaves
their seat forwards the spectators' frames from then on but does not start counting
as a watcher (it was admitted as a player's; its next connection is counted).
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
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.selectors import ban_in_force
from games import errors, frames, selectors, services
from games.sockets import heartbeat, limits, listeners, transport, watchers
from games.sockets.db_threads import DatabaseThreads, Lane
from games.sockets.guard import GuardedSocket, socket_address
from games.words.talk_phrases import PHRASES
from ops import context, metrics

logger = logging.getLogger(__name__)

# Close codes (4000–4999 are the application's; the guard has the others).
CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_ALLOWED = 4403
CLOSE_NOT_FOUND = 4404
# A watcher refused (docs/watching.md): watchers are forbidden at the table; it has
# WATCHERS_PER_TABLE watchers; the user holds WATCH_SOCKETS_PER_USER watching sockets;
# the user is playing a match of their own.
CLOSE_WATCH_FORBIDDEN = 4433
CLOSE_WATCHERS_FULL = 4434
CLOSE_WATCHING_ENOUGH = 4435
CLOSE_PLAYING_ELSEWHERE = 4436
CLOSE_WATCHERS_FROM_ADDRESS = 4437
_REFUSALS = {
    selectors.FORBIDDEN: CLOSE_WATCH_FORBIDDEN,
    selectors.PLAYING_ELSEWHERE: CLOSE_PLAYING_ELSEWHERE,
}
# A client message's limit, far below the server's own (daphne closes the socket with
# 1009 over 1 MiB, before the application sees the message): a message over it gets
# a `too_large` error frame and the socket stays open (docs/protocol.md).
MAX_MESSAGE_BYTES = 4096

TOO_BIG = _("Send JSON text frames of at most 4 KiB.")
NOT_JSON = _("That is not JSON.")
NOT_AN_OBJECT = _("Send a JSON object.")
UNKNOWN_TYPE = _("Unknown message type.")
BAD_PLAY = _("A play needs a string action and an integer version.")
BAD_TALK = _("Talk needs either a phrase id or a text, as a string.")
BAD_MUTE = _("A mute needs a seat number and true or false.")

# Owners of the database calls that are the process's, not a user's.
HEARTBEAT = "heartbeat"

_threads: DatabaseThreads | None = None
_threads_lock = threading.Lock()


def db_threads() -> DatabaseThreads:
    """This process's database threads for socket work."""
    global _threads
    with _threads_lock:
        if _threads is None:
            _threads = DatabaseThreads(settings.WEB_DB_THREADS)
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
        services.seats_heard, seat_ids=seat_ids, lane=Lane.SEAT, owner=HEARTBEAT
    )


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
        in `db_threads()`, which closes stale connections itself (measured: the hop
        cost as much as a move's frames; docs/operations.md)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class TableConsumer(_Consumer):
    position: int | None = None  # the seat whose frames this socket forwards
    frame_key: str = frames.WATCH_KEY
    table_id: int = 0
    seat_id: int | None = None  # that seat's row, vouched for in games.sockets.heartbeat
    seq = 0  # the table's `seq` of the latest frame this socket was given
    joined = False  # its first state is sent: broadcasts are forwarded, not kept
    listening = False  # counted in games.sockets.listeners (this process listed on the table)
    delivered_directly = False  # the layer hands it messages (deliver_directly)
    process_id = listeners.PROCESS_ID  # as listed (tests play another process)
    watching = False  # counted in games.sockets.limits as a watcher of this table
    # A watcher's own talk filter, read when it opened (games.hooks.watcher_talk_filter):
    # whose talk it does not show (a block either way), and all talk hidden.
    talk_blocked: frozenset[int] = frozenset()
    talk_hidden = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.joined_groups: list[str] = []
        self.early: list[dict[str, Any]] = []  # broadcasts before the first state
        self.db_turn = asyncio.Lock()  # one database call of this socket at a time
        self.synced_at = float("-inf")
        self.sync_later: asyncio.TimerHandle | None = None
        self.sync_task: asyncio.Task[None] | None = None
        self.sync_id: Any = None
        self.releasing: asyncio.Future[None] | None = None
        self.unwatch_task: asyncio.Future[None] | None = None  # seated: counted off

    async def connect(self) -> None:
        transport.register_server_loop(asyncio.get_running_loop())
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
        # This socket's task keeps them: every log line of its work carries them.
        context.user_id.set(user.pk)
        context.table_id.set(self.table_id)
        try:
            await self._open()
        except BaseException:
            # Channels calls disconnect() only for a socket whose connect ended: one
            # that failed or was cancelled (daphne cancels it 10 s after the client
            # left) undoes here whatever it had set up.
            await self._release()
            raise

    async def _open(self) -> None:
        """Connect's steps; each records what it set up before it waits, so that
        `_release` undoes exactly that, whenever it stops."""
        refused = await self.admit_socket(self.user.pk)
        if refused is not None:
            await self.refuse(refused)
            return
        admission = await self._db(self._admit, self.user, self.table_id, lane=Lane.SEAT)
        if not admission.found:
            await self.refuse(CLOSE_NOT_FOUND)
            return
        if admission.banned:
            await self.refuse(CLOSE_NOT_ALLOWED)
            return
        if admission.refusal is not None:
            await self.refuse(_REFUSALS[admission.refusal])
            return
        if admission.position is None:
            self.talk_blocked, self.talk_hidden = admission.talk_blocked, admission.talk_hidden
            refused = await self._watch_admit()
            if refused is not None:
                await self.refuse(refused)
                return
        # Join the groups before reading the state, so no change falls in between.
        # Moderation (see docs/protocol.md): a ban closes every socket of the user.
        for group in (transport.table_group(self.table_id), transport.user_group(self.user.pk)):
            self.joined_groups.append(group)
            await self.channel_layer.group_add(group, self.channel_name)
        await self.join_session_group()  # logging out closes it (games/sockets/guard.py)
        await self.accept()
        # From now on (accepted: it may send), messages straight from the layer,
        # without a queue and a wake-up of this consumer's task per move (the Redis
        # layer; cuatrola_site/channel_layer.py). Every handler here is quick: none
        # waits on the database. Any message queued before is dispatched after this.
        direct = getattr(self.channel_layer, "deliver_directly", None)
        if direct is not None:
            self.delivered_directly = True
            direct(self.channel_name, self.dispatch)
        # Listed on the table before reading its state (games/sockets/listeners.py).
        await listeners.opened(self.table_id, _list_process, self.process_id)
        self.listening = True
        listeners.keep_listed(_check_listed, _list_process)
        joined = await self._join()
        if joined is None or joined.refused is not None:
            # No longer one who may see it, or refused as its watcher meanwhile.
            self.refused = True
            code = CLOSE_NOT_FOUND if joined is None else _REFUSALS[joined.refused or ""]
            await self.close(code=code)
            return
        self._adopt(joined.frame["seq"], joined.position, joined.seat_id)
        if self.position is not None and self.watching:
            await self._unwatch()  # seated meanwhile: a player, not a watcher
        await self.send(text_data=json.dumps(joined.frame))
        # What came meanwhile, in order: anything older than the state is dropped.
        while self.early:
            await self._forward(self.early.pop(0))
        self.joined = True
        self.count_open("watcher" if self.position is None else "player")
        # How many watch, after the first state (none: nothing to tell).
        count = await self._watchers_now()
        if count:
            await self.send(text_data=json.dumps(watchers.frame(count)))

    async def _watch_admit(self) -> int | None:
        """Counts this socket as a watcher of the table (staff: of no table, only
        among their own watching sockets); None, or the close code that refuses it."""
        self.watching = True  # before the count: a cancelled admission is released too
        refused = await limits.watch_admit(
            socket=self.channel_name,
            user_id=self.user.pk,
            table_id=None if self.user.is_staff else self.table_id,
            address=socket_address(self.scope),
        )
        if refused is None:
            if not self.user.is_staff:
                watchers.changed(self.table_id, self.channel_layer)
            return None
        self.watching = False
        return {
            limits.USER: CLOSE_WATCHING_ENOUGH,
            limits.ADDRESS: CLOSE_WATCHERS_FROM_ADDRESS,
        }.get(refused, CLOSE_WATCHERS_FULL)

    async def _unwatch(self) -> None:
        """This socket no longer counts as a watcher (closed, or its user sat down)."""
        if not self.watching:
            return
        self.watching = False
        await limits.watch_release(socket=self.channel_name)
        if not self.user.is_staff:
            watchers.changed(self.table_id, self.channel_layer)

    async def _watchers_now(self) -> int:
        try:
            return await limits.watchers_counted(self.table_id)
        except Exception:  # the count is a courtesy: never a reason to fail a socket
            logger.exception("table %s: reading its watcher count failed", self.table_id)
            return 0

    async def _join(self) -> services.Joined | None:
        """`services.table_join` in a database thread. If connect is cancelled while
        it runs, it is waited for (it commits or not, as a whole), and a socket it
        counted on the seat is recorded, for `_release` to count it off."""
        threads = db_threads()
        call = threads.submit(
            services.table_join,
            user=self.user,
            table_id=self.table_id,
            lane=Lane.SEAT,
            owner=self.user.pk,
        )
        try:
            joined = await asyncio.shield(call.future)
        except asyncio.CancelledError:
            if not threads.withdraw(call):
                with contextlib.suppress(Exception):
                    late = await call.future
                    if late is not None:
                        self._adopt(late.frame["seq"], late.position, late.seat_id)
            raise
        except errors.TableNotFound:
            return None
        return joined

    @staticmethod
    def _admit(user: Any, table_id: int) -> selectors.Admission:
        """What the socket learns before it joins anything (a database thread's call)."""
        return selectors.table_admission(user=user, table_id=table_id)

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
        self._set_seat(None, None)
        if position is not None:
            await self._undo(
                "counting the seat's socket off",
                db_threads().run(
                    services.seat_disconnect,
                    user=self.user,
                    table_id=self.table_id,
                    lane=Lane.SEAT,
                    owner=self.user.pk,
                ),
            )
        await self._undo("counting the watcher off", self._unwatch())
        await self._undo("releasing the socket's place", self.release_socket())

    async def _undo(self, what: str, step: Awaitable[Any]) -> None:
        """One part of the release; a failure is logged and the next part still runs."""
        try:
            await step
        except Exception:
            logger.exception("table %s socket: %s failed", self.table_id, what)

    def _adopt(self, seq: int, position: int | None, seat_id: int | None) -> bool:
        """A state read at `seq` found the user at `position`: the socket shows that
        seat from now on, unless it was already given a later frame."""
        if seq < self.seq:
            return False
        self.seq = seq
        self._set_seat(position, seat_id)
        return True

    def _set_seat(self, position: int | None, seat_id: int | None) -> None:
        """The seat this socket forwards, and the one the process vouches for (each
        socket vouches for one seat at most: games/sockets/heartbeat.py)."""
        self.position = position
        self.frame_key = frames.frame_key(position)
        self.recount_open("watcher" if position is None else "player")
        if seat_id != self.seat_id:
            if self.seat_id is not None:
                heartbeat.closed(self.seat_id)
            self.seat_id = seat_id
            if seat_id is not None:
                heartbeat.opened(seat_id, _vouch)

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
            await self.close(code=CLOSE_NOT_FOUND)
            return
        frame = read.frame
        if not watcher:
            self._adopt(frame["seq"], read.position, read.seat_id)
        else:
            self.seq = max(self.seq, frame["seq"])
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
            await self.sync(request_id)
        elif kind == "ping":
            await self.send(text_data=json.dumps({"type": "pong", "id": request_id}))
        elif kind == "play":
            await self.play(message, request_id)
        elif kind == "talk":
            await self.talk(message, request_id)
        elif kind == "mute":
            await self.mute(message, request_id)
        else:
            await self.send_error("unknown_type", UNKNOWN_TYPE, request_id)

    async def play(self, message: dict[str, Any], request_id: Any) -> None:
        if self.position is None:
            await self.send_refusal(errors.NotSeated(), request_id)
            return
        action, version = message.get("action"), message.get("version")
        if not isinstance(action, str) or not isinstance(version, int) or isinstance(version, bool):
            await self.send_error("malformed", BAD_PLAY, request_id)
            return
        # The database thread runs in a copy of this context: its frames' send reads it.
        received = metrics.move_received.set(time.perf_counter() if metrics.ENABLED else None)
        try:
            await self._db(
                services.match_play,
                user=self.user,
                table_id=self.table_id,
                action=action,
                version=version,
                lane=Lane.PLAY,
            )
        except errors.GameError as error:
            await self.send_refusal(error, request_id)
            if isinstance(error, errors.StaleVersion):
                await self.send_state(request_id)
            return
        finally:
            metrics.move_received.reset(received)
        if request_id is not None:
            # Every seat's `update` confirms the move; a separate `ack` is sent only
            # to a client that asked for one with an `id` (one frame less a move).
            await self.send(text_data=json.dumps({"type": "ack", "id": request_id}))

    async def talk(self, message: dict[str, Any], request_id: Any) -> None:
        """A phrase id or free text (docs/protocol.md, "Table talk"); the line itself
        comes back to every socket of the table, this one included. A watcher's socket
        says a phrase to the other watchers only (docs/watching.md)."""
        phrase, text = message.get("phrase"), message.get("text")
        if (phrase is None) == (text is None) or not isinstance(phrase or text, str):
            await self.send_error("malformed", BAD_TALK, request_id)
            return
        if self.position is None:
            if text is not None:
                await self.send_refusal(errors.WatcherPhrasesOnly(), request_id)
                return
            if await self._refused(request_id, services.talk_watch_send, phrase=phrase):
                return
        elif await self._refused(request_id, services.talk_send, phrase=phrase, text=text):
            return
        if request_id is not None:
            await self.send(text_data=json.dumps({"type": "ack", "id": request_id}))

    async def mute(self, message: dict[str, Any], request_id: Any) -> None:
        seat, muted = message.get("seat"), message.get("muted")
        if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(muted, bool):
            await self.send_error("malformed", BAD_MUTE, request_id)
            return
        if await self._refused(request_id, services.talk_mute, position=seat, muted=muted):
            return
        frame: dict[str, Any] = {"type": "muted", "seat": seat, "muted": muted}
        if request_id is not None:
            frame["id"] = request_id
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

    async def table_talk(self, event: dict[str, Any]) -> None:
        """A line said at the table: shown unless this user must not see it, a phrase
        in this socket's language."""
        if not self.joined or self.user.pk in event["hidden_from"]:
            return
        if self.position is not None:
            if event.get("watchers_only"):
                return  # the players never see what watchers say
        elif event.get("speaker") != self.user.pk and (
            self.talk_hidden or event.get("speaker") in self.talk_blocked
        ):
            return  # a watcher's own filter (blocks, all talk hidden)
        line = dict(event["line"])
        phrase = PHRASES.get(line["phrase"] or "")
        if phrase is not None:
            with translation.override(self.language):
                line["text"] = phrase.text()
                line["label"] = str(phrase.label)
        await self.send(text_data=json.dumps({"type": "talk", **line}))

    async def table_frames(self, event: dict[str, Any]) -> None:
        """A change at the table: forward this socket's own frame only (kept until the
        first state is sent)."""
        if not self.joined:
            self.early.append(event)
            return
        await self._forward(event)

    async def _forward(self, event: dict[str, Any]) -> None:
        seq = event.get("seq")
        if isinstance(seq, int):
            if seq < self.seq:
                return  # older than a frame this socket was given: the page drops it
            self.seq = seq
        sitting = event.get("sitting")
        if self.watching and sitting is not None and str(self.user.pk) in sitting:
            # The watcher took a seat here: no longer counted as a watcher.
            self.unwatch_task = asyncio.ensure_future(self._unwatch())
        if sitting is not None and self.position is not None:
            # The user was moved to another seat (or freed theirs): this socket now
            # forwards that seat's frames (or the spectators').
            seat = sitting.get(str(self.user.pk))
            position, seat_id = seat if seat is not None else (None, None)
            self._set_seat(position, seat_id)
        text = event["frames"].get(self.frame_key)
        if text is not None:
            await self.send(text_data=text)

    async def table_watchers(self, event: dict[str, Any]) -> None:
        """How many watch the table (games/sockets/watchers.py)."""
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
            await self.close(code=CLOSE_WATCH_FORBIDDEN)

    async def user_playing(self, event: dict[str, Any]) -> None:
        """The user's own match started at another table: they stop watching this one
        (4436; docs/watching.md)."""
        if event["table"] != self.table_id and self._watches_by_the_rules():
            self.refused = True
            await self.close(code=CLOSE_PLAYING_ELSEWHERE)

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
        transport.register_server_loop(asyncio.get_running_loop())
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(CLOSE_UNAUTHENTICATED)
            return
        try:
            await self._open(user)
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
            await self.refuse(CLOSE_NOT_ALLOWED)
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

    async def user_playing(self, event: dict[str, Any]) -> None:
        """The user's match started (it closes their watching table sockets): ignored."""

    async def user_balance(self, event: dict[str, Any]) -> None:
        await self.send(text_data=balance_frame(event))

    async def user_banned(self, event: dict[str, Any]) -> None:
        await self.close(code=CLOSE_NOT_ALLOWED)
