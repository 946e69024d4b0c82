"""One hand of Cuatrola: bidding, tricks, declarations, scoring (docs/rules.md §3–§7).

`Hand` is immutable: ``apply`` returns a new state and the events it caused,
or raises an `EngineError` and changes nothing. Internally a state is a few
ints, bitmasks and tuples (see core.py) so that a card play costs a few
microseconds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from .core import (
    _CODES_CACHE,
    CARD_BIT,
    CARD_CODES,
    CARD_POINTS,
    CARD_SUIT,
    CODE_INDEX,
    SUIT_LETTERS,
    SUIT_MASK,
    codes_of,
    declaration_choice,
    legal_mask,
)
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
    Param,
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
    TrickWon,
)
from .results import Declaration, HandResult
from .rules import BID_LEVEL, BIDS, SOLO, RuleSet, rule_set

BIDDING: Final = "bidding"
PLAYING: Final = "playing"
OVER: Final = "over"

_BIDDING: Final = 0
_PLAYING: Final = 1
_OVER: Final = 2
_PHASE_NAMES: Final = (BIDDING, PLAYING, OVER)

# _NEXT[out + 1][seat]: next seat in turn order skipping the seat that sits out.
_NEXT: Final = tuple(
    tuple(((s + 1) & 3) if ((s + 1) & 3) != out else ((s + 2) & 3) for s in range(4))
    for out in (-1, 0, 1, 2, 3)
)


class Trick(NamedTuple):
    """A completed trick."""

    number: int
    leader: int
    #: (seat, card code) in play order.
    plays: tuple[tuple[int, str], ...]
    winner: int
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "leader": self.leader,
            "plays": [{"seat": s, "card": c} for s, c in self.plays],
            "winner": self.winner,
            "points": self.points,
        }


class _Setup:
    """What stays fixed during a hand (or, after the bidding, during its play).

    Shared by every state of the hand; replaced once, when the bidding ends,
    by a copy that knows the contract.
    """

    __slots__ = (
        "_deal_codes",
        "bid_allowed",
        "by_tricks",
        "contract",
        "deal_idx",
        "deal_masks",
        "dealer",
        "declare",
        "declarer",
        "fail_at",
        "mano",
        "n_players",
        "need",
        "next",
        "out",
        "rules",
        "scores",
        "trump_card",
        "trump_suit",
    )

    rules: RuleSet
    dealer: int
    mano: int
    deal_idx: tuple[tuple[int, ...], ...]
    _deal_codes: tuple[tuple[str, ...], ...] | None
    deal_masks: tuple[int, ...]
    trump_card: int
    trump_suit: int
    scores: tuple[int, int]
    bid_allowed: tuple[tuple[bool, ...], ...]
    declarer: int
    contract: int
    out: int
    n_players: int
    next: tuple[int, ...]
    by_tricks: bool
    need: int
    fail_at: int
    declare: bool

    @classmethod
    def make(
        cls,
        rules: RuleSet,
        dealer: int,
        deal_idx: tuple[tuple[int, ...], ...],
        scores: tuple[int, int],
    ) -> _Setup:
        s = object.__new__(cls)
        s.rules = rules
        s.dealer = dealer
        s.mano = (dealer + 1) & 3
        s.deal_idx = deal_idx
        s._deal_codes = None
        masks = []
        for cards in deal_idx:
            m = 0
            for c in cards:
                m |= 1 << c
            masks.append(m)
        s.deal_masks = tuple(masks)
        s.trump_card = deal_idx[dealer][4]
        s.trump_suit = CARD_SUIT[s.trump_card]
        s.scores = scores
        s.bid_allowed = _bid_allowed(rules, scores)
        s.declarer = -1
        s.contract = 0
        s.out = -1
        s.n_players = 4
        s.next = _NEXT[0]
        s.by_tricks = False
        s.need = 0
        s.fail_at = 0
        s.declare = True
        return s

    def with_contract(self, declarer: int, contract: int) -> _Setup:
        """The setup for the play: itself for a pass hand, a copy knowing the contract."""
        if not contract:
            return self
        rules = self.rules
        s = object.__new__(_Setup)
        s.rules = rules
        s.dealer = self.dealer
        s.mano = self.mano
        s.deal_idx = self.deal_idx
        s._deal_codes = self._deal_codes
        s.deal_masks = self.deal_masks
        s.trump_card = self.trump_card
        s.trump_suit = self.trump_suit
        s.scores = self.scores
        s.bid_allowed = self.bid_allowed
        s.declarer = declarer
        s.contract = contract
        s.out = declarer ^ 2
        s.n_players = 3
        s.next = _NEXT[s.out + 1]
        s.by_tricks = not (contract == SOLO and rules.solo_by_points)
        s.need = rules.tricks_needed[contract]
        s.fail_at = 6 - s.need
        s.declare = not s.by_tricks and rules.declarations_in_solo
        return s

    @property
    def deal(self) -> tuple[tuple[str, ...], ...]:
        codes = self._deal_codes
        if codes is None:
            codes = tuple(tuple(CARD_CODES[c] for c in cards) for cards in self.deal_idx)
            self._deal_codes = codes
        return codes


_BID_ALLOWED_CACHE: dict[tuple[RuleSet, tuple[int, int]], tuple[tuple[bool, ...], ...]] = {}


def _bid_allowed(rules: RuleSet, scores: tuple[int, int]) -> tuple[tuple[bool, ...], ...]:
    """bid_allowed[pair][level]: the cap of docs/rules.md §4."""
    key = (rules, scores)
    cached = _BID_ALLOWED_CACHE.get(key)
    if cached is None:
        cached = tuple(
            tuple(
                level == 0 or scores[pair] + rules.contract_values[level] <= rules.target
                for level in range(4)
            )
            for pair in (0, 1)
        )
        if len(_BID_ALLOWED_CACHE) < 10_000:
            _BID_ALLOWED_CACHE[key] = cached
    return cached


_CODE_OF: Final = CARD_CODES.__getitem__
# Bits of the four kings: h & (h >> 1) & _KING_BITS is non-zero when a hand
# (or two hands, one shifted by 20 bits) holds the king and knight of a suit.
_KING_BITS: Final = sum(1 << (5 * s + 2) for s in range(4)) * ((1 << 20) + 1)

# Events that carry no more than (seat, card) or (seat, bid) are shared values.
_CARD_PLAYED: Final = tuple(
    tuple(CardPlayed(s, CARD_CODES[c]) for c in range(20)) for s in range(4)
)
_CARD_PLAYED_ALONE: Final = tuple(tuple((e,) for e in row) for row in _CARD_PLAYED)
_BID_MADE: Final = tuple(tuple(BidMade(s, BIDS[lv]) for lv in range(4)) for s in range(4))
_LEGAL_BIDS: Final[dict[tuple[int, tuple[bool, ...]], tuple[str, ...]]] = {
    (high, allowed): ("pass", *(BIDS[lv] for lv in range(high + 1, 4) if allowed[lv]))
    for high in range(4)
    for allowed in {tuple(lv == 0 or lv <= cap for lv in range(4)) for cap in range(4)}
}


def _check_seat(seat: object, what: str) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise InvalidDeal(f"{what} must be a seat 0-3, not {seat!r}")
    return seat


def _check_scores(scores: Sequence[int]) -> tuple[int, int]:
    if scores == (0, 0) and type(scores) is tuple:
        return (0, 0)
    if (
        len(scores) != 2
        or any(isinstance(x, bool) or not isinstance(x, int) for x in scores)
        or min(scores) < 0
    ):
        raise InvalidDeal(f"scores must be two non-negative integers, not {scores!r}")
    return (scores[0], scores[1])


# The part of a state that changes only when a trick completes:
# (tricks, tricks per seat, card points per seat, declarations, result).
# tricks: ((leader, cards in play order, winner), ...)
_Scored = tuple[
    tuple[tuple[int, tuple[int, ...], int], ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[Declaration, ...],
    HandResult | None,
]
_NO_SCORE: Final[_Scored] = ((), (0, 0, 0, 0), (0, 0, 0, 0), (), None)


class Hand:
    """The state of one hand. Build with `Hand.from_deal` or `Hand.deal`."""

    __slots__ = (
        "_actions",
        "_bid",
        "_hands",
        "_k",
        "_lead",
        "_leader",
        "_phase",
        "_s",
        "_trick",
        "_turn",
        "_win",
        "_win_seat",
    )

    _s: _Setup
    _hands: tuple[int, ...]
    _phase: int
    _turn: int
    _actions: tuple[str, ...]
    #: (highest bid level so far, its seat) during the bidding.
    _bid: tuple[int, int]
    _leader: int
    _trick: tuple[int, ...]
    _lead: int
    _win: int
    _win_seat: int
    _k: _Scored

    # ------------------------------------------------------------------ building

    @classmethod
    def from_deal(
        cls,
        rules: str | RuleSet,
        dealer: int,
        hands: Sequence[Sequence[str]],
        scores: Sequence[int] = (0, 0),
    ) -> Hand:
        """A hand about to be bid, from the four dealt hands.

        `hands[seat]` lists that seat's five cards in the order dealt, so the
        dealer's fifth card is the trump card. `scores` are the pairs' match
        scores before the hand (they bound the bids).
        """
        rs = rule_set(rules)
        dealer = _check_seat(dealer, "dealer")
        if isinstance(hands, str) or len(hands) != 4:
            raise InvalidDeal(f"a deal has four hands, not {hands!r}")
        seen: set[int] = set()
        deal: list[tuple[int, ...]] = []
        for seat, cards in enumerate(hands):
            if isinstance(cards, str) or len(cards) != 5:
                raise InvalidDeal(f"seat {seat} must be dealt five cards, got {cards!r}")
            idx = []
            for code in cards:
                c = CODE_INDEX.get(code) if isinstance(code, str) else None
                if c is None:
                    raise InvalidDeal(f"{code!r} (seat {seat}) is not a card code")
                if c in seen:
                    raise InvalidDeal(f"{code} is dealt twice")
                seen.add(c)
                idx.append(c)
            deal.append(tuple(idx))
        return cls._start(_Setup.make(rs, dealer, tuple(deal), _check_scores(scores)))

    @classmethod
    def deal(
        cls,
        rules: str | RuleSet = "online",
        dealer: int = 0,
        seed: int | str | random.Random | None = None,
        scores: Sequence[int] = (0, 0),
    ) -> Hand:
        """Shuffle with the engine's own RNG (``random.Random(seed)``) and deal.

        One card at a time from the mano, five each; the 20th card (the trump
        card) goes to the dealer. Pass a `random.Random` to draw from it.
        """
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        dealer = _check_seat(dealer, "dealer")
        setup = _Setup.make(rule_set(rules), dealer, _deal_idx(rng, dealer), _check_scores(scores))
        return cls._start(setup)

    @classmethod
    def _start(cls, setup: _Setup) -> Hand:
        h = object.__new__(cls)
        h._s = setup
        h._hands = setup.deal_masks
        h._phase = _BIDDING
        h._turn = setup.mano
        h._actions = ()
        h._bid = (0, -1)
        h._leader = -1
        h._trick = ()
        h._lead = -1
        h._win = -1
        h._win_seat = -1
        h._k = _NO_SCORE
        return h

    # ------------------------------------------------------------------ queries

    @property
    def rules(self) -> RuleSet:
        return self._s.rules

    @property
    def dealer(self) -> int:
        return self._s.dealer

    @property
    def mano(self) -> int:
        return self._s.mano

    @property
    def scores(self) -> tuple[int, int]:
        """The pairs' match scores before this hand."""
        return self._s.scores

    @property
    def phase(self) -> str:
        """``bidding``, ``playing`` or ``over``."""
        return _PHASE_NAMES[self._phase]

    @property
    def is_over(self) -> bool:
        return self._phase == _OVER

    @property
    def to_play(self) -> int | None:
        """Seat whose turn it is (to bid or to play), None when the hand is over."""
        return None if self._turn < 0 else self._turn

    @property
    def dealt_hands(self) -> tuple[tuple[str, ...], ...]:
        """The four hands as dealt, in dealing order."""
        return self._s.deal

    @property
    def trump_card(self) -> str:
        return CARD_CODES[self._s.trump_card]

    @property
    def trump_suit(self) -> str:
        return SUIT_LETTERS[self._s.trump_suit]

    @property
    def dealer_holds_trump_card(self) -> bool:
        """True until the dealer plays the trump card (forever if the dealer sits out)."""
        return bool(self._hands[self._s.dealer] & CARD_BIT[self._s.trump_card])

    def hand_of(self, seat: int) -> tuple[str, ...]:
        """Cards `seat` holds now, in the engine's card order (o c e b, strongest first)."""
        return codes_of(self._hands[seat])

    def hand_mask(self, seat: int) -> int:
        """Bitmask (core.py) of the cards `seat` holds now."""
        return self._hands[seat]

    @property
    def trump_suit_index(self) -> int:
        """Trump suit as a core.py suit index (0 o, 1 c, 2 e, 3 b)."""
        return self._s.trump_suit

    @property
    def trick_state(self) -> tuple[int, int]:
        """(lead suit, winning card) of the trick in progress as core.py ints; (-1, -1) if empty."""
        return self._lead, self._win

    @property
    def actions(self) -> tuple[str, ...]:
        """Every action applied so far, in order."""
        return self._actions

    @property
    def bids(self) -> tuple[tuple[int, str], ...]:
        """(seat, bid word) in speaking order."""
        mano = self._s.mano
        return tuple(((mano + i) & 3, a) for i, a in enumerate(self._actions[:4]))

    @property
    def highest_bid(self) -> tuple[int, str] | None:
        """(seat, bid) of the highest bid so far, None if all passed so far."""
        level, seat = self._bid
        return (seat, BIDS[level]) if level else None

    @property
    def declarer(self) -> int | None:
        return None if self._s.declarer < 0 else self._s.declarer

    @property
    def contract(self) -> str | None:
        return BIDS[self._s.contract] if self._s.contract else None

    @property
    def sitting_out(self) -> int | None:
        """The declarer's partner in a contract hand, else None."""
        return None if self._s.out < 0 else self._s.out

    @property
    def is_contract_hand(self) -> bool:
        return self._s.contract > 0

    @property
    def points_decide(self) -> bool:
        """Whether hand points decide this hand (pass hands, classic solo).

        Known once the bidding is over; True during the bidding.
        """
        return not self._s.by_tricks

    @property
    def players(self) -> tuple[int, ...]:
        """Seats that play cards (all four, or three in a contract hand)."""
        return tuple(s for s in range(4) if s != self._s.out)

    @property
    def trick_leader(self) -> int | None:
        """Seat that led (or will lead) the current trick; None while bidding or over."""
        return self._leader if self._phase == _PLAYING else None

    @property
    def current_trick(self) -> tuple[tuple[int, str], ...]:
        """(seat, card) already played to the trick in progress."""
        seat = self._leader
        nxt = self._s.next
        out = []
        for c in self._trick:
            out.append((seat, CARD_CODES[c]))
            seat = nxt[seat]
        return tuple(out)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks, in order."""
        nxt = self._s.next
        result = []
        for number, (leader, cards, winner) in enumerate(self._k[0], start=1):
            plays = []
            seat = leader
            for c in cards:
                plays.append((seat, CARD_CODES[c]))
                seat = nxt[seat]
            pts = sum(CARD_POINTS[c] for c in cards)
            result.append(Trick(number, leader, tuple(plays), winner, pts))
        return tuple(result)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks won per seat."""
        return self._k[1]

    @property
    def card_points_won(self) -> tuple[int, ...]:
        """Card points of the tricks each seat won (no last-trick bonus)."""
        return self._k[2]

    @property
    def declarations(self) -> tuple[Declaration, ...]:
        return self._k[3]

    def personal_points(self) -> tuple[int, ...]:
        """Per seat: card points of tricks it won plus its declarations (docs/rules.md §8)."""
        pts = list(self._k[2])
        for d in self._k[3]:
            pts[d.seat] += d.points
        return tuple(pts)

    @property
    def result(self) -> HandResult | None:
        """The result once the hand is over, else None."""
        return self._k[4]

    def legal_actions(self) -> tuple[str, ...]:
        """Legal actions of the seat to play, in a fixed order; () once over.

        Bidding: ``pass`` then the allowed bids low to high. Playing: card codes
        in the engine's card order (suits o c e b, within a suit 1 3 12 11 10).
        """
        if self._phase == _PLAYING:
            mask = legal_mask(self._hands[self._turn], self._lead, self._win, self._s.trump_suit)
            return _CODES_CACHE.get(mask) or codes_of(mask)
        if self._phase == _BIDDING:
            key = (self._bid[0], self._s.bid_allowed[self._turn & 1])
            bids = _LEGAL_BIDS.get(key)
            if bids is None:  # a rule set whose contract values are not increasing
                high, allowed = key
                bids = ("pass", *(BIDS[lv] for lv in range(high + 1, 4) if allowed[lv]))
            return bids
        return ()

    def legal_mask(self) -> int:
        """Bitmask of the cards the seat to play may play (0 unless playing)."""
        if self._phase != _PLAYING:
            return 0
        return legal_mask(self._hands[self._turn], self._lead, self._win, self._s.trump_suit)

    # ------------------------------------------------------------------ applying

    def refusals(self, seat: int) -> dict[str, dict[str, object]]:
        """Why each card `seat` holds cannot be played now, by card code, as error data:
        exactly `refusal(card, seat).as_dict()` for each card `apply` would refuse
        (not its turn, the bidding, the hand over, or the obligation that decides the
        cards allowed), without raising anything (views build this on every move)."""
        held = self._hands[seat]
        if not held:
            return {}
        turn = self._turn
        if turn != seat:
            if turn < 0:
                why: dict[str, object] = {"code": "hand_over", "params": {}}
            else:
                why = {"code": "not_your_turn", "params": {"seat": seat, "turn": turn}}
            return dict.fromkeys(codes_of(held), why)
        if self._phase != _PLAYING:
            return {
                code: {"code": "bidding_not_over", "params": {"card": code}}
                for code in codes_of(held)
            }
        if not self._trick:
            return {}
        lead, win, trump = self._lead, self._win, self._s.trump_suit
        illegal = held & ~legal_mask(held, lead, win, trump)
        if not illegal:
            return {}
        error = illegal_card(seat, held, (illegal & -illegal).bit_length() - 1, lead, win, trump)
        params = dict(error.params)
        return {
            code: {"code": error.code, "params": {**params, "card": code}}
            for code in codes_of(illegal)
        }

    def refusal(self, action: str, seat: int | None = None) -> EngineError | None:
        """The error `apply(action, seat)` would raise (its `code` and `params` say
        why), or None when the action would be accepted. Nothing changes either way."""
        try:
            self.apply(action, seat)
        except EngineError as error:
            return error
        return None

    def apply(self, action: str, seat: int | None = None) -> tuple[Hand, tuple[Event, ...]]:
        """Apply `action` for the seat to play (checked against `seat` if given).

        Returns the new state and the events, or raises an `EngineError`
        subclass saying what was wrong; this state never changes.
        """
        turn = self._turn
        if seat is not None and seat != turn:
            if turn < 0:
                raise WrongPhase(
                    f"the hand is over; seat {seat} cannot play {action!r}", code="hand_over"
                )
            raise NotYourTurn(f"it is seat {turn}'s turn, not seat {seat}'s", seat=seat, turn=turn)
        if self._phase != _PLAYING:
            return self._bid_action(action)
        try:
            card = CODE_INDEX[action]
        except (KeyError, TypeError):
            if isinstance(action, str) and action in BID_LEVEL:
                raise WrongPhase(
                    f"{action!r} is a bid, but the bidding is over",
                    code="bidding_over",
                    action=action,
                ) from None
            raise MalformedAction(
                f"{action!r} is not a card code or a bid", action=_shown(action)
            ) from None
        hands = self._hands
        held = hands[turn]
        bit = 1 << card
        if not held & bit:
            raise CardNotHeld(f"seat {turn} does not hold {action}", seat=turn, card=action)
        setup = self._s
        trick = self._trick
        if trick:
            win = self._win
            lead = self._lead
            trump = setup.trump_suit
            if not legal_mask(held, lead, win, trump) & bit:
                raise illegal_card(turn, held, card, lead, win, trump)
            cs = CARD_SUIT[card]
            if (card < win) if cs == CARD_SUIT[win] else (cs == trump):
                win = card
                win_seat = turn
            else:
                win_seat = self._win_seat
        else:
            lead = CARD_SUIT[card]
            win = card
            win_seat = turn
        held ^= bit
        if turn == 0:
            new_hands = (held, hands[1], hands[2], hands[3])
        elif turn == 1:
            new_hands = (hands[0], held, hands[2], hands[3])
        elif turn == 2:
            new_hands = (hands[0], hands[1], held, hands[3])
        else:
            new_hands = (hands[0], hands[1], hands[2], held)
        trick = (*trick, card)
        if len(trick) < setup.n_players:
            h = object.__new__(Hand)
            h._s = setup
            h._hands = new_hands
            h._phase = _PLAYING
            h._turn = setup.next[turn]
            h._actions = (*self._actions, action)
            h._bid = self._bid
            h._leader = self._leader
            h._trick = trick
            h._lead = lead
            h._win = win
            h._win_seat = win_seat
            h._k = self._k
            return h, _CARD_PLAYED_ALONE[turn][card]
        return self._complete_trick(new_hands, (*self._actions, action), trick, win_seat, turn)

    def _bid_action(self, action: str) -> tuple[Hand, tuple[Event, ...]]:
        if self._phase != _BIDDING:
            raise WrongPhase(f"the hand is over; {action!r} cannot be applied", code="hand_over")
        try:
            level = BID_LEVEL[action]
        except (KeyError, TypeError):
            if isinstance(action, str) and action in CODE_INDEX:
                raise WrongPhase(
                    f"cannot play {action} during the bidding",
                    code="bidding_not_over",
                    card=action,
                ) from None
            raise MalformedAction(
                f"{action!r} is not a card code or a bid", action=_shown(action)
            ) from None
        seat = self._turn
        setup = self._s
        high, high_seat = self._bid
        if level:
            if level <= high:
                raise BidTooLow(
                    f"seat {seat} cannot bid {BIDS[level]}: the bid must be higher than "
                    f"{BIDS[high]} (seat {high_seat})",
                    bid=BIDS[level],
                    highest=BIDS[high],
                    highest_seat=high_seat,
                )
            if not setup.bid_allowed[seat & 1][level]:
                rules = setup.rules
                raise BidOverCap(
                    f"seat {seat} cannot bid {BIDS[level]}: its value "
                    f"{rules.contract_values[level]} added to the pair's "
                    f"{setup.scores[seat & 1]} would exceed the target {rules.target}",
                    bid=BIDS[level],
                    value=rules.contract_values[level],
                    score=setup.scores[seat & 1],
                    target=rules.target,
                )
            high, high_seat = level, seat
        h = object.__new__(Hand)
        h._hands = self._hands
        h._actions = (*self._actions, BIDS[level])
        h._bid = (high, high_seat)
        h._trick = ()
        h._lead = -1
        h._win = -1
        h._win_seat = -1
        h._k = _NO_SCORE
        made = _BID_MADE[seat][level]
        if len(h._actions) < 4:
            h._s = setup
            h._phase = _BIDDING
            h._turn = (seat + 1) & 3
            h._leader = -1
            return h, (made,)
        # Everyone spoke: the play starts, led by the mano unless it sits out.
        setup = setup.with_contract(high_seat, high)
        leader = setup.mano
        if leader == setup.out:
            leader = (leader + 1) & 3
        h._s = setup
        h._phase = _PLAYING
        h._turn = leader
        h._leader = leader
        over = BiddingOver(h.declarer, h.contract, h.sitting_out, leader)
        return h, (made, over)

    def _complete_trick(
        self,
        hands: tuple[int, ...],
        actions: tuple[str, ...],
        trick: tuple[int, ...],
        winner: int,
        last_seat: int,
    ) -> tuple[Hand, tuple[Event, ...]]:
        setup = self._s
        tricks, seat_tricks, seat_points, decls, _result = self._k
        pts = 0
        for c in trick:
            pts += CARD_POINTS[c]
        leader = self._leader
        number = len(tricks) + 1
        tricks = (*tricks, (leader, trick, winner))
        st = list(seat_tricks)
        st[winner] += 1
        sp = list(seat_points)
        sp[winner] += pts
        seat_tricks = tuple(st)
        seat_points = tuple(sp)
        h = object.__new__(Hand)
        h._s = setup
        h._hands = hands
        h._phase = _PLAYING
        h._turn = winner
        h._actions = actions
        h._bid = self._bid
        h._leader = winner
        h._trick = ()
        h._lead = -1
        h._win = -1
        h._win_seat = -1
        played = _CARD_PLAYED[last_seat][trick[-1]]
        won = TrickWon(winner, number, leader, tuple(map(_CODE_OF, trick)), pts)
        if setup.by_tricks:
            h._k = (tricks, seat_tricks, seat_points, decls, None)
            declarer = setup.declarer
            taken = seat_tricks[declarer]
            if taken >= setup.need:
                events: list[Event] = [played, won]
                h._finish(True, events)
                return h, tuple(events)
            if number - taken >= setup.fail_at:
                events = [played, won]
                h._finish(False, events)
                return h, tuple(events)
            return h, (played, won)
        decl = None
        if number < 5 and setup.declare:
            # Quick test first: does the winner or the partner hold any king + knight?
            both = hands[winner] | (0 if winner ^ 2 == setup.out else hands[winner ^ 2] << 20)
            if both & (both >> 1) & _KING_BITS:
                decl = _declaration(setup, hands, decls, winner, number)
                if decl is not None:
                    decls = (*decls, decl)
        h._k = (tricks, seat_tricks, seat_points, decls, None)
        if number < 5:
            if decl is None:
                return h, (played, won)
            return h, (played, won, DeclarationMade(*decl))
        events = [played, won]
        h._finish(None, events)
        return h, tuple(events)

    def _finish(self, made: bool | None, events: list[Event]) -> None:
        """End the hand: score it. Only on a fresh state not yet returned."""
        setup = self._s
        rules = setup.rules
        contract = setup.contract
        declarer = setup.declarer
        tricks, st, sp, decls, _none = self._k
        card_points = (sp[0] + sp[2], sp[1] + sp[3])
        last_seat = tricks[-1][2] if tricks else None
        hand_points: tuple[int, int] | None = None
        tie = False
        if made is None:
            # Points decide: a pass hand or a solo decided by points.
            pp = list(card_points)
            if last_seat is not None:
                pp[last_seat & 1] += rules.last_trick_bonus
            for d in decls:
                pp[d.seat & 1] += d.points
            hand_points = (pp[0], pp[1])
            if pp[0] != pp[1]:
                winner_pair = 0 if pp[0] > pp[1] else 1
            else:
                tie = True
                tie_rule = rules.pass_tie if contract == 0 else rules.solo_tie
                if tie_rule == "last_trick" and last_seat is not None:
                    winner_pair = last_seat & 1
                else:
                    winner_pair = setup.mano & 1
            if contract == 0:
                bonus_above = rules.pass_hand_bonus_above
                if bonus_above is not None and pp[winner_pair] > bonus_above:
                    match_points = rules.pass_hand_bonus_points
                else:
                    match_points = rules.pass_hand_points
            else:
                made = winner_pair == declarer & 1
                match_points = rules.contract_values[contract]
        else:
            winner_pair = declarer & 1 if made else (declarer & 1) ^ 1
            match_points = rules.contract_values[contract]
        if contract:
            event_type = ContractMade if made else ContractFailed
            events.append(event_type(declarer, BIDS[contract], st[declarer]))
        result = HandResult(
            kind="contract" if contract else "pass",
            contract=BIDS[contract] if contract else None,
            declarer=declarer if contract else None,
            sitting_out=setup.out if contract else None,
            made=made,
            hand_points=hand_points,
            card_points=card_points,
            tricks_per_seat=(st[0], st[1], st[2], st[3]),
            declarations=decls,
            last_trick_seat=last_seat,
            tie=tie,
            scoring_pair=winner_pair,
            match_points=match_points,
            tricks_played=len(tricks),
        )
        self._k = (tricks, st, sp, decls, result)
        self._phase = _OVER
        self._turn = -1
        self._leader = -1
        events.append(HandOver(result))

    # ------------------------------------------------------------------ records

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready record (docs/rules.md §10): rebuilds this state via `from_dict`."""
        s = self._s
        return {
            "rules": s.rules.name,
            "dealer": s.dealer,
            "scores": list(s.scores),
            "deal": [list(cards) for cards in s.deal],
            "trump": CARD_CODES[s.trump_card],
            "actions": list(self._actions),
        }

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> Hand:
        """Rebuild a state by replaying a record made by `to_dict`."""
        states, _events = cls.replay(record)
        return states[-1]

    @classmethod
    def replay(cls, record: dict[str, Any]) -> tuple[list[Hand], list[tuple[Event, ...]]]:
        """Every state (the initial one first) and the events of each action."""
        try:
            start = cls.from_deal(
                record["rules"], record["dealer"], record["deal"], tuple(record["scores"])
            )
            trump = record.get("trump")
            actions = list(record["actions"])
        except (KeyError, TypeError, AttributeError) as exc:
            raise InvalidRecord(f"not a hand record: {exc!r}") from None
        if trump is not None and trump != start.trump_card:
            raise InvalidRecord(f"trump {trump!r} is not the dealer's fifth card")
        states = [start]
        events: list[tuple[Event, ...]] = []
        for action in actions:
            nxt, evs = states[-1].apply(action)
            states.append(nxt)
            events.append(evs)
        return states, events

    def _key(self) -> tuple[object, ...]:
        s = self._s
        return (s.rules, s.dealer, s.scores, s.deal_idx, self._actions)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"<Hand {self._s.rules.name} dealer={self._s.dealer} phase={self.phase} "
            f"to_play={self.to_play} actions={len(self._actions)}>"
        )


def _declaration(
    setup: _Setup,
    hands: tuple[int, ...],
    decls: tuple[Declaration, ...],
    winner: int,
    number: int,
) -> Declaration | None:
    """The pair's best declaration after `winner` took trick `number` (docs/rules.md §6)."""
    rules = setup.rules
    pair = winner & 1
    count = 0
    used = 0
    for d in decls:
        if d.seat & 1 == pair:
            count += 1
            used |= 1 << SUIT_LETTERS.index(d.suit)
    limit = rules.max_declarations_per_pair
    if limit is not None and count >= limit:
        return None
    partner = winner ^ 2
    partner_hand = 0 if partner == setup.out else hands[partner]
    choice = declaration_choice(hands[winner], partner_hand, setup.trump_suit, used)
    if choice is None:
        return None
    holder, suit = choice
    points = rules.declaration_trumps if suit == setup.trump_suit else rules.declaration_plain
    return _make_declaration(partner if holder else winner, suit, points, number)


