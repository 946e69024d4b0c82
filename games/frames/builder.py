"""The frames a table's seats draw (docs/protocol.md), built in one place for the
live table and for offline practice.

Pure Python like `cuatrola.engine` (no Django, no I/O): the server imports it
(games/sockets/table_frames.py fills it from the database rows), and offline
practice's worker runs it in the browser (games/frames/offline_practice.py; games/offline.py
ships it). So both tables get the same frames from the same engine state: the seat's
view, the trick in play and the last one, the summary of the hand just finished,
the match's result, and every seat's name (one naming rule, `player_names`). The
renderer (static/js/table-view.js) draws what a frame says and derives nothing from
the rules. Frames hold codes, never text: words come from games/words/catalogue.py.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from cuatrola.engine import Hand
from cuatrola.engine import Match as EngineMatch

# Bots' names: Spanish first names, a different one for each bot at a table.
BOT_NAMES = (
    "Lola", "Paco", "Carmen", "Manolo", "Pilar", "Curro", "Rocío", "Chema",
    "Nuria", "Andrés", "Elena", "Javi", "Marta", "Pepe", "Inés", "Luis",
    "Rosa", "Quique", "Amparo", "Toño", "Begoña", "Iker", "Merche", "Rafa",
)  # fmt: skip

#: The key of the spectators' frame among a change's frames (a seat's is its position).
WATCH_KEY = "watch"


def bot_names(*, seed: int, taken: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Four distinct bot names, one per position, the same for every call with this
    seed (the match's seed, or the table's id before a match): a bot keeps its name
    for the whole match. Names a player at the table uses (any case) are skipped.
    (`random.Random` seeded with a string draws the same in CPython and in Pyodide.)"""
    return list(_bot_names(seed, frozenset(taken)))


@functools.lru_cache(maxsize=4096)
def _bot_names(seed: int, taken: frozenset[str]) -> tuple[str, ...]:
    free = [name for name in BOT_NAMES if name.casefold() not in taken]
    return tuple(random.Random(f"bot-names-{seed}").sample(free, 4))


def player_names(*, seed: int, people: Mapping[int, str], bots: Iterable[int]) -> list[str | None]:
    """The one naming rule of a table's four positions, live, offline or finished: a
    person is their name (`people`, by position: a username, or offline "You"), a bot
    (a position in `bots`) the name `bot_names` draws from `seed` (never a person's
    name there), an empty seat None. The table, offline practice, the history list
    and the replay all name seats through it."""
    drawn = bot_names(seed=seed, taken={name.casefold() for name in people.values()})
    bot_positions = set(bots)
    return [
        people.get(position, drawn[position] if position in bot_positions else None)
        for position in range(4)
    ]


def seat_fields(
    *,
    position: int,
    kind: str,
    name: str | None,
    level: str | None,
    connected: bool,
    absent: bool,
    abandoned: bool,
    reliability: int | None,
    on_time: int | None = None,
    rating: dict[str, Any] | None = None,
    self_named: bool = False,
) -> dict[str, Any]:
    """One seat of a frame's `table`. `reliability` and `on_time`: the person's
    reputation (shares of matches finished, and finished without a timed-out turn,
    in percent; None for a bot or a player with no finished match). `rating`: shown
    beside the name at a rated table (`value`, `provisional`, `bot`), else None.
    `self_named`: the viewer's own seat is named for them ("You", offline), so the
    renderer adds no "you" badge and speaks to them in the second person."""
    return {
        "position": position,
        "kind": kind,
        "name": name,
        "level": level,
        "pair": position % 2,
        "connected": connected,
        "absent": absent,
        "abandoned": abandoned,
        "reliability": reliability,
        "on_time": on_time,
        "rating": rating,
        "self_named": self_named,
    }


def table_fields(
    *,
    id: int | None,
    mode: str,
    rules: str,
    stake: int | None,
    pot: int | None,
    status: str,
    owner: str | None,
    bot_level: str | None,
    match: int | None,
    deadline: datetime | None,
    seats: list[dict[str, Any]],
    offline: bool = False,
    extra: Mapping[str, Any] | None = None,
    linked: Iterable[Sequence[str]] = (),
) -> dict[str, Any]:
    """A frame's `table`: what is played there and by whom (docs/protocol.md).
    `extra`: what the table's mode adds (`ModePolicy.table_info`: the daily deal's
    `daily`), under keys of its own that these fields never overwrite. `linked`: the
    pairs of linked accounts seated there, each as two names in seat order (shown to
    everyone at the table)."""
    return {
        **(extra or {}),
        "id": id,
        "mode": mode,
        "offline": offline,
        "rules": rules,
        "stake": stake,
        "pot": pot,
        "status": status,
        "owner": owner,
        "bot_level": bot_level,
        "match": match,
        "deadline": deadline.isoformat() if deadline else None,
        "deadline_ms": int(deadline.timestamp() * 1000) if deadline else None,
        "seats": seats,
        "linked": [list(pair) for pair in linked],
    }


def _trick(trick: Any, hand_no: int) -> dict[str, Any]:
    return {
        "hand_no": hand_no,
        "number": trick.number,
        "leader": trick.leader,
        "plays": [{"seat": s, "card": c} for s, c in trick.plays],
        "winner": trick.winner,
        "points": trick.points,
    }


