"""Card, suit and bid names in the reader's language.

The engine stays pure and speaks card codes (docs/rules.md §10); the pages name
cards through gettext here, so every language gets its own deck vocabulary
(French "valet de deniers", Italian "fante di denari", Korean "금화 잭"…).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from games.engine import parse_card

SUITS = {
    "o": pgettext_lazy("suit", "coins"),
    "c": pgettext_lazy("suit", "cups"),
    "e": pgettext_lazy("suit", "swords"),
    "b": pgettext_lazy("suit", "clubs"),
}
RANKS = {
    "1": pgettext_lazy("rank", "ace"),
    "3": pgettext_lazy("rank", "three"),
    "12": pgettext_lazy("rank", "king"),
    "11": pgettext_lazy("rank", "knight"),
    "10": pgettext_lazy("rank", "jack"),
}
# One pattern per suit, so a language can elide or inflect ("roi d'épées").
CARD_PATTERNS = {
    "o": pgettext_lazy("card name", "%(rank)s of coins"),
    "c": pgettext_lazy("card name", "%(rank)s of cups"),
    "e": pgettext_lazy("card name", "%(rank)s of swords"),
    "b": pgettext_lazy("card name", "%(rank)s of clubs"),
}


def suit_label(letter: str) -> str:
    """``suit_label("o")``: "oros" in Spanish, "coins" in English."""
    return str(SUITS[letter])


def card_label(code: str) -> str:
    """``card_label("12e")``: "rey de espadas", "king of swords", "roi d'épées"…"""
    parse_card(code)  # a code the engine does not know is an error, not a blank name
    return str(CARD_PATTERNS[code[-1]]) % {"rank": RANKS[code[:-1]]}


def bid_label(word: str) -> str:
    """A bid as the table and the history show it; unknown words pass through."""
    return {
        "pass": _("Pass"),
        "solo": _("Solo"),
        "cuatrola": _("Cuatrola"),
        "quintola": _("Quintola"),
    }.get(word, word)
