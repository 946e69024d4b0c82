"""The live table's frames, from the database rows: games/frames/builder.py (the one frame
builder, shared with offline practice) filled with a table's rows, and every seat's
`update` frame encoded once per change for the transport (games/fanout/transport.py).

One channel-layer message per change goes to the table's group: it carries every
seat's frame and the spectators' frame, each already serialised to JSON in the
service (which holds the engine state). Each consumer forwards only the frame of its
own seat (spectators the public one), so a socket never receives another seat's
view; the other frames only cross the server's own Redis. One message instead of
five keeps Redis round trips and event-loop work per move small (see
docs/benchmarks.md, "Tables benchmark").
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

import orjson
from django.conf import settings

from accounts.selectors import linked_pairs
from cuatrola.engine import Match as EngineMatch
from cuatrola.engine import public_view, seat_fields, seat_view
from games import hooks
from games.frames import builder
from games.frames.builder import player_names
from games.modes import mode_policy


def seat_names(*, table: Any, seats: list[Any], match: Any | None) -> list[str | None]:
    """Each seat's name: the player's username, the bot's name, None for an empty seat."""
    return player_names(
        seed=match.seed if match is not None else table.pk,
        people={seat.position: seat.user.username for seat in seats if seat.user_id},
        bots=[seat.position for seat in seats if not seat.user_id and seat.kind == "bot"],
    )


def seat_rating(*, table: Any, seat: Any) -> dict[str, Any] | None:
    """The rating shown beside a seat's name at a rated table: a person's (as when
    they sat down, and after the match once it is settled; `provisional` until their
    tenth rated match) or a bot level's
    fixed one (`bot`). None at unrated tables, for empty seats and unrated people."""
    if not mode_policy(table.mode).rated:
        return None
    if seat.kind == "bot":
        value = hooks.bot_rating(table.bot_level)
        return None if value is None else {"value": value, "provisional": False, "bot": True}
    if seat.kind != "human" or seat.rating is None:
        return None
    return {"value": seat.rating, "provisional": seat.rating_provisional, "bot": False}


# The linked pairs among a table's players, by the set of their user ids: read once per
# set and process, again after LINKED_TABLE_MEMO_SECONDS, so that the frames of a move
# ask no query for them (a move is two statements: docs/benchmarks.md).
_links_memo: dict[frozenset[int], tuple[float, frozenset[frozenset[int]]]] = {}
_links_memo_lock = threading.Lock()
_LINKS_MEMO_SIZE = 10_000


def _linked_among(user_ids: frozenset[int]) -> frozenset[frozenset[int]]:
    if len(user_ids) < 2:
        return frozenset()
    now = time.monotonic()
    found = _links_memo.get(user_ids)
    if found is not None and now - found[0] < settings.LINKED_TABLE_MEMO_SECONDS:
        return found[1]
    pairs = linked_pairs(user_ids)
    with _links_memo_lock:
        if len(_links_memo) >= _LINKS_MEMO_SIZE:
            _links_memo.clear()
        _links_memo[user_ids] = (now, pairs)
    return pairs


def linked_memo_clear() -> None:
    """Forgets every table's linked pairs (tests)."""
    with _links_memo_lock:
        _links_memo.clear()


def linked_at_table(
    *, seats: Sequence[Any], names: Sequence[str | None] | None = None
) -> list[list[str]]:
    """Each pair of linked accounts seated at the table (docs/moderation.md, "Linked
    accounts"), as their names in seat order (`names` by position, else the
    usernames), the pairs in seat order: what every reader of the table is shown."""
    position_of = {seat.user_id: seat.position for seat in seats if seat.user_id is not None}
    pairs = _linked_among(frozenset(position_of))

    def name(position: int) -> str:
        if names is not None and names[position]:
            return str(names[position])
        return str(next(s.user.username for s in seats if s.position == position))

    seated = sorted(sorted(position_of[user] for user in pair) for pair in pairs)
    return [[name(a), name(b)] for a, b in seated]