def last_trick(engine: EngineMatch) -> dict[str, Any] | None:
    """The last completed trick, with its winner: the current hand's, else (no trick
    complete yet in this hand) the previous hand's last one."""
    hands = engine.hands
    for hand_no in (len(hands), len(hands) - 1):
        if hand_no >= 1 and hands[hand_no - 1].tricks:
            return _trick(hands[hand_no - 1].tricks[-1], hand_no)
    return None


def hand_summary(hand: Hand, hand_no: int, *, final: bool) -> dict[str, Any]:
    """What a finished hand came to, per pair (pair 0: seats 0 and 2)."""
    result = hand.result
    assert result is not None
    by_points = result.hand_points is not None
    last_seat = result.last_trick_seat
    tricks = result.tricks_per_seat
    return {
        "hand_no": hand_no,
        "final": final,
        "kind": result.kind,
        "contract": result.contract,
        "declarer": result.declarer,
        "sitting_out": result.sitting_out,
        "made": result.made,
        "tricks": [tricks[0] + tricks[2], tricks[1] + tricks[3]],
        "tricks_per_seat": list(tricks),
        "card_points": list(result.card_points),
        "declarations": [
            {"seat": d.seat, "suit": d.suit, "points": d.points, "cards": list(d.cards)}
            for d in result.declarations
        ],
        "last_trick_seat": last_seat,
        "last_trick_bonus": hand.rules.last_trick_bonus
        if by_points and last_seat is not None
        else 0,
        "hand_points": list(result.hand_points)
        if by_points and result.hand_points is not None
        else None,
        "tie": result.tie,
        "scoring_pair": result.scoring_pair,
        "match_points": result.match_points,
        "scores": [
            hand.scores[p] + (result.match_points if p == result.scoring_pair else 0)
            for p in (0, 1)
        ],
    }


def last_summary(engine: EngineMatch) -> dict[str, Any] | None:
    """The summary of the hand just finished: the deciding hand once the match is
    over, else the one before the hand in progress (None during the first hand)."""
    hands = engine.hands
    if engine.is_over:
        return hand_summary(hands[-1], len(hands), final=True)
    if len(hands) >= 2:
        return hand_summary(hands[-2], len(hands) - 1, final=False)
    return None


def shared_parts(engine: EngineMatch | None) -> dict[str, Any]:
    """What every seat's frame shows alike: the last completed trick and the summary
    of the hand just finished."""
    if engine is None:
        return {"last_trick": None, "summary": None}
    return {"last_trick": last_trick(engine), "summary": last_summary(engine)}


def places_for(
    winner: int,
    points: tuple[int, ...],
    tricks: tuple[int, ...],
    abandoned: set[int] | frozenset[int] = frozenset(),
) -> list[int]:
    """Places 1–2 the winning pair, 3–4 the others; inside a pair a player who stayed
    before one who abandoned (who lost whatever the pair did), then more personal
    points first, then more tricks, then the lower seat."""
    places = [0, 0, 0, 0]
    for offset, pair in ((1, winner), (3, 1 - winner)):
        members = sorted(
            (pair, pair + 2), key=lambda s: (s in abandoned, -points[s], -tricks[s], s)
        )
        places[members[0]], places[members[1]] = offset, offset + 1
    return places


def unpaid_outcome(engine: EngineMatch) -> dict[str, Any] | None:
    """A finished match's outcome where nothing is paid or rated (offline practice):
    the same places as the server stores (`places_for`), no coins, no XP, no rating
    change, no balances."""
    if not engine.is_over or engine.winner is None:
        return None
    points, tricks = engine.personal_points(), engine.tricks_won()
    places = places_for(engine.winner, points, tricks)
    return {
        "winner": engine.winner,
        "scores": list(engine.scores),
        "places": [
            {
                "position": position,
                "place": places[position],
                "won": position % 2 == engine.winner,
                "abandoned": False,
                "personal_points": points[position],
                "tricks": tricks[position],
                "coins": None,
                "xp": None,
                "rating": None,
            }
            for position in range(4)
        ],
        "balances": {},
    }


def result_for(
    outcome: dict[str, Any] | None, position: int | None, user_id: int | None
) -> dict[str, Any] | None:
    """A finished match's result as `position` sees it: every seat's place, and under
    `you` the viewer's own (won, coins, XP earned and, for `user_id`, their new
    balance)."""
    if outcome is None:
        return None
    you = None
    if position is not None:
        you = dict(outcome["places"][position])
        you["balance"] = outcome["balances"].get(user_id) if user_id else None
    return {
        "winner": outcome["winner"],
        "scores": outcome["scores"],
        "places": outcome["places"],
        "you": you,
    }


def frame_key(position: int | None) -> str:
    """The key of a seat's frame (or the spectators') among a change's frames."""
    return str(position) if position is not None else WATCH_KEY


def frame(
    *,
    kind: str,
    seq: int,
    version: int,
    seat: int | None,
    table: dict[str, Any],
    view: dict[str, Any] | None,
    shared: dict[str, Any],
    result: dict[str, Any] | None,
    events: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """One frame for one seat (`seat`) or for spectators (None): everything that seat
    draws (docs/protocol.md). `view` is the engine's view of that seat (its public
    view for spectators); `shared` is `shared_parts` of the engine."""
    built: dict[str, Any] = {
        "type": kind,
        "seq": seq,
        "version": version,
        "seat": seat,
        "table": table,
        "view": view,
        **shared,
        "result": result,
    }
    if events is not None:
        built["events"] = events
    return built
