"""Value types describing what happened in a hand: declarations and the result."""

from __future__ import annotations

from typing import Any, NamedTuple


class Declaration(NamedTuple):
    """A declaration (cante): king and knight of `suit` shown by `seat`."""

    seat: int
    #: Suit letter (o, c, e, b).
    suit: str
    #: 40 in trumps, 20 otherwise.
    points: int
    #: The two cards shown, king first (e.g. ``("12o", "11o")``).
    cards: tuple[str, str]
    #: The trick (1-based) whose win allowed it.
    trick: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "suit": self.suit,
            "points": self.points,
            "cards": list(self.cards),
            "trick": self.trick,
        }


class HandResult(NamedTuple):
    """How a hand ended and who scores (an immutable record).

    `hand_points` is None where points decide nothing (contracts decided on
    tricks); otherwise (pair 0, pair 1) — in a classic solo the declarer's
    pair holds the declarer's points and the other pair the two opponents'.
    """

    #: ``pass`` (all passed) or ``contract``.
    kind: str
    #: ``solo`` / ``cuatrola`` / ``quintola``, or None in a pass hand.
    contract: str | None
    declarer: int | None
    sitting_out: int | None
    #: Contract made (True) or failed (False); None in a pass hand.
    made: bool | None
    hand_points: tuple[int, int] | None
    #: Card points of the tricks each pair won (the sitting-out cards count for nobody).
    card_points: tuple[int, int]
    tricks_per_seat: tuple[int, int, int, int]
    declarations: tuple[Declaration, ...]
    #: Seat that won the last trick played (None if no trick was played).
    last_trick_seat: int | None
    #: Whether a tie of hand points was broken by the rule set's tie rule.
    tie: bool
    scoring_pair: int
    match_points: int
    tricks_played: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "contract": self.contract,
            "declarer": self.declarer,
            "sitting_out": self.sitting_out,
            "made": self.made,
            "hand_points": list(self.hand_points) if self.hand_points is not None else None,
            "card_points": list(self.card_points),
            "tricks_per_seat": list(self.tricks_per_seat),
            "declarations": [d.to_dict() for d in self.declarations],
            "last_trick_seat": self.last_trick_seat,
            "tie": self.tie,
            "scoring_pair": self.scoring_pair,
            "match_points": self.match_points,
            "tricks_played": self.tricks_played,
        }
