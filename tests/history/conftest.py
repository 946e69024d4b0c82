"""Finished matches for the history pages: played through the services, or stored in bulk."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import bot_runner, services
from games.models import Match, MatchSeat, MatchStatus, Mode, Table, TableStatus
from games.state import cache_clear, engine_match
from history.services import player_matches_rebuild, player_matches_record


@pytest.fixture(autouse=True)
def _game_settings(settings):
    settings.BOT_MOVE_PAUSE_SECONDS = 0
    settings.BOT_RUNNER = "off"
    cache_clear()


def play_practice(user, *, rules: str = "online") -> Match:
    """A practice match played to the end: the person takes the first legal action."""
    table = services.table_create_practice(user=user, rules=rules, bot_level="easy")
    while True:
        while bot_runner.play_one(table.pk):
            pass
        match = Match.objects.filter(table=table).order_by("-pk").first()
        if match.status != MatchStatus.PLAYING:
            return match
        engine = engine_match(match)
        services.match_play(
            user=user,
            table_id=table.pk,
            action=engine.legal_actions()[-1],
            version=match.version,
        )


@pytest.fixture
def finished_practice(player) -> Match:
    return play_practice(player)


def store_finished(
    users_by_seat,
    count: int,
    *,
    mode: str = Mode.ONLINE,
    rules: str = "online",
    abandoned: tuple[int, ...] = (),
    late: tuple[int, ...] = (),
    winner: int = 0,
    finished_at=None,
) -> list[Match]:
    """`count` finished matches stored directly (results only, no hands), recorded
    for the history as settlement records them: for list pages. `abandoned` lists
    the positions that abandoned, `late` those with a turn timed out; the matches go
    back one minute each from `finished_at` (now by default)."""
    now = finished_at or timezone.now()
    owner = next(u for u in users_by_seat if u is not None)
    tables = Table.objects.bulk_create(
        [Table(mode=mode, owner=owner, status=TableStatus.FINISHED) for _ in range(count)]
    )
    matches = Match.objects.bulk_create(
        [
            Match(
                table=table,
                rules=rules,
                seed=index,
                first_dealer=0,
                status=MatchStatus.FINISHED,
                score_a=21 if winner == 0 else index % 21,
                score_b=index % 21 if winner == 0 else 21,
                winner=winner,
                finished_at=now - timedelta(minutes=index),
            )
            for index, table in enumerate(tables)
        ]
    )
    seats = MatchSeat.objects.bulk_create(
        [
            MatchSeat(
                match=match,
                position=position,
                user=user,
                is_bot=user is None,
                abandoned=position in abandoned,
                timeouts=1 if position in late else 0,
                won=position % 2 == winner and position not in abandoned,
                place=position + 1,
            )
            for match in matches
            for position, user in enumerate(users_by_seat)
        ]
    )
    for index, match in enumerate(matches):
        player_matches_record(
            match=match, mode=mode, match_seats=seats[4 * index : 4 * index + 4], engine=None
        )
    return matches


def store_played(users_by_seat, *, seed: int = 11, mode: str = Mode.PRACTICE) -> Match:
    """A whole match played by the engine and stored as the games app stores one:
    its deals, its action log and each seat's result (fast, for page tests)."""
    from cuatrola.engine import Match as EngineMatch

    engine = EngineMatch.new("online", seed=seed)
    while not engine.is_over:
        engine, _events = engine.apply(engine.legal_actions()[-1], seat=engine.to_play)
    return store_record(users_by_seat, engine.to_dict(), mode=mode)


def store_record(
    users_by_seat,
    record: dict,
    *,
    mode: str = Mode.PRACTICE,
    abandoned: tuple[int, ...] = (),
    finished_at=None,
) -> Match:
    """A finished match stored from an engine record (its deals, its action log and
    each seat's result) and recorded for the history as settlement records it. The
    winner is the pair ahead when the record is not a finished match (hand-built)."""
    from cuatrola.engine import Match as EngineMatch
    from games.models import ActionSource, GameHand, MatchAction
    from games.services import places_for

    engine = EngineMatch.from_dict(record)
    winner = (
        engine.winner if engine.winner is not None else int(engine.scores[1] > engine.scores[0])
    )
    owner = next(u for u in users_by_seat if u is not None)
    table = Table.objects.create(mode=mode, owner=owner, status=TableStatus.FINISHED)
    steps = [
        (number, seat_action)
        for number, seat_action in enumerate(
            (
                (hand_no, seat, action)
                for hand_no, hand in enumerate(engine.hands, start=1)
                for seat, action in _seat_actions(hand)
            ),
            start=1,
        )
    ]
    match = Match.objects.create(
        table=table,
        rules=record["rules"],
        seed=record["seed"],
        first_dealer=record["first_dealer"],
        status=MatchStatus.FINISHED,
        version=len(steps),
        hand_no=engine.hand_no,
        score_a=engine.scores[0],
        score_b=engine.scores[1],
        winner=winner,
        record=record,
        finished_at=finished_at or timezone.now(),
        last_hand=record.get("last_hand"),
    )
    GameHand.objects.bulk_create(
        [
            GameHand(
                match=match,
                number=number,
                dealer=hand["dealer"],
                deal=hand["deal"],
                trump=hand["trump"],
                scores_before=hand["scores"],
            )
            for number, hand in enumerate(record["hands"], start=1)
        ]
    )
    MatchAction.objects.bulk_create(
        [
            MatchAction(
                match=match,
                number=number,
                hand_no=hand_no,
                seat=seat,
                action=action,
                source=ActionSource.PLAYER if users_by_seat[seat] else ActionSource.BOT,
            )
            for number, (hand_no, seat, action) in steps
        ]
    )
    points, tricks = engine.personal_points(), engine.tricks_won()
    places = places_for(winner, points, tricks)
    MatchSeat.objects.bulk_create(
        [
            MatchSeat(
                match=match,
                position=position,
                user=user,
                is_bot=user is None,
                abandoned=position in abandoned,
                personal_points=points[position],
                tricks_won=tricks[position],
                place=places[position],
                won=position % 2 == winner and position not in abandoned,
            )
            for position, user in enumerate(users_by_seat)
        ]
    )
    player_matches_rebuild(match_id=match.pk)
    return match


def _seat_actions(hand) -> list[tuple[int, str]]:
    """(seat, action) of a hand in the order played, replayed through the engine."""
    from cuatrola.engine import Hand

    replayed = Hand.from_deal(hand.rules, hand.dealer, hand.dealt_hands, hand.scores)
    moves = []
    for action in hand.actions:
        seat = replayed.to_play
        replayed, _events = replayed.apply(action, seat=seat)
        moves.append((seat, action))
    return moves


@pytest.fixture
def stored_match(player) -> Match:
    return store_played([player, None, None, None])
