"""What was said at a match: the transcript beside a report, the replay's timeline."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, OuterRef, Subquery

from games.models import MatchAction, TalkLine
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
