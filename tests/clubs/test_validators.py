"""Club names follow the site's username rules word by word (accounts.validators,
accounts.lookalikes); names, descriptions and announcements hold no link."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from clubs.validators import (
    clean_announcement,
    clean_club_name,
    clean_description,
    club_name_key,
    contains_link,
)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Los Ases", "los ases"),
        ("Los Ases", "Los-Ases"),
        ("Los Ases", "LosAses"),
        ("Los Ases", "Lоs Аses"),  # Cyrillic о and А
        ("Los Ases", "Ｌｏｓ Ａｓｅｓ"),  # full width
        ("Bob Club", "B0b Club"),
        ("Modern", "rnodern"),
    ],
)
def test_look_alike_club_names_share_a_key(first, second):
    assert club_name_key(first) == club_name_key(second)


@pytest.mark.parametrize(("first", "second"), [("Los Ases", "Las Ases"), ("Peña", "Pena")])
def test_different_names_keep_different_keys(first, second):
    assert club_name_key(first) != club_name_key(second)


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("  Los   Ases ", "Los Ases"),
        ("Peña de Madrid", "Peña de Madrid"),
        ("Ｃｌｕｂ Ｕｎｏ", "Club Uno"),
        ("ชมรมไพ่", "ชมรมไพ่"),
        ("카드 클럽", "카드 클럽"),
        ("La-Brisca_2.0", "La-Brisca_2.0"),
    ],
)
def test_a_good_name_is_kept_normalised(typed, stored):
    assert clean_club_name(typed) == stored


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("ab", "length"),
        ("x" * 41, "length"),
        ("", "length"),
        ("Los Ases!", "invalid_characters"),
        ("Los <b>Ases</b>", "invalid_characters"),
        ("Lоs Ases", "mixed_scripts"),  # a Cyrillic о among Latin letters
        ("Club Admin", "reserved"),
        ("Cuatrola Oficial", "reserved"),
        ("ＳＴＡＦＦ", "reserved"),
        ("Club Rnod", "reserved"),
        ("Los - Ases", "separators"),
        ("-Ases", "separators"),
        ("cartas.es", "link"),
        ("www.ases", "link"),
        ("Ases\u200b.com", "link"),
    ],
)
def test_a_bad_name_is_refused_saying_which_rule(name, code):
    with pytest.raises(ValidationError) as refused:
        clean_club_name(name)
    assert refused.value.error_list[0].code == code


@pytest.mark.parametrize(
    "text",
    [
        "see https://example.org",
        "HTTP://x",
        "www.cartas.es",
        "join cartas.es today",
        "discord . gg/abc",
        "ｗｗｗ．ｅｘａｍｐｌｅ．ｃｏｍ",
        "mail me: ana@example.com",
        "exa\u200bmple.com",
    ],
)
def test_links_are_found_in_any_disguise(text):
    assert contains_link(text)


@pytest.mark.parametrize(
    "text", ["Jugamos los martes a las 21.30.", "Sr. Pérez, bienvenido", "3.5 puntos", "¡Hola!"]
)
def test_ordinary_sentences_are_no_links(text):
    assert not contains_link(text)


def test_descriptions_and_announcements_are_length_limited_and_linkless():
    assert clean_description("  Hola\r\nqué tal  ") == "Hola\nqué tal"
    assert clean_description("") == ""
    with pytest.raises(ValidationError):
        clean_description("x" * 501)
    with pytest.raises(ValidationError):
        clean_description("ven a cartas.com")
    with pytest.raises(ValidationError):
        clean_description("bell\x07")
    with pytest.raises(ValidationError):
        clean_announcement("   ")
    assert clean_announcement("Torneo el sábado") == "Torneo el sábado"
