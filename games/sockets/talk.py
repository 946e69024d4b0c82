"""What a table socket shows of the table's talk (docs/protocol.md, "Table talk";
docs/watching.md): a line the services hide from its user (a block, a mute) is not
shown; the players never see what watchers say; a watcher's socket applies its own
filter, read when it opened (`games.hooks.watcher_talk_filter`: whose talk it must
not show, a block either way, and whether all talk is hidden), to everyone's lines
but its own; a phrase is written in the socket's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import translation

from games.words.talk_phrases import PHRASES


@dataclass(frozen=True)
class TalkShown:
    """One socket's filter of the talk."""

    blocked: frozenset[int] = frozenset()  # a watcher's: whose talk it does not show
    hidden: bool = False  # a watcher's: all talk hidden

    def frame(
        self, event: dict[str, Any], *, user_id: int, position: int | None, language: str
    ) -> dict[str, Any] | None:
        """The `talk` frame of a line said at the table (a `table.talk` event), or None
        when this socket does not show it."""
        if user_id in event["hidden_from"]:
            return None
        if position is not None:
            if event.get("watchers_only"):
                return None  # the players never see what watchers say
        elif event.get("speaker") != user_id and (
            self.hidden or event.get("speaker") in self.blocked
        ):
            return None  # a watcher's own filter (blocks, all talk hidden)
        line = dict(event["line"])
        phrase = PHRASES.get(line["phrase"] or "")
        if phrase is not None:
            with translation.override(language):
                line["text"] = phrase.text()
                line["label"] = str(phrase.label)
        return {"type": "talk", **line}
