"""Bots move their seats server-side, never on the event loop.

Embedded default (tasks run eagerly): a small thread pool drives a table, one
move after another with BOT_MOVE_PAUSE_SECONDS between them. Scaled mode: a
Celery task on the `bots` queue plays one move; the commit of that move queues
the next. Either way the move is `services.match_bot_move` (the bot thinks with
no lock held; `services.match_play_bot` checks the version under the table
lock), so a duplicate driver is harmless. The services call `schedule` through
`games.hooks` (registered by `GamesConfig.ready`): they never import this module.
The sweep (`services.tables_sweep`) is the safety net if a driver dies.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import close_old_connections

from games import services
from games.models import Match, MatchStatus, Seat
from games.tasks import bot_move

logger = logging.getLogger(__name__)

_executor: ThreadPoolExecutor | None = None
_driving: set[int] = set()
_lock = threading.Lock()


def _use_celery() -> bool:
    runner = getattr(settings, "BOT_RUNNER", "auto")
    if runner == "auto":
        return not settings.CELERY_TASK_ALWAYS_EAGER
    return runner == "celery"


# Set when the process exits (Ctrl-C on `make run`): Python then waits for the pool's
# threads, which must stop instead of playing on into an interpreter that refuses
# new work ("cannot schedule new futures after interpreter shutdown"); the sweep of
# the next start picks the tables up. threading's exit hooks run before it joins
# threads, ahead of concurrent.futures' own (the one hook that runs early enough).
_stopping = threading.Event()
threading._register_atexit(_stopping.set)  # type: ignore[attr-defined]


def _shutting_down() -> bool:
    return _stopping.is_set()


def schedule(table_id: int, version: int | None = None) -> None:
    """Called after commit when the seat to play is bot-controlled, with the match's
    version (the Celery task carries it: delivered twice, it moves once)."""
    if settings.BOT_RUNNER == "off":
        return  # only the sweep moves bots (tests drive them by hand)
    if _use_celery():
        bot_move.apply_async(
            (table_id, version), countdown=settings.BOT_MOVE_PAUSE_SECONDS, queue="bots"
        )
        return
    global _executor
    if _shutting_down():
        return
    with _lock:
        if table_id in _driving:
            return  # the running driver will see the new state
        _driving.add(table_id)
        if _executor is None:
            _executor = ThreadPoolExecutor(
                max_workers=settings.BOT_THREADS, thread_name_prefix="bots"
            )
    _executor.submit(_drive, table_id)


def drain() -> None:
    """Stops this process's bot drivers and waits for them to end: a move under way
    ends whole (committed or rolled back); the moves after it are left to the next
    `schedule` or the sweep. Called by the embedded server's tests before their
    database is emptied, which a move still writing would deadlock."""
    global _executor
    with _lock:
        executor, _executor = _executor, None
    if executor is None:
        return
    _stopping.set()
    try:
        executor.shutdown(wait=True, cancel_futures=True)
    finally:
        with _lock:
            _driving.clear()
        _stopping.clear()


def _drive(table_id: int) -> None:
    failed = False
    try:
        while not _stopping.wait(settings.BOT_MOVE_PAUSE_SECONDS):
            if not play_one(table_id):
                break
    except Exception:
        failed = True  # the sweep's safety-net deadline takes over
        if _shutting_down():
            # A move that was under way as the process exits: it committed or rolled
            # back whole; only its broadcast could not be sent. Nothing to report.
            logger.info("bot driver for table %s stopped by the shutdown", table_id)
        else:
            logger.exception("bot driver for table %s failed", table_id)
    finally:
        with _lock:
            _driving.discard(table_id)
    try:
        # A move committed between our last check and the discard is picked up here.
        if not failed and not _shutting_down() and _bot_to_play(table_id):
            schedule(table_id)
    finally:
        close_old_connections()


def _bot_to_play(table_id: int) -> bool:
    match = Match.objects.filter(table_id=table_id, status=MatchStatus.PLAYING).first()
    if match is None or match.to_play is None:
        return False
    seat = Seat.objects.filter(table_id=table_id, position=match.to_play).first()
    return seat is not None and seat.bot_controlled


def play_one(table_id: int) -> bool:
    """Plays one bot move if a bot-controlled seat is to play; True if it did."""
    return services.match_bot_move(table_id=table_id)
