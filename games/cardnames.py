"""Card, suit and bid names in the reader's language.

The engine stays pure and speaks card codes (docs/rules.md §10); the pages name
cards with the game words of games/words/catalogue.py as games/words/translated.py translates them,
so every language gets its own deck vocabulary (French "valet de deniers", Italian
"fante di denari", Korean "금화 잭"…).
"""

from __future__ import annotations

from games.engine import parse_card
from games.words import catalogue as words
from games.words.translated import game_words


def suit_label(letter: str) -> str:
    """``suit_label("o")``: "oros" in Spanish, "coins" in English."""
    return words.suit_text(game_words(), letter)


def card_label(code: str) -> str:
    """``card_label("12e")``: "rey de espadas", "king of swords", "roi d'épées"…"""
    parse_card(code)  # a code the engine does not know is an error, not a blank name
    return words.card_text(game_words(), code)


def bid_label(word: str) -> str:
    """A bid as the table and the history show it; unknown words pass through."""
    return words.bid_text(game_words(), word)
