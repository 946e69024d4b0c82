"""Card notation (docs/rules.md §10). The engine names nothing for people: its codes
are the keys of the game words (games/words/catalogue.py)."""

from __future__ import annotations

from .core import CARD_CODES, CARD_SUIT, CODE_INDEX, SUIT_LETTERS
from .errors import MalformedAction


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
