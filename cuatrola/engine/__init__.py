"""The Cuatrola rules engine: pure Python, no Django (see docs/engine.md).

Public API, re-exported here:

- notation: `parse_card`, `card_code`, `CARD_CODES`, `BIDS` (names for people are the
  site's game words, keyed by these codes)
- rule sets: `RuleSet`, `RULE_SETS`, `rule_set`
- one hand: `Hand` (`Hand.deal`, `Hand.from_deal`, `apply`, `legal_actions`, ...)
- a match: `Match` (`Match.new`, `apply`, `to_dict`, `from_dict`, `replay`)
- views: `seat_view`, `public_view`, `full_view`
- events (`HandStarted`, `BidMade`, ...), results (`HandResult`, `Declaration`)
- errors: `EngineError` and its subclasses
- low-level primitives for bots: the `cuatrola.engine.core` module
"""

from . import core
from .cards import card_code, parse_card
from .core import CARD_CODES
from .errors import (
    BidOverCap,
    BidTooLow,
    CardNotHeld,
    EngineError,
    IllegalCard,
    InvalidDeal,
    InvalidRecord,
    MalformedAction,
    NotYourTurn,
    UnknownRuleSet,
    ViewNotAllowed,
    WrongPhase,
)
from .events import (
    BiddingOver,
    BidMade,
    CardPlayed,
    ContractFailed,
    ContractMade,
    DeclarationMade,
    Event,
    HandOver,
    HandStarted,
    MatchOver,
    TrickWon,
)
from .hand import BIDDING, OVER, PLAYING, Hand, Trick, deal_cards
from .match import Match
from .results import Declaration, HandResult
from .rules import BIDS, CLASSIC, ONLINE, RULE_SETS, RuleSet, rule_set
from .views import full_view, public_view, screen_position, seat_fields, seat_view

__all__ = [
    "BIDDING",
    "BIDS",
    "CARD_CODES",
    "CLASSIC",
    "ONLINE",
    "OVER",
    "PLAYING",
    "RULE_SETS",
    "BidMade",
    "BidOverCap",
    "BidTooLow",
    "BiddingOver",
    "CardNotHeld",
    "CardPlayed",
    "ContractFailed",
    "ContractMade",
    "Declaration",
    "DeclarationMade",
    "EngineError",
    "Event",
    "Hand",
    "HandOver",
    "HandResult",
    "HandStarted",
    "IllegalCard",
    "InvalidDeal",
    "InvalidRecord",
    "MalformedAction",
    "Match",
    "MatchOver",
    "NotYourTurn",
    "RuleSet",
    "Trick",
    "TrickWon",
    "UnknownRuleSet",
    "ViewNotAllowed",
    "WrongPhase",
    "card_code",
    "core",
    "deal_cards",
    "full_view",
    "parse_card",
    "public_view",
    "rule_set",
    "screen_position",
    "seat_fields",
    "seat_view",
]
