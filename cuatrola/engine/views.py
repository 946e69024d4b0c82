"""What each seat, a spectator, or anyone after the match may see (JSON-ready dicts)."""

from __future__ import annotations

from typing import Any, Final

from .errors import EngineError, ViewNotAllowed
from .hand import Hand
from .match import Match

SCREEN_POSITIONS: Final = ("bottom", "right", "top", "left")


def screen_position(viewer: int, seat: int) -> str:
    """Where `seat` sits on `viewer`'s screen (docs/rules.md §2).

    The viewer at the bottom, the next seat in turn order on the right, the
    partner on top, the previous seat on the left.
    """
    return SCREEN_POSITIONS[(seat - viewer) & 3]


def _hand_public(hand: Hand) -> dict[str, Any]:
    """Everything about a hand that every seat may know."""
    return {
        "rules": hand.rules.name,
        "dealer": hand.dealer,
        "mano": hand.mano,
        "scores": list(hand.scores),
        "phase": hand.phase,
        "to_play": hand.to_play,
        "trump": {
            "card": hand.trump_card,
            "suit": hand.trump_suit,
            "dealer_holds": hand.dealer_holds_trump_card,
        },
        "bids": [{"seat": s, "bid": b} for s, b in hand.bids],
        "declarer": hand.declarer,
        "contract": hand.contract,
        "sitting_out": hand.sitting_out,
        "hand_sizes": [len(hand.hand_of(s)) for s in range(4)],
        "trick": {
            "leader": hand.trick_leader,
            "plays": [{"seat": s, "card": c} for s, c in hand.current_trick],
        },
        "tricks": [t.to_dict() for t in hand.tricks],
        "tricks_won": list(hand.tricks_won),
        "declarations": [d.to_dict() for d in hand.declarations],
        "result": hand.result.to_dict() if hand.result is not None else None,
    }


def _check_seat(seat: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise EngineError(f"seat must be 0-3, not {seat!r}")


def seat_fields(hand: Hand, seat: int | None) -> dict[str, Any]:
    """The part of a hand's view that only `seat` may see (None: a spectator's),
    always the last keys of the view's `hand` (a server may serialise the public
    part once and append these per seat). `refusals` says, for each held card that
    cannot be played now, why (`Hand.refusals`)."""
    if seat is None:
        return {
            "seat": None,
            "positions": None,
            "hand": None,
            "legal_actions": [],
            "refusals": {},
        }
    return {
        "seat": seat,
        "positions": [screen_position(seat, s) for s in range(4)],
        "hand": list(hand.hand_of(seat)),
        "legal_actions": list(hand.legal_actions()) if hand.to_play == seat else [],
        "refusals": hand.refusals(seat),
    }


def _hand_view(hand: Hand, seat: int | None) -> dict[str, Any]:
    view = _hand_public(hand)
    view.update(seat_fields(hand, seat))
    return view


def _match_view(match: Match, seat: int | None) -> dict[str, Any]:
    return {
        "rules": match.rules.name,
        "target": match.rules.target,
        "scores": list(match.scores),
        "hand_no": match.hand_no,
        "phase": match.phase,
        "to_play": match.to_play,
        "winner": match.winner,
        "personal_points": list(match.personal_points()),
        "tricks_won": list(match.tricks_won()),
        "history": [
            {"hand_no": i, "dealer": h.dealer, "result": h.result.to_dict() if h.result else None}
            for i, h in enumerate(match.hands[:-1], start=1)
        ],
        "hand": _hand_view(match.hand, seat),
    }


def seat_view(game: Match | Hand, seat: int) -> dict[str, Any]:
    """What `seat` may know: its own cards, public play, and its legal actions on its turn.

    Other seats' cards (including the sitting-out hand) are never included,
    only their counts; declared cards appear in the declarations.
    """
    _check_seat(seat)
    if isinstance(game, Match):
        return _match_view(game, seat)
    return _hand_view(game, seat)


def public_view(game: Match | Hand) -> dict[str, Any]:
    """What a spectator may know: no seat's cards, no legal actions."""
    if isinstance(game, Match):
        return _match_view(game, None)
    return _hand_view(game, None)


def full_view(game: Match | Hand) -> dict[str, Any]:
    """Everything, including every deal: only once the match (or lone hand) is over."""
    if isinstance(game, Match):
        if not game.is_over:
            raise ViewNotAllowed("the full view is available only once the match is over")
        view = _match_view(game, None)
        view["deals"] = [
            {
                "dealer": h.dealer,
                "deal": [list(c) for c in h.dealt_hands],
                "actions": list(h.actions),
            }
            for h in game.hands
        ]
        view["hand"]["hands"] = [list(game.hand.hand_of(s)) for s in range(4)]
        return view
    if not game.is_over:
        raise ViewNotAllowed("the full view is available only once the hand is over")
    view = _hand_view(game, None)
    view["deal"] = [list(c) for c in game.dealt_hands]
    view["hands"] = [list(game.hand_of(s)) for s in range(4)]
    return view
