"""The drawn deck (games/card_art.py) and its files in static/cards/."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from cuatrola.engine import CARD_CODES
from games.card_art import CARDS_DIR, draw_face, drawings

SVG = "{http://www.w3.org/2000/svg}"
FILES = sorted(CARDS_DIR.glob("*.svg"))


def test_there_is_one_drawing_per_card_and_one_back():
    expected = [f"{code}.svg" for code in CARD_CODES] + ["back.svg"]
    assert sorted(path.name for path in FILES) == sorted(expected)


def test_the_committed_files_are_exactly_what_the_drawing_code_draws():
    # Change games/card_art.py and run `manage.py draw_cards`; never edit the files.
    assert {path.name: path.read_text(encoding="utf-8") for path in FILES} == drawings()


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_drawing_is_well_formed_svg_of_the_decks_proportions(path):
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") == "0 0 130 200"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_no_drawing_refers_to_anything_outside_itself(path):
    text = path.read_text(encoding="utf-8")
    root = ET.fromstring(text)
    ids = {element.get("id") for element in root.iter() if element.get("id")}
    for element in root.iter():
        tag = element.tag.removeprefix(SVG)
        assert tag not in {"image", "script", "style", "foreignObject", "a"}
        for name, value in element.attrib.items():
            if name.endswith("href"):
                assert value.startswith("#") and value[1:] in ids, (name, value)
            for reference in re.findall(r"url\(([^)]*)\)", value):
                assert reference.startswith("#") and reference[1:] in ids, (name, value)
    # The only address is the SVG namespace itself.
    assert re.findall(r"[a-z]+://[^\"' ]+", text) == ["http://www.w3.org/2000/svg"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_drawing_is_small_enough_to_cache_for_offline_play(path):
    assert path.stat().st_size < 8_000


def test_each_suit_is_drawn_with_its_own_symbol_and_its_number_in_the_corners():
    for code in CARD_CODES:
        number, suit = code[:-1], code[-1]
        root = ET.fromstring(draw_face(code))
        symbols = [e.get("id") for e in root.iter(f"{SVG}symbol")]
        assert symbols == [suit]
        uses = {e.get("href") for e in root.iter(f"{SVG}use")}
        assert uses == {f"#{suit}"}
        assert [t.text for t in root.iter(f"{SVG}text")] == [number, number]


def test_a_bad_code_is_refused_by_name():
    with pytest.raises(ValueError, match="'13o' is not a card code"):
        draw_face("13o")
