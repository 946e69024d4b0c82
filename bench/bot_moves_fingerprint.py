"""The bots' moves on fixed deals, as one hash per level (not a test).

Plays seeded matches (the online rule set) with every seat run by the site's bot
call (`games.services.bot_action`: the seat's view, the table's level and the
seed derived from the match's seed and version), and prints a SHA-256 of each
level's action logs. Run it before and after a change that must not change the
bots' choices; the hashes must be equal.

    .venv/bin/python bench/bot_moves_fingerprint.py
    .venv/bin/python bench/bot_moves_fingerprint.py --easy 40 --medium 8 --hard 2

Easy and medium play whole matches; hard (400 ms a move) plays the first three
hands of each match only. Bot searches count work, not time (docs/bots.md); their
safety-net clock (a multiple of the budget, for a loaded server) is pushed out of
reach here, so the hashes do not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cuatrola_site.settings")
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz")
os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("STATIC_MANIFEST", "0")
os.environ.setdefault("CELERY_SKIP_CHECKS", "1")
os.environ.pop("REDIS_URL", None)

import django

django.setup()

import cuatrola.bots.search as bot_search  # noqa: E402
from cuatrola.engine import Match as EngineMatch  # noqa: E402
from games.services import bot_action  # noqa: E402

# Only the counted work stops a search, never the clock (deterministic on any load).
bot_search.DEADLINE_FACTOR = 1_000_000

SEED_BASE = 20_261_201


def play(level: str, seed: int, *, max_hands: int | None) -> list[str]:
    engine = EngineMatch.new("online", seed=seed)
    table = SimpleNamespace(bot_level=level)
    log: list[str] = []
    while not engine.is_over and engine.to_play is not None:
        if max_hands is not None and engine.hand_no > max_hands:
            break
        match = SimpleNamespace(seed=seed, version=len(log))
        position = engine.to_play
        action = bot_action(engine, table, match, position)
        engine, _events = engine.apply(action, seat=position)
        log.append(f"{position}:{action}")
    return log


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--easy", type=int, default=30, help="whole matches at easy")
    parser.add_argument("--medium", type=int, default=4, help="whole matches at medium")
    parser.add_argument("--hard", type=int, default=2, help="first three hands at hard")
    args = parser.parse_args()
    print(f"machine: {platform.machine()} {platform.python_version()} cpus={os.cpu_count()}")
    for level, count in (("easy", args.easy), ("medium", args.medium), ("hard", args.hard)):
        digest = hashlib.sha256()
        moves = 0
        started = time.perf_counter()
        for i in range(count):
            log = play(level, SEED_BASE + i, max_hands=3 if level == "hard" else None)
            moves += len(log)
            digest.update(f"{SEED_BASE + i}|{' '.join(log)}\n".encode())
        seconds = time.perf_counter() - started
        print(f"{level:6} matches={count:3} moves={moves:5} {seconds:6.1f}s  {digest.hexdigest()}")


if __name__ == "__main__":
    main()
