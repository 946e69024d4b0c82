"""Table talk: fixed phrases at every table, free text in friends rooms while nobody
holds cards (docs/protocol.md, "Table talk"); watchers' phrases among themselves
(docs/watching.md). One transaction each.

Talk never takes the table's lock (a move never waits on it): the speaker's user row
is locked instead, so their rate limit holds across every socket and process.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import errors, selectors
from games.fanout import transport
from games.hooks import talk_hidden_from
from games.models import (
    Invitation,
    InvitationStatus,
    Match,
    MatchStatus,
    Seat,
    SeatKind,
    Table,
    TableStatus,
    TalkLine,
    TalkMute,
)
from games.modes import mode_policy
from games.words.talk_phrases import PHRASES, TEXT_MAX


def _seat_of(table_id: int, user: User) -> tuple[Table, Seat]:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise errors.TableNotFound()
    seat = Seat.objects.filter(table=table, user=user, kind=SeatKind.HUMAN).first()
    if seat is None:
        raise errors.NotSeated()
    return table, seat


def _check_rate(user: User, now: datetime) -> None:
    window = timedelta(seconds=settings.TALK_BURST_SECONDS)
    recent = list(
        TalkLine.objects.filter(user=user, created_at__gt=now - window)
        .order_by("-created_at")
        .values_list("created_at", flat=True)[: settings.TALK_BURST]
    )
    if recent and now - recent[0] < timedelta(seconds=settings.TALK_MIN_SECONDS):
        raise errors.TalkTooFast()
    if len(recent) >= settings.TALK_BURST:
        raise errors.TalkTooFast()


def _holding_cards(user_ids: list[int]) -> bool:
    """Whether any of these users holds cards now, at any table: a live seat at a table
    whose match is being played (practice included)."""
    return Seat.objects.filter(
        user_id__in=user_ids, live=True, table__status=TableStatus.PLAYING
    ).exists()


def _seated_elsewhere(user_id: int, table_id: int) -> bool:
    return Seat.objects.filter(user_id=user_id, live=True).exclude(table_id=table_id).exists()


def _readers(table: Table) -> list[int]:
    """Who may read the table's talk: its players and those invited to it."""
    seated = Seat.objects.filter(table=table, user__isnull=False).values_list("user_id", flat=True)
    invited = Invitation.objects.filter(table=table, status=InvitationStatus.PENDING).values_list(
        "to_user_id", flat=True
    )
    return sorted({*seated, *invited})


@transaction.atomic
def talk_send(
    *,
    user: User,
    table_id: int,
    phrase: str | None = None,
    text: str | None = None,
    now: datetime | None = None,
) -> TalkLine:
    """Says `phrase` (an id of games.words.talk_phrases.PHRASES) or free `text` at the table where
    the user sits. Refused: not seated, an unknown phrase, free text at a table whose
    mode has none, from the seat of a room that ended when the speaker sits at another
    table now, or while the speaker or any reader (seated or invited) holds cards at
    any table, text over TEXT_MAX characters, and talk
    faster than the rate limit. After commit every socket of the table hears it but
    those of readers who blocked the speaker (or were blocked), hide all talk or
    muted the speaker at this table."""
    now = now or timezone.now()
    list(User.objects.select_for_update().filter(pk=user.pk))
    table, seat = _seat_of(table_id, user)
    if (phrase is None) == (text is None):
        raise errors.UnknownPhrase()
    match = Match.objects.filter(table=table).order_by("-pk").first()
    if phrase is not None:
        if phrase not in PHRASES:
            raise errors.UnknownPhrase()
        said = {"phrase": phrase}
    else:
        assert text is not None
        if not mode_policy(table.mode).free_text_talk:
            raise errors.FreeTextNotHere()
        if not seat.live and _seated_elsewhere(user.pk, table.pk):
            # A room that ended leaves its people on their seats: who has moved on to
            # another table no longer speaks here ("gg" after the match stays).
            raise errors.NotSeated()
        if (
            table.status == TableStatus.PLAYING
            or (match is not None and match.status == MatchStatus.PLAYING)
            or _holding_cards([user.pk, *_readers(table)])
        ):
            # Cards held at any table, by the speaker or by anyone who reads them.
            raise errors.FreeTextDuringHand()
        text = text.strip()
        if not text:
            raise errors.UnknownPhrase()
        if len(text) > TEXT_MAX:
            raise errors.TextTooLong()
        said = {"text": text}
    _check_rate(user, now)
    line = TalkLine.objects.create(
        table=table, match=match, user=user, position=seat.position, created_at=now, **said
    )
    readers = _readers(table)
    hidden = talk_hidden_from(user.pk, readers)
    hidden |= set(
        TalkMute.objects.filter(table=table, muted=user).values_list("user_id", flat=True)
    )
    event: dict[str, Any] = {
        "type": "table.talk",
        "line": {
            "id": line.pk,  # a client that also read the table's log shows it once
            "seat": seat.position,
            "name": user.username,
            "phrase": line.phrase or None,
            "text": line.text or None,
            "at": now.isoformat(timespec="milliseconds"),
        },
        "hidden_from": sorted(hidden - {user.pk}),
        # Watchers' sockets check the speaker against their own blocks (read when
        # they opened: games.hooks.watcher_talk_filter).
        "speaker": user.pk,
    }
    transaction.on_commit(lambda: transport.group_send(transport.table_group(table.pk), event))
    return line


