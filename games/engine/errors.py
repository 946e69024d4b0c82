"""The engine's exceptions: all are `ValueError` subclasses.

An exception is raised before anything changes: states are immutable, so the
state the caller holds is still valid afterwards.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises on bad input."""


class UnknownRuleSet(EngineError):
    """No rule set has that name."""


class InvalidDeal(EngineError):
    """A deal that is not 20 distinct cards, five to each seat, or bad scores/dealer."""


class MalformedAction(EngineError):
    """Not an action at all: unknown card code or bid word, wrong type."""


class NotYourTurn(EngineError):
    """The action was sent for a seat that is not the one to play."""


class WrongPhase(EngineError):
    """A bid while cards are played, a card while bidding, anything once it is over."""


class CardNotHeld(EngineError):
    """The seat to play does not hold that card."""


class BidTooLow(EngineError):
    """A bid not strictly higher than the highest bid so far."""


class BidOverCap(EngineError):
    """A bid whose value would carry the pair's match score past the target."""


class IllegalCard(EngineError):
    """A held card that breaks an obligation of RULES.md section 5."""


class ViewNotAllowed(EngineError):
    """The full view was asked for before the match (or hand) is over."""


class InvalidRecord(EngineError):
    """A serialised hand or match that cannot be read or does not replay."""
