"""The embedded bot drivers stop cleanly when the process exits (Ctrl-C on `make run`),
and when the browser tests drain them before emptying the database."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A process whose bot driver is playing a table when its main thread ends, as
# the web process's does when `make run` is stopped. A move under way at that moment
# broadcasts through a thread pool, which Python then refuses ("cannot schedule
# new futures after interpreter shutdown"); the fake move does the same.
SCRIPT = """
import os, threading
from concurrent.futures import ThreadPoolExecutor
import django
django.setup()
from django.conf import settings
from games import bot_runner

settings.BOT_RUNNER = "thread"
settings.BOT_MOVE_PAUSE_SECONDS = 0.01
moved = threading.Event()

def play_one(table_id):
    moved.set()
    if not threading.main_thread().is_alive():
        ThreadPoolExecutor(1).submit(print)  # the broadcast after the move's commit
    return True  # there is always another bot move to play

bot_runner.play_one = play_one
bot_runner._bot_to_play = lambda table_id: True
bot_runner.schedule(7)
assert moved.wait(60)
print("main thread done", flush=True)
"""


def test_stopping_the_process_while_bots_play_ends_their_drivers_without_a_traceback():
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(DEBUG="1", DJANGO_SETTINGS_MODULE="cuatrola_site.settings")
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,  # before the fix the driver played on forever
    )
    assert result.returncode == 0, result.stderr
    assert "main thread done" in result.stdout
    assert "Traceback" not in result.stderr, result.stderr
    assert "failed" not in result.stderr, result.stderr


def test_draining_waits_for_the_move_under_way_and_stops_the_drivers(settings, monkeypatch):
    """What the browser tests do before their database is emptied: a driver still
    writing a move then would deadlock with the flush."""
    import threading

    from games import bot_runner

    settings.BOT_RUNNER = "thread"
    settings.BOT_MOVE_PAUSE_SECONDS = 0
    monkeypatch.setattr(bot_runner, "_executor", None)
    monkeypatch.setattr(bot_runner, "_driving", set())
    monkeypatch.setattr(bot_runner, "_bot_to_play", lambda table_id: True)
    started, later_table_played = threading.Event(), threading.Event()
    moves: list[int] = []

    def play_one(table_id):
        if table_id == 8:
            later_table_played.set()
            return False
        started.set()
        # A move under way when the drain begins: it ends only once the drain asked
        # the drivers to stop, so the drain must wait for it.
        assert bot_runner._stopping.wait(10)
        moves.append(table_id)
        return True  # always another bot move to play

    monkeypatch.setattr(bot_runner, "play_one", play_one)
    bot_runner.schedule(7)
    assert started.wait(10)
    bot_runner.drain()
    assert moves == [7]  # the move under way ended before the drain returned
    assert bot_runner._executor is None and bot_runner._driving == set()
    assert not bot_runner._shutting_down()
    bot_runner.schedule(8)  # a table scheduled afterwards is driven again
    assert later_table_played.wait(10)
    bot_runner.drain()
    assert moves == [7]  # and the drained driver never played on
