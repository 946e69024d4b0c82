"""Engine state of a stored match: rebuilt from the database, cached per process.

The cache is keyed by (match id, version), so a process never uses a state
another process has moved past: a version mismatch means a rebuild.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from games import models
from games.engine import Match as EngineMatch

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
    """The engine state of `match` at its stored version."""
    with _lock:
        hit = _cache.get(match.pk)
    if hit is not None and hit[0] == match.version:
        return hit[1]
    engine = EngineMatch.from_dict(match.record) if match.record else rebuild(match)
    cache_put(match.pk, match.version, engine)
    return engine


def record_from_log(match: models.Match) -> dict[str, Any]:
    """The engine record built from the authoritative rows: deals and the action log."""
    actions: dict[int, list[str]] = {}
    for hand_no, action in match.actions.order_by("number").values_list("hand_no", "action"):
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
        for hand in match.hands.order_by("number")
    ]
    return {
        "format": 1,
        "rules": match.rules,
        "seed": match.seed,
        "first_dealer": match.first_dealer,
        "hands": hands,
    }


def rebuild(match: models.Match) -> EngineMatch:
    return EngineMatch.from_dict(record_from_log(match))
