"""The games app's errors: an engine refusal becomes an IllegalAction carrying the
engine's code and facts, its message rendered from them in the reader's language."""

from __future__ import annotations

import pytest
from django.utils import translation

from cuatrola.engine import IllegalCard
from games import errors
from tests.cuatrola.engine.test_play import EXAMPLE_3
from tests.cuatrola.engine.util import hand_after


def refusal_of(action: str) -> errors.IllegalAction:
    hand = hand_after(EXAMPLE_3, "pass pass pass pass 3o")  # seat 2, void in oros, must trump
    with pytest.raises(IllegalCard) as refused:
        hand.apply(action)
    return errors.illegal_action(refused.value)


def test_an_engine_refusal_keeps_its_code_and_facts():
    error = refusal_of("1c")
    assert error.code == "illegal_action"
    assert error.params == {
        "reason": "must_trump",
        "suit": "b",
        "card": "1c",
        "allowed": ["12b", "10b"],
    }


@pytest.mark.parametrize(
    ("language", "text"),
    [("en", "You must play a trump (clubs)"), ("es", "Debes fallar con triunfo (bastos)")],
)
def test_its_message_is_rendered_when_read_in_the_readers_language(language, text):
    error = refusal_of("1c")
    with translation.override(language):
        assert error.message == text


def test_a_reason_without_a_translation_falls_back_to_the_general_refusal():
    error = errors.IllegalAction(None, reason="something_new")
    with translation.override("en"):
        assert error.message == "That move is not allowed."
