import pytest
from django.utils import translation

from cuatrola.engine import CARD_CODES, MalformedAction
from games.words.translated import bid_label, card_label, suit_label


@pytest.mark.parametrize(
    ("language", "code", "name"),
    [
        ("es", "10o", "sota de oros"),
        ("en", "10o", "jack of coins"),
        ("fr", "12e", "roi d’épées"),
        ("it", "11b", "cavallo di bastoni"),
        ("ko", "1c", "컵 에이스"),
        ("th", "3e", "สามดอกดาบ"),
    ],
)
def test_a_card_is_named_in_the_readers_language(language, code, name):
    with translation.override(language):
        assert card_label(code) == name


@pytest.mark.parametrize("language", ["es", "en", "fr", "it", "ko", "th"])
def test_the_twenty_cards_have_twenty_different_names_in_every_language(language):
    with translation.override(language):
        assert len({card_label(code) for code in CARD_CODES}) == 20


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
def test_each_card_has_its_spanish_name(code, name):
    with translation.override("es"):
        assert card_label(code) == name


def test_the_english_table_says_trumps_in_english():
    with translation.override("en"):
        assert suit_label("o") == "coins"
    with translation.override("es"):
        assert [suit_label(s) for s in "oceb"] == ["oros", "copas", "espadas", "bastos"]


def test_quintola_is_spelt_one_way():
    for language in ["es", "en", "fr", "it"]:
        with translation.override(language):
            assert bid_label("quintola") == "Quintola"


def test_an_unknown_card_code_is_an_error_not_a_blank_name():
    with pytest.raises(MalformedAction):
        card_label("13o")
