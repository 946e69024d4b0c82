"""The game words (games/words/catalogue.py): one text per engine code, in every language."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.utils import translation

from cuatrola.engine import BIDS, CARD_CODES, EngineError
from cuatrola.engine.core import RANK_NUMBERS, SUIT_LETTERS
from games.words import catalogue
from games.words.translated import game_words


def engine_codes() -> set[str]:
    found, todo = set(), [EngineError]
    while todo:
        cls = todo.pop()
        found.update(cls.codes)
        todo.extend(cls.__subclasses__())
    return found


def test_the_words_are_keyed_by_the_engines_own_codes():
    assert tuple(catalogue.BID_WORDS) == BIDS
    assert set(catalogue.SUIT_WORDS) == set(catalogue.CARD_WORDS) == set(SUIT_LETTERS)
    assert set(catalogue.RANK_WORDS) == set(catalogue.RANK_MARKS) == {str(n) for n in RANK_NUMBERS}
    codes = engine_codes()
    # every code has the words of a move refused, or is one no move can meet
    assert set(catalogue.REFUSAL_WORDS) | catalogue.INTERNAL_CODES == codes
    assert not set(catalogue.REFUSAL_WORDS) & catalogue.INTERNAL_CODES


def test_an_internal_code_reads_as_the_default_refusal():
    source = catalogue.source_texts()
    for code in catalogue.INTERNAL_CODES:
        assert catalogue.refusal_text(source, code, {}) == "That move is not allowed."


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES])
def test_every_language_has_every_word_with_its_placeholders(language):
    source = catalogue.source_texts()
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
    names = {catalogue.card_text(found, code) for code in CARD_CODES}
    assert len(names) == len(CARD_CODES)
    follow = catalogue.refusal_text(found, "must_follow", {"suit": "o"})
    assert found["suits"]["o"] in follow and "{" not in follow
    # a card drawn without the deck's drawings shows its rank's mark, one per rank
    assert len(set(found["rank_marks"].values())) == len(RANK_NUMBERS)
