"""The table renderer's strings (games/frames/renderer_texts.py), in every language of the site."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import translation

from games.frames.renderer_texts import table_strings

LANGUAGES = [code for code, _name in settings.LANGUAGES]
SECOND_PERSON = [
    "played",
    "won_trick",
    "trick_points",
    "contract_set",
    "sings",
    "summary_made",
    "summary_failed",
]


def test_the_site_has_six_languages():
    assert LANGUAGES == ["es", "en", "fr", "it", "ko", "th"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_sentences_about_the_players_own_seat_are_written_in_the_second_person(language):
    with translation.override(language):
        strings = table_strings()
    for key in SECOND_PERSON:
        own = strings[f"{key}_you"]
        # Not the third-person sentence with "You" put in as a name ("Tú pidió Solo").
        assert "{name}" not in own and own != strings[key], (language, key, own)
        with translation.override("en"):
            english = table_strings()[f"{key}_you"]
        if language != "en":
            assert own != english, f"{key}_you is not translated into {language}: {own}"
        placeholders = {part.split("}")[0] for part in own.split("{")[1:]}
        assert placeholders == {p.split("}")[0] for p in english.split("{")[1:]}, (language, key)


def test_the_spanish_second_person_says_pediste_not_pidio():
    with translation.override("es"):
        strings = table_strings()
    assert strings["summary_made_you"] == "Pediste {contract}: cumplida."
    assert strings["summary_failed_you"] == "Pediste {contract}: fallada."
    assert strings["played_you"] == "Juegas {card}"
    assert strings["sings_you"] == "Cantas {points} en {suit}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_table_names_every_mode_and_rule_set_and_the_stake_and_pot(language):
    with translation.override(language):
        strings = table_strings()
    assert set(strings["modes"]) == {
        "practice",
        "friends",
        "online",
        "stake",
        "daily",
        "position",
        "tournament",
    }
    assert set(strings["rule_sets"]) == {"online", "classic"}
    assert "{coins}" in strings["stake"] and "{coins}" in strings["pot"]
    if language == "es":
        assert strings["modes"] == {
            "practice": "Práctica",
            "friends": "Amigos",
            "online": "En línea",
            "stake": "Mesa con apuesta",
            "daily": "Reparto del día",
            "position": "Práctica de posición",
            "tournament": "Torneo",
        }
        assert (strings["stake"], strings["pot"]) == (
            "Apuesta: {coins} monedas",
            "Bote: {coins} monedas",
        )
