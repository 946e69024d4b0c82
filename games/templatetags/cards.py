"""The drawn deck in templates: ``{% load cards %}``.

- ``{% card code size %}`` — a card face: ``<img class="card card--<size>">`` whose
  ``alt`` is the card's name in the page's language ("caballo de copas",
  "knight of cups"). ``code`` is an engine code (``1o``, ``3c``, ``12e``, ``11b``,
  ``10o``); a bad code raises `ValueError` naming it, never renders a blank.
- ``{% card_back size %}`` — a face-down card named "carta boca abajo" (translated);
  ``{% card_back size decorative=True %}`` when a count next to it already says it
  (empty ``alt``, hidden from assistive technology).
- ``{% card_assets %}`` — a ``<script type="application/json" id="card-assets">``
  with the URLs (hashed when the manifest storage is on) and names that
  ``static/js/cards.js`` (``window.CuatrolaCards``) builds the same elements from.

Sizes: ``hand``, ``trick``, ``replay``, ``history``, ``small`` (``static/css/cards.css``
sets their widths; docs/cards.md describes the whole API).
"""

from __future__ import annotations

from typing import Any, Final

from django import template
from django.templatetags.static import static
from django.utils.html import format_html, json_script
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from cuatrola.engine import CARD_CODES
from games.words import translated

register = template.Library()

#: Size name → the width in CSS pixels written on the element (cards.css may
#: change it by screen size); the height keeps the deck's 130:200 proportion.
SIZES: Final[dict[str, int]] = {"hand": 64, "trick": 60, "replay": 48, "history": 30, "small": 36}


def card_label(code: str) -> str:
    """The accessible name of a card in the page's language: "caballo de copas"."""
    _check_code(code)
    return translated.card_label(code)


def back_label() -> str:
    return _("face-down card")


def face_url(code: str) -> str:
    _check_code(code)
    return static(f"cards/{code}.svg")


def back_url() -> str:
    return static("cards/back.svg")


def card_assets_data() -> dict[str, Any]:
    """What the page's JavaScript needs to draw cards: URLs and translated names."""
    return {
        "faces": {code: face_url(code) for code in CARD_CODES},
        "back": back_url(),
        "names": {code: card_label(code) for code in CARD_CODES},
        "backName": back_label(),
        "sizes": SIZES,
    }


def _check_code(code: Any) -> None:
    if code not in CARD_CODES:
        raise ValueError(f"{code!r} is not a card code (expected one of {', '.join(CARD_CODES)})")


def _size(size: Any) -> int:
    if size not in SIZES:
        raise ValueError(f"{size!r} is not a card size (expected one of {', '.join(SIZES)})")
    return SIZES[size]


def _img(src: str, size: str, alt: str, extra_class: str, data_card: str) -> SafeString:
    width = _size(size)
    height = round(width * 200 / 130)
    return format_html(
        '<img class="card card--{}{}" src="{}" alt="{}" width="{}" height="{}"{}{}'
        ' draggable="false">',
        size,
        extra_class,
        src,
        alt,
        width,
        height,
        format_html(' data-card="{}"', data_card) if data_card else "",
        mark_safe(' aria-hidden="true"') if not alt else "",
    )


@register.simple_tag
def card(code: str, size: str = "replay") -> SafeString:
    """A card face named in the page's language. ``{% card "11c" "trick" %}``"""
    return _img(face_url(code), size, card_label(code), "", code)


@register.simple_tag
def card_back(size: str = "replay", decorative: bool = False) -> SafeString:
    """A face-down card. ``{% card_back "hand" %}``; ``decorative=True`` when a
    visible count already says how many cards there are."""
    return _img(back_url(), size, "" if decorative else back_label(), " card--back", "")


@register.simple_tag
def card_assets() -> SafeString:
    """``<script type="application/json" id="card-assets">`` for static/js/cards.js."""
    return json_script(card_assets_data(), "card-assets")
