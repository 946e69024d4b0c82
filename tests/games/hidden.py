"""What a seat must not see: the other seats' cards that are not public yet."""

from __future__ import annotations

from django.utils import translation

from cuatrola.engine import Match as EngineMatch
from games.words.translated import card_label


def card_name(code: str, language: str = "es") -> str:
    """A card's name as the pages say it in `language` (the game words)."""
    with translation.override(language):
        return card_label(code)


def hidden_cards(state: EngineMatch, seat: int | None) -> set[str]:
    """Cards held by seats other than `seat` that no one else may know yet."""
    hand = state.hand
    declared = {card for d in hand.declarations for card in d.cards}
    hidden: set[str] = set()
    for other in range(4):
        if other == seat:
            continue
        held = set(hand.hand_of(other))
        if other == hand.dealer and hand.dealer_holds_trump_card:
            held.discard(hand.trump_card)
        hidden |= held - declared
    return hidden


def leaks_in_frame(frame: dict, state: EngineMatch, seat: int | None) -> set[str]:
    """Hidden card codes found anywhere in the frame that speaks of the current hand.

    Earlier hands are left aside (their cards are dealt again): the view's
    history, and the last trick and the summary when they belong to an earlier hand.
    """
    import json

    view = dict(frame.get("view") or {})
    view.pop("history", None)
    current = {k: v for k, v in frame.items() if k not in ("view", "events")}
    current["view"] = view
    for key in ("last_trick", "summary"):
        part = frame.get(key)
        if part is not None and part["hand_no"] != state.hand_no:
            current.pop(key)
    text = json.dumps(current)
    return {code for code in hidden_cards(state, seat) if f'"{code}"' in text}


def leaks_in_html(html: str, state: EngineMatch, seat: int | None) -> set[str]:
    found = set()
    for code in hidden_cards(state, seat):
        if f'"{code}"' in html or card_name(code) in html:
            found.add(code)
    return found
