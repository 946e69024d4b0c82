"""What was said at a table: the lines a socket shows when it opens, the transcript
beside a report, the replay's timeline."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import Count, OuterRef, Subquery

from games.hooks import watcher_talk_filter
from games.models import MatchAction, Seat, SeatKind, TalkLine, TalkMute
from games.words.talk_phrases import PHRASES


def talk_transcript(match_id: int, *, watchers: bool = True) -> list[dict[str, Any]]:
    """What was said with this match, in order (`seat`: None for a watcher's line,
    said to the other watchers only; `phrase`: an id of games.words.talk_phrases; `text`: free
    text; `step`: the moves made by then, the replay's step): a report's transcript
    (every line), the replay's timeline (`watchers` False: the players' lines only,
    as the players saw them). One query."""
    lines = TalkLine.objects.filter(match_id=match_id)
    if not watchers:
        lines = lines.filter(position__isnull=False)
    return [
        {
            "at": line.created_at,
            "seat": line.position,
            "name": line.user.username,
            "phrase": line.phrase or None,
            "text": line.text or None,
            # the replay's step it was said at: the moves made by then
            "step": line.step or 0,
        }
        for line in lines.annotate(
            step=Subquery(
                MatchAction.objects.filter(
                    match_id=match_id, created_at__lte=OuterRef("created_at")
                )
                .order_by()
                .values("match_id")
                .annotate(n=Count("pk"))
                .values("n")
            )
        )
        .select_related("user")
        .order_by("created_at", "pk")
    ]


def talk_said(match_id: int, *, watchers: bool = True) -> list[dict[str, Any]]:
    """The transcript with each line as said: a phrase in the active language, free
    text as written (`watchers` as for `talk_transcript`)."""
    lines = talk_transcript(match_id, watchers=watchers)
    for line in lines:
        phrase = PHRASES.get(line["phrase"] or "")
        line["said"] = str(phrase.label) if phrase is not None else line["text"]
    return lines


def talk_log(table_id: int, *, user_id: int, seated: bool) -> list[dict[str, Any]]:
    """The table's last TALK_LOG_LINES lines, oldest first, as `table.talk` events
    (the shape games/services/talk.py sends after commit) for one reader's socket when
    it opens: what was said before it joined, or while it was away, is not lost. The
    events carry `hidden_from` for this reader only (a block either way, or all talk
    hidden, and, for a player, the speakers they muted here); the socket's own filter
    (games/sockets/talk.py) then drops what it would not have shown live."""
    lines = list(
        TalkLine.objects.filter(table_id=table_id)
        .select_related("user")
        .order_by("-pk")[: settings.TALK_LOG_LINES]
    )
    lines.reverse()
    # The reader's own filter, read once: whom they block or are blocked by, and
    # whether they hide all talk (what talk_hidden_from asks of each speaker).
    blocked, hides_all = watcher_talk_filter(user_id)
    speakers = {line.user_id for line in lines} - {user_id}
    hidden = speakers if hides_all else speakers & blocked
    if seated:
        hidden |= set(
            TalkMute.objects.filter(table_id=table_id, user_id=user_id).values_list(
                "muted_id", flat=True
            )
        )
    return [
        {
            "type": "table.talk",
            "line": {
                "id": line.pk,
                "seat": line.position,
                **({"watcher": True} if line.position is None else {}),
                "name": line.user.username,
                "phrase": line.phrase or None,
                "text": line.text or None,
                "at": line.created_at.isoformat(timespec="milliseconds"),
            },
            "hidden_from": [user_id] if line.user_id in hidden else [],
            "speaker": line.user_id,
            **({"watchers_only": True} if line.position is None else {}),
        }
        for line in lines
    ]


def talk_muted_seats(table_id: int, *, user_id: int) -> list[int]:
    """The seats of the table whose players `user_id` muted here (games.services
    `talk_mute`), in seat order: the page draws its Mute toggles pressed from the start.
    One query."""
    muted = TalkMute.objects.filter(table_id=table_id, user_id=user_id).values("muted_id")
    return list(
        Seat.objects.filter(table_id=table_id, kind=SeatKind.HUMAN, user_id__in=muted)
        .order_by("position")
        .values_list("position", flat=True)
    )
