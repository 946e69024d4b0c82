"""The figures of one seat's hands in a finished match, read from the engine.

Worked out once, when the match is settled, and stored on the player's
`PlayerMatch` row: the pages only ever sum the stored numbers.
"""

from __future__ import annotations

from typing import Any

CONTRACTS = ("solo", "cuatrola", "quintola")
# The figures of a seat, as stored on PlayerMatch (columns of the same names).
FIGURE_NAMES = (
    *(f"{contract}_{what}" for contract in CONTRACTS for what in ("bids", "played", "made")),
    "hands",
    "defended",
    "broken",
    "pass_hands",
    "pass_card_points",
    "pass_last_tricks",
    "declared_40",
    "declared_20",
)


def seat_figures(engine: Any, position: int) -> dict[str, int]:
    """Contracts bid, played as declarer and made; contracts faced as a defender and
    broken; pass hands played, their card points, last tricks and declarations.

    A bid counts every time the seat spoke it, even if overcalled later; a contract
    is "played" when the seat was its declarer. Declarations count wherever the rule
    set allows them (pass hands, and the classic solo).
    """
    figures = dict.fromkeys(FIGURE_NAMES, 0)
    for hand in engine.hands:
        result = hand.result
        if result is None:  # an unfinished last hand (never in a finished match)
            continue
        figures["hands"] += 1
        for seat, word in hand.bids:
            if seat == position and word in CONTRACTS:
                figures[f"{word}_bids"] += 1
        for declaration in result.declarations:
            if declaration.seat == position:
                figures["declared_40" if declaration.points == 40 else "declared_20"] += 1
        if result.kind == "pass":
            figures["pass_hands"] += 1
            figures["pass_card_points"] += hand.card_points_won[position]
            figures["pass_last_tricks"] += result.last_trick_seat == position
        elif result.declarer == position:
            figures[f"{result.contract}_played"] += 1
            figures[f"{result.contract}_made"] += bool(result.made)
        elif result.sitting_out != position:
            figures["defended"] += 1
            figures["broken"] += not result.made
    return figures
