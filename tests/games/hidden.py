"""What a seat must not see: the other seats' cards that are not public yet."""

from __future__ import annotations

from games.engine import Match as EngineMatch
from games.engine import card_name


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
    """Hidden card codes found in the frame's current state (earlier hands' results aside)."""
    import json

    view = dict(frame.get("view") or {})
    view.pop("history", None)
    text = json.dumps([view, frame.get("table")])
    return {code for code in hidden_cards(state, seat) if f'"{code}"' in text}


def leaks_in_html(html: str, state: EngineMatch, seat: int | None) -> set[str]:
    found = set()
    for code in hidden_cards(state, seat):
        if f'"{code}"' in html or card_name(code) in html:
            found.add(code)
    return found
