"""Card notation (docs/rules.md §10); names for people are the game words'
(tests/games/words/test_translated.py)."""

from __future__ import annotations

import pytest

from cuatrola.engine import MalformedAction, card_code, parse_card


def test_card_codes_parse_to_indices_and_back() -> None:
    for code in ("1o", "3c", "12e", "11b", "10o"):
        assert card_code(parse_card(code)) == code


@pytest.mark.parametrize("bad", ["", "2o", "1x", "13e", "o1", "1O", None, 5])
def test_unknown_card_codes_are_malformed(bad: object) -> None:
    with pytest.raises(MalformedAction):
        parse_card(bad)  # type: ignore[arg-type]
