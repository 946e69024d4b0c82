"""The table life cycle: lock, seat, start, broadcast, close.

The public, keyword-only functions here are what the other modules of
`games.services` and the mode policies of other apps (online, stake) build
their services on; each expects to run inside the caller's transaction.

Lock order, always: the table row, then its match row, then its seats ordered
by primary key (`table_lock`, `match_lock`, `seats_lock`, or `table_lock_all` and
`table_lock_live` for the three at once). Broadcasts and bot moves are queued with
`transaction.on_commit`, so nobody ever sees uncommitted state.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from cuatrola.engine import EngineError
from cuatrola.engine import Match as EngineMatch
from games import errors, hooks, rows, selectors, signals
from games.fanout import listeners, transport
from games.frames import live
from games.models import (
    ActionSource,
    GameHand,
    Invitation,
    InvitationStatus,
    Match,
    MatchAction,
    MatchSeat,
    Seat,
    SeatKind,
    Table,
    TableStatus,
)
from games.modes import mode_policy
from games.state import cache_put, engine_match
from ops import metrics

logger = logging.getLogger(__name__)

SEATS = range(4)


# --- locking ----------------------------------------------------------------------


def table_lock(*, table_id: Any) -> Table:
    """Locks the table row; TableNotFound when there is none."""
    table = rows.lock_table(table_id)
    if table is None:
        raise errors.TableNotFound()
    return table


def match_lock(*, table: Table) -> Match | None:
    """Locks the table's match in play (None when nothing is being played)."""
    return rows.lock_playing_match(table.pk)


def seats_lock(*, table: Table) -> list[Seat]:
    """Locks the table's seats (by primary key); returns them by position."""
    return rows.lock_seats(table.pk)


def table_lock_all(*, table_id: Any) -> tuple[Table, Match | None, list[Seat]]:
    """`table_lock`, `match_lock` and `seats_lock` at once (one prepared statement
    while a match is in play: a socket's opening and closing take them); TableNotFound
    when there is no table."""
    table, match, seats = rows.lock_live(table_id)
    if table is None:
        raise errors.TableNotFound()
    return table, match, seats


def table_lock_live(*, table_id: Any) -> tuple[Table, Match, list[Seat]]:
    """The table, its match in play and its seats, locked; MatchNotLive when no match
    is being played there."""
    table, match, seats = rows.lock_live(table_id)
    if table is None:
        raise errors.TableNotFound()
    if match is None or table.status != TableStatus.PLAYING:
        raise errors.MatchNotLive()
    return table, match, seats


def seat_of(seats: list[Seat], user: User) -> Seat | None:
    return next((s for s in seats if s.user_id == user.pk), None)


# --- seating ------------------------------------------------------------------------


def seat_take(*, seat: Seat, user: User, forbids_watchers: bool = False) -> None:
    """Seats `user` (a live seat, present); the partial unique index refuses a second
    live table: AlreadyAtTable, and nothing of this seat is written. `forbids_watchers`:
    the player forbids watchers while they sit (a stake table's choice; the caller
    closes the sockets watching, `table_watchers_close`)."""
    seat.kind = SeatKind.HUMAN
    seat.forbids_watchers = forbids_watchers
    seat.user = user
    seat.live = True
    seat.connections = 0
    seat.sockets = {}
    seat.absent_since = None
    seat.abandoned = False
    reputation = hooks.seat_reputation(user.pk)
    seat.reliability = reputation.finished if reputation is not None else None
    seat.on_time = reputation.on_time if reputation is not None else None
    seat.rating, seat.rating_provisional = hooks.seat_rating(user.pk) or (None, False)
    seat.timeouts_in_row = 0
    try:
        with transaction.atomic():
            seat.save()
    except IntegrityError:
        raise errors.AlreadyAtTable() from None


def seat_release(*, seat: Seat) -> None:
    """The seat's player stops holding it live (a mode that keeps a match waiting for
    its player: the daily deal): they may sit at another table meanwhile, nothing
    plays for them, and `seat_take` gives them the seat back."""
    seat.live = False
    seat.connections = 0
    seat.sockets = {}
    seat.forbids_watchers = False
    seat.save(update_fields=["live", "connections", "sockets", "forbids_watchers"])


def seat_free(*, seat: Seat) -> None:
    """Empties a seat of an open table (it forgets whether its player forbade watchers)."""
    seat.kind, seat.user, seat.live = SeatKind.EMPTY, None, False
    seat.forbids_watchers = False
    seat.save(update_fields=["kind", "user", "live", "forbids_watchers"])


# --- broadcasting -------------------------------------------------------------------


