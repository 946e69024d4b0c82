"""The engine's exceptions: all are `ValueError` subclasses.

An exception is raised before anything changes: states are immutable, so the
state the caller holds is still valid afterwards.

Every error is data as well as prose, the shape every app's errors share:

- `code`: a stable snake_case word saying why (`must_follow`, `bid_too_low`, ...),
  what interfaces translate and what clients decide on;
- `params`: the facts a message needs, JSON-ready (suit letters, card codes, seats);
- `message`: what was wrong and in which state, in English, for logs and tests.

An exception class may raise several codes (an `IllegalCard` is `must_follow`,
`must_overtake`, `must_trump` or `must_overtrump`); `CODES` lists each class's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

#: A parameter of an error: JSON-ready.
Param = str | int | bool | None | list[str]


class EngineError(ValueError):
    """Base class of every error the engine raises on bad input."""

    code: str = "engine_error"
    #: Every code this class may carry (the first is its default).
    codes: ClassVar[tuple[str, ...]] = ("engine_error",)

    def __init__(self, message: str, *, code: str | None = None, **params: Param) -> None:
        super().__init__(message)
        if code is not None:
            if code not in self.codes:
                raise ValueError(f"{type(self).__name__} has no code {code!r}")
            self.code = code
        self.message = message
        self.params: Mapping[str, Param] = params

    def as_dict(self) -> dict[str, object]:
        """`{"code": ..., "params": {...}}`: the error as data (views, frames)."""
        return {"code": self.code, "params": dict(self.params)}


class UnknownRuleSet(EngineError):
    """No rule set has that name."""

    code = "unknown_rule_set"
    codes = ("unknown_rule_set",)


class InvalidDeal(EngineError):
    """A deal that is not 20 distinct cards, five to each seat, or bad scores/dealer."""

    code = "invalid_deal"
    codes = ("invalid_deal",)


class MalformedAction(EngineError):
    """Not an action at all: unknown card code or bid word, wrong type."""

    code = "malformed_action"
    codes = ("malformed_action",)


class NotYourTurn(EngineError):
    """The action was sent for a seat that is not the one to play."""

    code = "not_your_turn"
    codes = ("not_your_turn",)


class WrongPhase(EngineError):
    """A bid while cards are played, a card while bidding, anything once it is over."""

    code = "wrong_phase"
    #: bidding_over: a bid once cards are played; bidding_not_over: a card while
    #: bidding; hand_over / match_over: anything once it is over.
    codes = ("wrong_phase", "bidding_over", "bidding_not_over", "hand_over", "match_over")


class CardNotHeld(EngineError):
    """The seat to play does not hold that card."""

    code = "card_not_held"
    codes = ("card_not_held",)


class BidTooLow(EngineError):
    """A bid not strictly higher than the highest bid so far."""

    code = "bid_too_low"
    codes = ("bid_too_low",)


class BidOverCap(EngineError):
    """A bid whose value would carry the pair's match score past the target."""

    code = "bid_over_cap"
    codes = ("bid_over_cap",)


class IllegalCard(EngineError):
    """A held card that breaks an obligation of docs/rules.md §5.

    The code names the obligation that decides which cards may be played:
    `must_follow` (`suit`, the suit led), `must_overtake` (`winning`, the card to
    beat), `must_trump` (`suit`, the trump suit) or `must_overtrump` (`winning`).
    Every one has `card` (the card refused) and `allowed` (the cards that may be
    played).
    """

    code = "must_follow"
    codes = ("must_follow", "must_overtake", "must_trump", "must_overtrump")


class ViewNotAllowed(EngineError):
    """The full view was asked for before the match (or hand) is over."""

    code = "view_not_allowed"
    codes = ("view_not_allowed",)


class InvalidRecord(EngineError):
    """A serialised hand or match that cannot be read or does not replay."""

    code = "invalid_record"
    codes = ("invalid_record",)


#: Every engine error class.
ERROR_CLASSES: tuple[type[EngineError], ...] = (
    EngineError,
    UnknownRuleSet,
    InvalidDeal,
    MalformedAction,
    NotYourTurn,
    WrongPhase,
    CardNotHeld,
    BidTooLow,
    BidOverCap,
    IllegalCard,
    ViewNotAllowed,
    InvalidRecord,
)
