"""The game words (games/words/catalogue.py) in the reader's language: the one place the
server translates them, through Django's gettext. Every reader takes them from
`game_words()`: the server's labels (games/cardnames.py) and refusals
(games/errors.py), and the pages, which hand the same dict to the table renderer
and to offline practice's worker (games/words/table_texts.py)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import get_language, gettext, pgettext

from games.words import catalogue as words

_by_language: dict[str, dict[str, Any]] = {}


def _translate(word: words.Word) -> str:
    if word.context is not None:
        return pgettext(word.context, word.text)
    return gettext(word.text)


def game_words() -> dict[str, Any]:
    """The whole catalogue in the active language (`words.catalogue`'s shape), built
    once per language; callers must not change it."""
    language = get_language() or settings.LANGUAGE_CODE
    found = _by_language.get(language)
    if found is None:
        found = _by_language[language] = words.catalogue(_translate)
    return found