def table_broadcast(
    *,
    table: Table,
    seats: list[Seat],
    match: Match | None = None,
    engine: EngineMatch | None = None,
    events: list[dict[str, Any]] | None = None,
    seq_saved: bool = False,
    locked: bool = False,
    fresh: bool = False,
) -> None:
    """Bumps the table's sequence number (unless the caller stored it already) and
    sends every seat its view after commit (the latest match's, when none is given).
    `locked`: `table` was read with its row's lock in this transaction, so its
    `listeners` are current and the frames may stay in-process (games/fanout/listeners.py).
    `fresh`: the table was created in this transaction, so no socket can hold it yet
    (a socket opens on a committed table and reads its state): no frame is built."""
    if not seq_saved:
        table.seq += 1
        Table.objects.filter(pk=table.pk).update(seq=table.seq)
    if fresh:
        return
    if match is None and engine is None:
        match = Match.objects.filter(table=table).order_by("-pk").first()
        engine = engine_match(match) if match is not None else None
    # A finished match's places and rewards, read inside this transaction (which may
    # have just paid them).
    outcome = selectors.match_outcome(match, mode=table.mode)
    frame_events = list(events or [])
    in_process = locked and listeners.only_here(table.listeners)

    def send() -> None:  # after commit: the frames of the state committed
        transport.send_table_frames(
            table_id=table.pk,
            seq=table.seq,
            frames=live.table_frames(
                table=table,
                seats=seats,
                match=match,
                engine=engine,
                outcome=outcome,
                events=frame_events,
            ),
            sitting=live.sitting(seats),
            in_process=in_process,
        )

    transaction.on_commit(send)


def table_watchers_close(*, table_id: int, keep: set[int]) -> None:
    """After commit, closes the sockets watching the table (code 4433: watchers are
    forbidden there now), but those of the users in `keep` (its players, a room's
    invitees) and of staff (docs/watching.md)."""
    kept = sorted(keep)
    transaction.on_commit(lambda: transport.watchers_close(table_id, kept))


def user_notify(*, user_id: int, what: str) -> None:
    """After commit, tells the user's sockets that `what` changed (e.g. "invitations")."""
    transaction.on_commit(lambda: transport.notify_user(user_id, what))


# --- starting -----------------------------------------------------------------------


@dataclass(frozen=True)
class StartPosition:
    """A hand to start a match from, part-played (docs/engine.md, "Positions"): its
    dealer, the pairs' scores before it, the four hands as dealt (in dealing order,
    the trump card the dealer's fifth) and the actions already made in it. The match
    ends after this hand."""

    dealer: int
    scores: tuple[int, int]
    deal: Sequence[Sequence[str]]
    actions: Sequence[str]


def _position_engine(rules: str, seed: int, position: StartPosition) -> EngineMatch:
    record = {
        "format": 1,
        "rules": rules,
        "seed": seed,
        "first_dealer": position.dealer,
        "hands": [
            {
                "rules": rules,
                "dealer": position.dealer,
                "scores": list(position.scores),
                "deal": [list(cards) for cards in position.deal],
                "actions": list(position.actions),
            }
        ],
        "last_hand": 1,
    }
    try:
        engine = EngineMatch.from_dict(record)
    except EngineError as error:
        raise errors.illegal_action(error) from None
    if engine.is_over:
        raise errors.IllegalAction()
    return engine


def _started(*, match_id: int, table_id: int, mode: str, user_ids: list[int]) -> None:
    """After a start's commit: `games.signals.match_started` (a receiver's failure is
    logged, never raised: the match has started)."""
    for receiver, outcome in signals.match_started.send_robust(
        sender=Match, match_id=match_id, table_id=table_id, mode=mode, user_ids=user_ids
    ):
        if isinstance(outcome, Exception):
            logger.error(
                "match_started: %r failed for match %s", receiver, match_id, exc_info=outcome
            )


