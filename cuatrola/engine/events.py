"""Events returned by ``apply``: small immutable records, JSON-ready via ``to_dict``.

Each event is a NamedTuple (cheap to build: the engine makes one per card)
whose last field `kind` names its type; ``to_dict()`` gives
``{"type": kind, ...fields}`` with tuples turned into lists.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

from .results import HandResult


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, HandResult):
        return value.to_dict()
    return value


def _as_dict(fields: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"type": fields.pop("kind")}
    for k, v in fields.items():
        out[k] = _jsonable(v)
    return out


class HandStarted(NamedTuple):
    """A match dealt a new hand (the first one, or after a hand ended)."""

    hand_no: int
    dealer: int
    trump_card: str
    scores: tuple[int, int]
    kind: Literal["hand_started"] = "hand_started"

    def to_dict(self) -> dict[str, Any]:
        return _as_dict(self._asdict())


class BidMade(NamedTuple):
    """A seat spoke: `bid` is ``pass``, ``solo``, ``cuatrola`` or ``quintola``."""

    seat: int
    bid: str
    kind: Literal["bid_made"] = "bid_made"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat, "bid": self.bid}


class BiddingOver(NamedTuple):
    """All four spoke. A pass hand has declarer, contract and sitting_out None."""

    declarer: int | None
    contract: str | None
    sitting_out: int | None
    #: Seat that leads the first trick.
    leader: int
    kind: Literal["bidding_over"] = "bidding_over"

    def to_dict(self) -> dict[str, Any]:
        return _as_dict(self._asdict())


class CardPlayed(NamedTuple):
    seat: int
    card: str
    kind: Literal["card_played"] = "card_played"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat, "card": self.card}


class TrickWon(NamedTuple):
    """A trick is complete; `cards` in play order starting with `leader`'s."""

    seat: int
    trick: int
    leader: int
    cards: tuple[str, ...]
    points: int
    kind: Literal["trick_won"] = "trick_won"

    def to_dict(self) -> dict[str, Any]:
        return _as_dict(self._asdict())


class DeclarationMade(NamedTuple):
    """Automatic declaration after a trick won by the seat's pair (docs/rules.md §6)."""

    seat: int
    suit: str
    points: int
    cards: tuple[str, str]
    trick: int
    kind: Literal["declaration_made"] = "declaration_made"

    def to_dict(self) -> dict[str, Any]:
        return _as_dict(self._asdict())


class ContractMade(NamedTuple):
    declarer: int
    contract: str
    #: Tricks the declarer won.
    tricks: int
    kind: Literal["contract_made"] = "contract_made"

    def to_dict(self) -> dict[str, Any]:
        return _as_dict(self._asdict())


class ContractFailed(NamedTuple):
    declarer: int
    contract: str
    #: Tricks the declarer won.
    tricks: int
    kind: Literal["contract_failed"] = "contract_failed"

    def to_dict(self) -> dict[str, Any]:
        return _as_dict(self._asdict())


class HandOver(NamedTuple):
    result: HandResult
    kind: Literal["hand_over"] = "hand_over"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "result": self.result.to_dict()}


class MatchOver(NamedTuple):
    winner: int
    scores: tuple[int, int]
    kind: Literal["match_over"] = "match_over"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "winner": self.winner, "scores": list(self.scores)}


Event = (
    HandStarted
    | BidMade
    | BiddingOver
    | CardPlayed
    | TrickWon
    | DeclarationMade
    | ContractMade
    | ContractFailed
    | HandOver
    | MatchOver
)
