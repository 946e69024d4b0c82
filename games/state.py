"""Engine state of a stored match: rebuilt from the database, cached per process.

The cache is keyed by (match id, version), so a process never uses a state
another process has moved past: a cached state behind the stored version
catches up from the action log, any other mismatch means a rebuild.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from typing import Any

from django.db import connection
from psycopg.types.numeric import Int8

from cuatrola.engine import EngineError
from cuatrola.engine import Match as EngineMatch
from games import models
from ops.sql import run_prepared

_CACHE_SIZE = 4096
_cache: OrderedDict[int, tuple[int, EngineMatch]] = OrderedDict()
_lock = threading.Lock()


def cache_put(match_id: int, version: int, engine: EngineMatch) -> None:
    with _lock:
        _cache[match_id] = (version, engine)
        _cache.move_to_end(match_id)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def cache_clear() -> None:
    with _lock:
        _cache.clear()


def engine_match(match: models.Match) -> EngineMatch:
    """The engine state of `match` at its stored version.

    A cached state a few actions behind (another process applied them) catches
    up from the action log; anything else is rebuilt from the stored record when
    it holds exactly `version` actions (written at the start and at the end of a
    match), else from the deals and the action log.
    """
    with _lock:
        hit = _cache.get(match.pk)
    if hit is not None and hit[0] == match.version:
        return hit[1]
    engine = None
    if hit is not None and hit[0] < match.version:
        engine = _catch_up(match, hit[0], hit[1])
    if engine is None:
        if match.record and _record_actions(match.record) == match.version:
            engine = EngineMatch.from_dict(match.record)
        else:
            engine = rebuild(match)
    cache_put(match.pk, match.version, engine)
    return engine


def _record_actions(record: dict[str, Any]) -> int:
    return sum(len(hand.get("actions", ())) for hand in record.get("hands", ()))


def _catch_up(match: models.Match, version: int, engine: EngineMatch) -> EngineMatch | None:
    """Applies the logged actions after `version` (None if the log disagrees)."""
    rows = _actions_between(match, version)
    if len(rows) != match.version - version:
        return None
    try:
        for seat, action in rows:
            engine, _ = engine.apply(action, seat=seat)
    except EngineError:  # a log the engine refuses: rebuild from scratch instead
        return None
    return engine


@functools.cache
def _actions_statement() -> str:
    table = connection.ops.quote_name(models.MatchAction._meta.db_table)
    return (
        f"SELECT seat, action FROM {table} "
        "WHERE match_id = $1 AND number > $2 AND number <= $3 ORDER BY number"
    )


def _actions_between(match: models.Match, version: int) -> list[tuple[int, str]]:
    """(seat, action) of the logged actions after `version`, up to the match's.

    A prepared statement on PostgreSQL: a process catches up this way on nearly
    every move it did not apply itself (a bot's move after its players' moves)."""
    if connection.vendor != "postgresql":
        return list(
            match.actions.filter(number__gt=version, number__lte=match.version)
            .order_by("number")
            .values_list("seat", "action")
        )
    params = (Int8(match.pk), Int8(version), Int8(match.version))
    return run_prepared(_actions_statement(), params).fetchall()


def record_from_log(match: models.Match) -> dict[str, Any]:
    """The engine record built from the authoritative rows: deals and the action log,
    up to the match's version (rows committed after `match` was read are left out)."""
    actions: dict[int, list[str]] = {}
    logged = match.actions.filter(number__lte=match.version).order_by("number")
    for hand_no, action in logged.values_list("hand_no", "action"):
        actions.setdefault(hand_no, []).append(action)
    hands = [
        {
            "rules": match.rules,
            "dealer": hand.dealer,
            "scores": list(hand.scores_before),
            "deal": hand.deal,
            "trump": hand.trump,
            "actions": actions.get(hand.number, []),
        }
        for hand in match.hands.filter(number__lte=match.hand_no).order_by("number")
    ]
    record: dict[str, Any] = {
        "format": 1,
        "rules": match.rules,
        "seed": match.seed,
        "first_dealer": match.first_dealer,
        "hands": hands,
    }
    if match.last_hand is not None:
        record["last_hand"] = match.last_hand
    return record


def rebuild(match: models.Match) -> EngineMatch:
    return EngineMatch.from_dict(record_from_log(match))