def table_start(
    *,
    table: Table,
    seats: list[Seat],
    seed: int | None = None,
    position: StartPosition | None = None,
    first_dealer: int | None = None,
    last_hand: int | None = None,
    fresh: bool = False,
) -> Match:
    """Deals the first hand of a new match at a locked table whose seats are all taken
    (players or bots): the table is in play, pending invitations are void, every seat
    is told and a bot to play is queued. `first_dealer` (drawn from the seed when
    None) and `last_hand` (the match ends after that hand) go to the engine. With a
    `position`, the match starts from that part-played hand instead (its actions
    logged first) and ends after it. `fresh`: the table was created in this transaction,
    so nobody can be listening (`table_broadcast` builds no frame)."""
    if seed is None:
        seed = random.SystemRandom().randrange(2**62)
    if position is None:
        engine = EngineMatch.new(
            table.rules, seed=seed, first_dealer_seat=first_dealer, last_hand=last_hand
        )
    else:
        engine = _position_engine(table.rules, seed, position)
    match = Match.objects.create(
        table=table,
        rules=table.rules,
        seed=seed,
        first_dealer=engine.first_dealer,
        record=engine.to_dict(),
        to_play=engine.to_play,
        last_hand=engine.last_hand,
        version=len(engine.hand.actions),
        score_a=engine.scores[0],
        score_b=engine.scores[1],
    )
    hand_store(match, engine)
    if engine.hand.actions:
        # The hand so far, as the log of this match (what it is rebuilt from).
        logged = []
        for number, (state, _events) in enumerate(EngineMatch.replay(engine.to_dict())[:-1]):
            seat = state.to_play
            assert seat is not None  # a state with an action after it has a seat to play
            logged.append(
                MatchAction(
                    match=match,
                    number=number + 1,
                    hand_no=1,
                    seat=seat,
                    action=engine.hand.actions[number],
                    source=ActionSource.BOT
                    if seats[seat].kind == SeatKind.BOT
                    else ActionSource.PLAYER,
                )
            )
        MatchAction.objects.bulk_create(logged)
    MatchSeat.objects.bulk_create(
        [
            MatchSeat(match=match, position=s.position, user=s.user, is_bot=s.kind == SeatKind.BOT)
            for s in seats
        ]
    )
    table.status = TableStatus.PLAYING
    table.save(update_fields=["status"])
    Invitation.objects.filter(table=table, status=InvitationStatus.PENDING).update(
        status=InvitationStatus.CANCELLED
    )
    match.turn_deadline = turn_deadline(engine, seats, table=table)
    match.save(update_fields=["turn_deadline"])
    cache_put(match.pk, match.version, engine)
    table_broadcast(
        table=table,
        seats=seats,
        match=match,
        engine=engine,
        events=[{"type": "match_started", "match": match.pk}],
        fresh=fresh,
    )
    bots_queue(table, seats, engine, version=match.version)
    # Its players stop watching other tables (docs/watching.md, close code 4436).
    players = sorted({s.user_id for s in seats if s.user_id is not None and s.live})
    if players:
        table_id, match_id, mode = table.pk, match.pk, table.mode
        transaction.on_commit(lambda: transport.watching_end(players, playing_at=table_id))
        transaction.on_commit(
            lambda: _started(match_id=match_id, table_id=table_id, mode=mode, user_ids=players)
        )
    metrics.after_commit(metrics.MATCHES_STARTED.labels(table.mode).inc)
    return match


def hand_store(match: Match, engine: EngineMatch) -> None:
    """Stores the deal of the engine's current hand."""
    record = engine.to_dict()["hands"][-1]
    GameHand.objects.create(
        match=match,
        number=engine.hand_no,
        dealer=record["dealer"],
        deal=record["deal"],
        trump=record["trump"],
        scores_before=record["scores"],
    )


def turn_deadline(engine: EngineMatch, seats: list[Seat], table: Table | None = None) -> Any:
    """When the turn to play runs out (None when nobody is to play, or when it is a
    player's turn at a `table` whose mode lets a player take all the time they want)."""
    if engine.is_over or engine.to_play is None:
        return None
    now = timezone.now()
    if (
        table is not None
        and not seats[engine.to_play].bot_controlled
        and not mode_policy(table.mode).bots_stand_in
    ):
        return None
    if seats[engine.to_play].bot_controlled:
        # A safety net only: the bot runner normally moves long before this.
        seconds = settings.BOT_MOVE_PAUSE_SECONDS + settings.BOT_SAFETY_SECONDS
    elif engine.phase == "bidding":
        seconds = settings.TURN_SECONDS_BID
    else:
        seconds = settings.TURN_SECONDS_CARD
    return now + timedelta(seconds=seconds)


def bots_queue(table: Table, seats: list[Seat], engine: EngineMatch, *, version: int) -> None:
    """After commit, the bot runner moves a bot-controlled seat that is to play. The
    match's `version` goes with it: a move queued for a version the match has left
    (a task delivered twice, or after the sweep played it) does nothing."""
    if engine.is_over or engine.to_play is None or not seats[engine.to_play].bot_controlled:
        return
    table_id = table.pk
    transaction.on_commit(lambda: hooks.bot_turn(table_id, version))


# --- closing ------------------------------------------------------------------------


def table_close(*, table: Table, seats: list[Seat], status: str) -> None:
    """The table ends (finished or cancelled): nobody sits there live any more, so
    every player may sit elsewhere. The caller broadcasts."""
    table.status = status
    table.save(update_fields=["status"])
    Seat.objects.filter(table=table).update(live=False)
    for seat in seats:
        seat.live = False