@transaction.atomic
def talk_watch_send(
    *, user: User, table_id: int, phrase: Any, now: datetime | None = None
) -> TalkLine:
    """A watcher says `phrase` (an id of games.words.talk_phrases.PHRASES) to the table's other
    watchers: never to its players (docs/watching.md). Refused: NotWatching (not one
    who may watch the table now: a player seated there, a stranger, a watcher the
    rules refuse), UnknownPhrase, and talk faster than the players' rate limit.
    Stored as a TalkLine without a seat, for moderation."""
    now = now or timezone.now()
    list(User.objects.select_for_update().filter(pk=user.pk))
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise errors.TableNotFound()
    seats = list(Seat.objects.filter(table=table))
    if (
        any(seat.user_id == user.pk for seat in seats)
        or not selectors.may_watch(user=user, table=table)
        or selectors.watch_refusal(user=user, table=table, seats=seats) is not None
    ):
        raise errors.NotWatching()
    if not isinstance(phrase, str) or phrase not in PHRASES:
        raise errors.UnknownPhrase()
    _check_rate(user, now)
    match = Match.objects.filter(table=table).order_by("-pk").first()
    line = TalkLine.objects.create(
        table=table, match=match, user=user, position=None, phrase=phrase, created_at=now
    )
    event: dict[str, Any] = {
        "type": "table.talk",
        "line": {
            "id": line.pk,
            "seat": None,
            "watcher": True,
            "name": user.username,
            "phrase": phrase,
            "text": None,
            "at": now.isoformat(timespec="milliseconds"),
        },
        "hidden_from": [],
        "speaker": user.pk,
        "watchers_only": True,
    }
    transaction.on_commit(lambda: transport.group_send(transport.table_group(table.pk), event))
    return line


@transaction.atomic
def talk_mute(*, user: User, table_id: int, position: Any, muted: bool) -> int:
    """Mutes (or unmutes) the player at seat `position` for the user, at this table:
    kept for its match. Returns the position."""
    table, _seat = _seat_of(table_id, user)
    if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position <= 3:
        raise errors.InvalidSeat()
    other = Seat.objects.filter(table=table, position=position, kind=SeatKind.HUMAN).first()
    if other is None or other.user_id is None or other.user_id == user.pk:
        raise errors.InvalidSeat()
    if muted:
        TalkMute.objects.get_or_create(table=table, user=user, muted_id=other.user_id)
    else:
        TalkMute.objects.filter(table=table, user=user, muted_id=other.user_id).delete()
    return position
