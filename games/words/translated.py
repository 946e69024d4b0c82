"""The game words (games/words/catalogue.py) in the reader's language: the one place
the server translates them, through Django's gettext, and the names the pages build
from them. Every reader takes them from `game_words()`: the labels below (a card, a
suit, a bid as the pages show them), the refusals (games/errors.py), and the pages,
which hand the same dict to the table renderer and to offline practice's worker
(games/frames/renderer_texts.py).

The engine stays pure and speaks card codes (docs/rules.md §10); each language gets
its own deck vocabulary (French "valet de deniers", Italian "fante di denari", Korean
"금화 잭"…).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.translation import get_language, gettext, pgettext

from cuatrola.engine import parse_card
from games.words import catalogue

_by_language: dict[str, dict[str, Any]] = {}


def _translate(word: catalogue.Word) -> str:
    if word.context is not None:
        return pgettext(word.context, word.text)
    return gettext(word.text)


def game_words() -> dict[str, Any]:
    """The whole catalogue in the active language (`catalogue.texts`' shape), built
    once per language; callers must not change it."""
    language = get_language() or settings.LANGUAGE_CODE
    found = _by_language.get(language)
    if found is None:
        found = _by_language[language] = catalogue.texts(_translate)
    return found


def suit_label(letter: str) -> str:
    """``suit_label("o")``: "oros" in Spanish, "coins" in English."""
    return catalogue.suit_text(game_words(), letter)


def card_label(code: str) -> str:
    """``card_label("12e")``: "rey de espadas", "king of swords", "roi d'épées"…"""
    parse_card(code)  # a code the engine does not know is an error, not a blank name
    return catalogue.card_text(game_words(), code)


def bid_label(word: str) -> str:
    """A bid as the table and the history show it; unknown words pass through."""
    return catalogue.bid_text(game_words(), word)


def refusal_label(code: str, params: Mapping[str, Any] | None = None) -> str:
    """An engine refusal (its code and params) as the player is told it."""
    return catalogue.refusal_text(game_words(), code, params or {})
