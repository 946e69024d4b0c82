"""A position re-dealt from one seat's view: what "practise this position" plays.

No Django here. The input is the seat's view at the decision (`seat_view`), never
the real deal: the hidden hands are drawn again, consistent with what the seat
knew (its own cards, every card played, the voids and the cards it could infer,
the trump card in the dealer's hand, declared cards), by the bots' sampler. A
drawn deal is kept only if replaying the hand so far on it gives the seat exactly
the view it had (the automatic declarations included, which the sampler does not
know about), so the position practised is the one the player saw.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final

from cuatrola.bots.knowledge import Knowledge, hand_part
from cuatrola.bots.sampling import sample_deal
from cuatrola.engine import CARD_CODES, EngineError, Hand, seat_view
from cuatrola.engine.core import CARD_BIT, CODE_INDEX, cards_of

#: Deals drawn before giving up on a view (none has needed more than a few).
TRIES: Final = 500


class NoDealFits(ValueError):
    """No deal drawn replays to the seat's view (it should never happen)."""


@dataclass(frozen=True)
class Redealt:
    """A hand to start from: dealer, scores before it, the four hands as dealt (the
    trump card the dealer's fifth) and the actions made so far."""

    seat: int
    dealer: int
    scores: tuple[int, int]
    deal: list[list[str]]
    actions: list[str]


def hand_actions(view: dict[str, Any]) -> list[str]:
    """The actions of the hand so far, in order, from a seat view: bids, then cards."""
    v = hand_part(view)
    actions = [b["bid"] for b in v["bids"]]
    for trick in v["tricks"]:
        actions.extend(p["card"] for p in trick["plays"])
    actions.extend(p["card"] for p in v["trick"]["plays"])
    return actions


def _dealt(k: Knowledge, held: list[int], dealer: int, trump_card: str) -> list[list[str]]:
    deal = []
    for seat in range(4):
        cards = [CARD_CODES[c] for c in cards_of(held[seat] | k.played_by[seat])]
        if seat == dealer:
            cards.remove(trump_card)
            cards.append(trump_card)
        deal.append(cards)
    return deal


def redeal(view: dict[str, Any], rng: random.Random) -> Redealt:
    """The hand of `view` with the hidden cards dealt again, consistent with it."""
    k = Knowledge.from_view(view)
    v = hand_part(view)
    dealer = v["dealer"]
    scores = (v["scores"][0], v["scores"][1])
    trump_card = v["trump"]["card"]
    actions = hand_actions(view)
    wanted = _comparable(v)
    for _ in range(TRIES):
        held = sample_deal(k, rng)
        if held is None:
            continue
        if not held[dealer] & CARD_BIT[CODE_INDEX[trump_card]] and not (
            k.played_by[dealer] & CARD_BIT[CODE_INDEX[trump_card]]
        ):
            continue
        deal = _dealt(k, held, dealer, trump_card)
        try:
            hand = Hand.from_deal(v["rules"], dealer, deal, scores)
            for action in actions:
                hand, _ = hand.apply(action)
        except EngineError:
            continue
        if _comparable(seat_view(hand, k.seat)) == wanted:
            return Redealt(k.seat, dealer, scores, deal, actions)
    raise NoDealFits(f"no deal drawn in {TRIES} tries replays to this view")


def _comparable(v: dict[str, Any]) -> dict[str, Any]:
    """A hand view as compared: everything but the order of the seat's own cards."""
    return {**v, "hand": sorted(v["hand"] or ())}