def table_info(table: Any, seats: list[Any], match: Any | None) -> dict[str, Any]:
    names = seat_names(table=table, seats=seats, match=match)
    policy = mode_policy(table.mode)
    stakes = policy.table_stakes(table=table)
    bot_level = table.bot_level
    return builder.table_fields(
        extra=policy.table_info(table=table, seats=seats, match=match),
        id=table.pk,
        mode=table.mode,
        rules=table.rules,
        stake=stakes.stake if stakes is not None else None,
        pot=stakes.pot if stakes is not None else None,
        status=table.status,
        owner=table.owner.username,
        bot_level=bot_level,
        match=match.pk if match is not None else None,
        deadline=match.turn_deadline if match is not None else None,
        linked=linked_at_table(seats=seats, names=names),
        seats=[
            builder.seat_fields(
                position=seat.position,
                kind=seat.kind,
                name=names[seat.position],
                level=bot_level if seat.kind == "bot" else None,
                connected=seat.connections > 0,
                absent=seat.absent_since is not None,
                abandoned=seat.abandoned,
                reliability=seat.reliability if seat.user_id else None,
                on_time=seat.on_time if seat.user_id else None,
                rating=seat_rating(table=table, seat=seat),
            )
            for seat in seats
        ],
    )


def _user_id(seats: list[Any], position: int | None) -> int | None:
    return seats[position].user_id if position is not None else None


def build_frame(
    *,
    kind: str,
    table: Any,
    seats: list[Any],
    match: Any | None,
    engine: EngineMatch | None,
    position: int | None,
    events: list[dict[str, Any]] | None = None,
    outcome: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One frame for one seat (`position`) or for spectators (`None`): everything that
    seat draws (docs/protocol.md)."""
    view = None
    if engine is not None:
        view = seat_view(engine, position) if position is not None else public_view(engine)
    return builder.frame(
        kind=kind,
        seq=table.seq,
        version=match.version if match is not None else 0,
        seat=position,
        table=table_info(table, seats, match),
        view=view,
        shared=builder.shared_parts(engine),
        result=builder.result_for(outcome, position, _user_id(seats, position)),
        events=events,
    )


def _encode(value: Any) -> str:
    """Compact JSON, for every frame (orjson: the frames' encoding was the largest
    part of building them; non-ASCII text is written as UTF-8, not escaped)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


# The seat's own part of a view, always last in `view.hand` (docs/engine.md).
_SEAT_KEYS = ("seat", "positions", "hand", "legal_actions")


def _view_texts(engine: EngineMatch | None, positions: list[int | None]) -> dict[Any, str]:
    """Each position's view as JSON text: the public part is encoded once and each
    seat's own part (its cards, legal actions) appended to it."""
    if engine is None:
        return dict.fromkeys(positions, "null")
    public = public_view(engine)
    for key in _SEAT_KEYS:
        del public["hand"][key]
    head = _encode(public)[:-2]  # without the closing braces of `hand` and the view
    return {
        position: f"{head},{_encode(seat_fields(engine.hand, position))[1:]}}}"
        for position in positions
    }


def table_frames(
    *,
    table: Any,
    seats: list[Any],
    match: Any | None,
    engine: EngineMatch | None,
    events: list[dict[str, Any]],
    outcome: dict[str, Any] | None = None,
) -> dict[str, str]:
    """Every seat's `update` frame and the spectators', as JSON text by frame key:
    what all of them share is built and encoded once, then each frame is its own
    seat's part (`seat`, `view`, `result`) followed by the shared part. The frames
    are those of `build_frame`, in a different key order."""
    shared = builder.frame(
        kind="update",
        seq=table.seq,
        version=match.version if match is not None else 0,
        seat=None,
        table=table_info(table, seats, match),
        view=None,
        shared=builder.shared_parts(engine),
        result=None,
        events=events,
    )
    for own in ("seat", "view", "result"):
        del shared[own]
    tail = _encode(shared)[1:]
    positions = [*(seat.position for seat in seats), None]
    views = _view_texts(engine, positions)
    return {
        builder.frame_key(position): (
            f'{{"seat":{_encode(position)},"view":{views[position]},'
            f'"result":{_encode(builder.result_for(outcome, position, _user_id(seats, position)))},'
            f"{tail}"
        )
        for position in positions
    }


def sitting(seats: list[Any]) -> dict[str, list[int]]:
    """Where each seated user now sits (seats can be swapped in a room): a socket
    keyed to its old seat would otherwise forward another seat's view."""
    return {str(seat.user_id): [seat.position, seat.pk] for seat in seats if seat.user_id}
