"""Card notation (docs/rules.md §10) and Spanish names."""

from __future__ import annotations

from typing import Final

from .core import CARD_CODES, CARD_RANK, CARD_SUIT, CODE_INDEX, SUIT_LETTERS
from .errors import MalformedAction

SUIT_NAMES: Final[dict[str, tuple[str, ...]]] = {
    "es": ("oros", "copas", "espadas", "bastos"),
    "en": ("coins", "cups", "swords", "clubs"),
}
RANK_NAMES: Final[dict[str, tuple[str, ...]]] = {
    "es": ("as", "tres", "rey", "caballo", "sota"),
    "en": ("ace", "three", "king", "knight", "jack"),
}
_OF: Final = {"es": "de", "en": "of"}


def parse_card(code: str) -> int:
    """Card index (0..19) of a card code such as ``12e``; `MalformedAction` if unknown."""
    index = CODE_INDEX.get(code) if isinstance(code, str) else None
    if index is None:
        raise MalformedAction(f"{code!r} is not a card code (expected e.g. 1o, 3c, 12e, 11b, 10o)")
    return index


def card_code(index: int) -> str:
    """Card code of a card index."""
    return CARD_CODES[index]


def suit_of(code: str) -> str:
    """Suit letter of a card code."""
    return SUIT_LETTERS[CARD_SUIT[parse_card(code)]]


def suit_name(letter: str, lang: str = "es") -> str:
    """Name of a suit letter: ``suit_name("e") == "espadas"``."""
    index = SUIT_LETTERS.find(letter) if isinstance(letter, str) and len(letter) == 1 else -1
    if index < 0:
        raise MalformedAction(f"{letter!r} is not a suit letter (o, c, e, b)")
    return _names(lang)[0][index]


def card_name(code: str, lang: str = "es") -> str:
    """Name of a card for people: ``card_name("12e") == "rey de espadas"``.

    `lang` is ``es`` (the accessible name used by the UI) or ``en``.
    """
    index = parse_card(code)
    suits, ranks = _names(lang)
    return f"{ranks[CARD_RANK[index]]} {_OF[lang]} {suits[CARD_SUIT[index]]}"


def _names(lang: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if lang not in SUIT_NAMES:
        raise ValueError(f"unknown language {lang!r} (es, en)")
    return SUIT_NAMES[lang], RANK_NAMES[lang]
