"""Table talk's fixed phrases: the only talk during a hand (docs/protocol.md, "Table
talk").

Each phrase has a stable id (what a `talk` message names and what is stored) and a
text translated into the six languages, rendered in each reader's own language.
None of them can name a card, a suit, a count or a bid: no rank, no suit, no number,
no contract word, no "mine"/"yours" about a hand, and no emoji that stands for a
suit, a number or a hand (tests/games/test_talk.py checks the list against the
game's own words in every language). Free text (friends rooms only, and only while
nobody holds cards) is the only other kind of talk.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Phrase:
    """`text` is what a reader sees (an emoji is itself in every language); `label`
    names it for a screen reader and on its button."""

    id: str
    label: Any
    emoji: str = ""

    def text(self) -> str:
        return self.emoji or str(self.label)


#: In the order the table shows them.
PHRASES: dict[str, Phrase] = {
    p.id: p
    for p in (
        Phrase("hello", _("Hello!")),
        Phrase("good_luck", _("Good luck!")),
        Phrase("well_played", _("Well played!")),
        Phrase("thanks", _("Thanks!")),
        Phrase("sorry", _("Sorry!")),
        Phrase("oops", _("Oops!")),
        Phrase("another", _("Another match?")),
        Phrase("must_go", _("I have to go.")),
        Phrase("thumbs_up", _("Thumbs up"), "👍"),
        Phrase("laugh", _("Laughing"), "😄"),
        Phrase("wow", _("Surprised"), "😮"),
        Phrase("applause", _("Applause"), "👏"),
    )
}

#: Free text: at most this many characters.
TEXT_MAX = 200
