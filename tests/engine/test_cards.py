"""Card notation and Spanish names (docs/rules.md §10)."""

from __future__ import annotations

import pytest

from games.engine import MalformedAction, card_code, card_name, parse_card, suit_name


def test_card_codes_parse_to_indices_and_back() -> None:
    for code in ("1o", "3c", "12e", "11b", "10o"):
        assert card_code(parse_card(code)) == code


@pytest.mark.parametrize("bad", ["", "2o", "1x", "13e", "o1", "1O", None, 5])
def test_unknown_card_codes_are_malformed(bad: object) -> None:
    with pytest.raises(MalformedAction):
        parse_card(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("code", "name"),
    [
        ("12e", "rey de espadas"),
        ("1o", "as de oros"),
        ("11c", "caballo de copas"),
        ("10b", "sota de bastos"),
        ("3c", "tres de copas"),
    ],
)
def test_each_card_has_its_spanish_name(code: str, name: str) -> None:
    assert card_name(code) == name


def test_cards_have_english_names_too() -> None:
    assert card_name("12e", "en") == "king of swords"


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="language"):
        card_name("1o", "fr")


def test_suit_letters_have_names() -> None:
    assert [suit_name(s) for s in "oceb"] == ["oros", "copas", "espadas", "bastos"]
