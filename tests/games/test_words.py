"""The game words (games/words/catalogue.py): one text per engine code, in every language."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.utils import translation

from games.engine import BIDS, CARD_CODES, EngineError
from games.engine.core import RANK_NUMBERS, SUIT_LETTERS
from games.words import catalogue as words
from games.words.translated import game_words


def engine_codes() -> set[str]:
    found, todo = set(), [EngineError]
    while todo:
        cls = todo.pop()
        found.update(cls.codes)
        todo.extend(cls.__subclasses__())
    return found


def test_the_words_are_keyed_by_the_engines_own_codes():
    assert tuple(words.BID_WORDS) == BIDS
    assert set(words.SUIT_WORDS) == set(words.CARD_WORDS) == set(SUIT_LETTERS)
    assert set(words.RANK_WORDS) == {str(n) for n in RANK_NUMBERS}
    codes = engine_codes()
    # every code has the words of a move refused, or is one no move can meet
    assert set(words.REFUSAL_WORDS) | words.INTERNAL_CODES == codes
    assert not set(words.REFUSAL_WORDS) & words.INTERNAL_CODES


def test_an_internal_code_reads_as_the_default_refusal():
    catalogue = words.source_catalogue()
    for code in words.INTERNAL_CODES:
        assert words.refusal_text(catalogue, code, {}) == "That move is not allowed."


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES])
def test_every_language_has_every_word_with_its_placeholders(language):
    source = words.source_catalogue()
    with translation.override(language):
        found = game_words()
    assert found.keys() == source.keys()
    for part, texts in source.items():
        if isinstance(texts, str):
            texts, translated = {"": texts}, {"": found[part]}
        else:
            translated = found[part]
        assert translated.keys() == texts.keys(), part
        for key, text in texts.items():
            assert translated[key].strip(), (part, key)
            # the same `{name}` placeholders as the source text, and no gettext ones left
            assert set(re.findall(r"\{\w+\}", translated[key])) == set(
                re.findall(r"\{\w+\}", text)
            ), (part, key)
            assert "%(" not in translated[key], (part, key)
    # every card has a name, and the suit to follow is named in the refusal
    names = {words.card_text(found, code) for code in CARD_CODES}
    assert len(names) == len(CARD_CODES)
    follow = words.refusal_text(found, "must_follow", {"suit": "o"})
    assert found["suits"]["o"] in follow and "{" not in follow
