"""The {% card %}, {% card_back %} and {% card_assets %} tags (games/templatetags/cards.py)."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest
from django.core.management import call_command
from django.template import Context, Template
from django.utils import translation

from cuatrola.engine import CARD_CODES
from tests.games.hidden import card_name


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def render(source: str, language: str = "es", **context) -> str:
    with translation.override(language):
        return Template("{% load cards %}" + source).render(Context(context))


def only_img(html: str) -> dict[str, str | None]:
    parser = _Tags()
    parser.feed(html)
    assert [tag for tag, _attrs in parser.tags] == ["img"]
    return parser.tags[0][1]


@pytest.mark.parametrize("language", ["es", "en"])
@pytest.mark.parametrize("code", CARD_CODES)
def test_every_card_renders_as_its_drawing_named_in_the_page_language(code, language):
    img = only_img(render("{% card code 'hand' %}", language, code=code))
    assert img["alt"] == card_name(code, language)
    assert img["src"].endswith(f"/cards/{code}.svg")
    assert img["class"] == "card card--hand"
    assert img["data-card"] == code
    assert "aria-hidden" not in img


def test_a_card_is_named_as_people_say_it():
    assert only_img(render("{% card '11c' 'trick' %}", "es"))["alt"] == "caballo de copas"
    assert only_img(render("{% card '11c' 'trick' %}", "en"))["alt"] == "knight of cups"


def test_each_size_gives_its_class_and_the_decks_proportions():
    for size, width in {"hand": 64, "trick": 60, "replay": 48, "history": 30, "small": 36}.items():
        img = only_img(render("{% card '1o' size %}", size=size))
        assert img["class"] == f"card card--{size}"
        assert (int(img["width"]), int(img["height"])) == (width, round(width * 200 / 130))


def test_the_size_defaults_to_the_replays():
    assert only_img(render("{% card '1o' %}"))["class"] == "card card--replay"


@pytest.mark.parametrize("code", ["", "13o", "1x", "12E", None, 12, "12e "])
def test_a_bad_code_is_an_error_that_names_it_not_a_blank(code):
    with pytest.raises(ValueError, match="is not a card code") as error:
        render("{% card code 'hand' %}", code=code)
    assert repr(code) in str(error.value)


def test_a_bad_size_is_an_error_that_names_it():
    with pytest.raises(ValueError, match="'huge' is not a card size"):
        render("{% card '1o' 'huge' %}")
    with pytest.raises(ValueError, match="'huge' is not a card size"):
        render("{% card_back 'huge' %}")


def test_the_back_is_named_face_down_in_the_page_language():
    back = only_img(render("{% card_back 'hand' %}", "es"))
    assert back["alt"] == "carta boca abajo"
    assert back["class"] == "card card--hand card--back"
    assert back["src"].endswith("/cards/back.svg")
    assert "data-card" not in back
    assert only_img(render("{% card_back 'hand' %}", "en"))["alt"] == "face-down card"


def test_a_decorative_back_is_hidden_from_assistive_technology():
    back = only_img(render("{% card_back 'trick' decorative=True %}"))
    assert back["alt"] == ""
    assert back["aria-hidden"] == "true"


def _assets(language: str = "es") -> dict:
    html = render("{% card_assets %}", language)
    assert html.startswith('<script id="card-assets" type="application/json">')
    return json.loads(html.split(">", 1)[1].rsplit("</script>", 1)[0])


def test_the_assets_give_scripts_every_url_and_name_in_the_page_language():
    assets = _assets("en")
    assert list(assets["faces"]) == list(CARD_CODES)
    assert assets["faces"]["12e"].endswith("/cards/12e.svg")
    assert assets["back"].endswith("/cards/back.svg")
    assert assets["names"]["11c"] == "knight of cups"
    assert assets["backName"] == "face-down card"
    assert assets["sizes"]["hand"] == 64
    assert _assets("es")["names"]["11c"] == "caballo de copas"


def test_with_the_manifest_storage_the_tags_give_the_hashed_files(settings, tmp_path):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    call_command("collectstatic", "--noinput", verbosity=0)
    assets = _assets()
    for url in [*assets["faces"].values(), assets["back"]]:
        name = url.removeprefix(settings.STATIC_URL if url.startswith("static") else "/static/")
        assert (tmp_path / name).is_file(), url
        assert name.count(".") == 2  # cards/12e.<hash>.svg
    img = only_img(render("{% card '12e' 'hand' %}"))
    assert img["src"] == assets["faces"]["12e"]