def _make_declaration(seat: int, suit: int, points: int, number: int) -> Declaration:
    letter = SUIT_LETTERS[suit]
    return Declaration(seat, letter, points, (f"12{letter}", f"11{letter}"), number)


_ORDERINGS: Final = math.factorial(20)


def shuffled_deck(rng: random.Random) -> list[int]:
    """The 20 card indices in a uniformly random order drawn from `rng`.

    One draw of ``rng.randrange(20!)`` numbers the permutation (factorial
    number system): exactly uniform, and faster than twenty draws.
    """
    n = rng.randrange(_ORDERINGS)
    rest = list(range(20))
    deck = []
    for size in range(20, 0, -1):
        n, pick = divmod(n, size)
        deck.append(rest.pop(pick))
    return deck


def _deal_idx(rng: random.Random, dealer: int) -> tuple[tuple[int, ...], ...]:
    """Shuffle card indices with `rng`; deal one at a time from the mano, 20th to the dealer."""
    deck = shuffled_deck(rng)
    mano = (dealer + 1) & 3
    # Card k goes to seat (mano + k) % 4, so seat s gets deck[(s - mano) % 4 :: 4].
    return tuple(tuple(deck[(s - mano) & 3 :: 4]) for s in range(4))


def _codes(cards: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(CARD_CODES[c] for c in cards)


def deal_cards(rng: random.Random, dealer: int) -> tuple[tuple[str, ...], ...]:
    """Shuffle the 20 cards with `rng` and deal them: hands[seat] in dealing order.

    The same deal `Hand.deal` makes from the same generator state.
    """
    return tuple(tuple(CARD_CODES[c] for c in cards) for cards in _deal_idx(rng, dealer))


def _join(codes: Sequence[str]) -> str:
    if len(codes) == 1:
        return codes[0]
    return "one of " + ", ".join(codes)


def _shown(action: object) -> str:
    """An action as an error parameter: itself if a string, else its repr."""
    return action if isinstance(action, str) else repr(action)


def illegal_card(seat: int, held: int, card: int, lead: int, win: int, trump: int) -> IllegalCard:
    """The `IllegalCard` for `card`, which breaks an obligation (docs/rules.md §5).

    Its code is the obligation that decides the cards allowed (listed in `allowed`):
    follow suit, overtake the winning card of the suit led, trump when void, or
    over-trump a trumped trick; the message says the same for people.
    """
    allowed = codes_of(legal_mask(held, lead, win, trump))
    must = _join(allowed)
    verb = "must be played"
    prefix = f"seat {seat} cannot play {CARD_CODES[card]}: "
    win_code = CARD_CODES[win]
    lead_letter = SUIT_LETTERS[lead]
    in_lead = held & SUIT_MASK[lead]
    facts: dict[str, Param] = {"card": CARD_CODES[card], "allowed": list(allowed)}
    if in_lead:
        if CARD_SUIT[win] != lead:
            message = f"{must} {verb} to follow suit {lead_letter} after a trump"
            return IllegalCard(prefix + message, code="must_follow", suit=lead_letter, **facts)
        if in_lead & ((1 << win) - 1):
            message = f"{must} {verb} to overtake {win_code}"
            return IllegalCard(prefix + message, code="must_overtake", winning=win_code, **facts)
        message = f"{must} {verb} to follow suit {lead_letter}"
        return IllegalCard(prefix + message, code="must_follow", suit=lead_letter, **facts)
    if CARD_SUIT[win] == trump:
        message = f"{must} {verb} to over-trump {win_code}"
        return IllegalCard(prefix + message, code="must_overtrump", winning=win_code, **facts)
    trumps = SUIT_LETTERS[trump]
    message = f"{must} {verb}: void in suit {lead_letter}, a trump (suit {trumps}) is required"
    return IllegalCard(prefix + message, code="must_trump", suit=trumps, **facts)
