"""One hand of Cuatrola: bidding, tricks, declarations, scoring (RULES.md 3-7).

`Hand` is immutable: ``apply`` returns a new state and the events it caused,
or raises an `EngineError` and changes nothing. Internally a state is a few
ints, bitmasks and tuples (see core.py) so that a card play costs a few
microseconds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from .core import (
    CARD_BIT,
    CARD_CODES,
    CARD_POINTS,
    CARD_SUIT,
    CODE_INDEX,
    PAIR_MASK,
    SUIT_LETTERS,
    SUIT_MASK,
    codes_of,
    legal_mask,
)
from .errors import (
    BidOverCap,
    BidTooLow,
    CardNotHeld,
    IllegalCard,
    InvalidDeal,
    InvalidRecord,
    MalformedAction,
    NotYourTurn,
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
    """What stays fixed during a hand, shared by all its states."""

    __slots__ = (
        "bid_allowed",
        "deal",
        "deal_masks",
        "dealer",
        "mano",
        "rules",
        "scores",
        "trump_card",
        "trump_suit",
    )

    def __init__(
        self,
        rules: RuleSet,
        dealer: int,
        deal: tuple[tuple[str, ...], ...],
        scores: tuple[int, int],
    ) -> None:
        self.rules = rules
        self.dealer = dealer
        self.mano = (dealer + 1) & 3
        self.deal = deal
        self.deal_masks = tuple(sum(CARD_BIT[CODE_INDEX[c]] for c in cards) for cards in deal)
        self.trump_card = CODE_INDEX[deal[dealer][4]]
        self.trump_suit = CARD_SUIT[self.trump_card]
        self.scores = scores
        # bid_allowed[pair][level]: the cap of RULES.md section 4.
        self.bid_allowed = tuple(
            tuple(
                level == 0 or scores[pair] + rules.contract_values[level] <= rules.target
                for level in range(4)
            )
            for pair in (0, 1)
        )


def _check_seat(seat: object, what: str) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise InvalidDeal(f"{what} must be a seat 0-3, not {seat!r}")
    return seat


def _check_scores(scores: Sequence[int]) -> tuple[int, int]:
    if (
        len(scores) != 2
        or any(isinstance(x, bool) or not isinstance(x, int) for x in scores)
        or min(scores) < 0
    ):
        raise InvalidDeal(f"scores must be two non-negative integers, not {scores!r}")
    return (scores[0], scores[1])


class Hand:
    """The state of one hand. Build with `Hand.from_deal` or `Hand.deal`."""

    __slots__ = (
        "_actions",
        "_contract",
        "_declarer",
        "_decls",
        "_hands",
        "_high",
        "_high_seat",
        "_lead",
        "_leader",
        "_out",
        "_phase",
        "_result",
        "_s",
        "_seat_points",
        "_seat_tricks",
        "_trick",
        "_tricks",
        "_turn",
        "_win",
        "_win_seat",
    )

    _s: _Setup
    _hands: tuple[int, ...]
    _phase: int
    _turn: int
    _actions: tuple[str, ...]
    _high: int
    _high_seat: int
    _declarer: int
    _contract: int
    _out: int
    _leader: int
    _trick: tuple[int, ...]
    _lead: int
    _win: int
    _win_seat: int
    _tricks: tuple[tuple[int, tuple[int, ...], int], ...]
    _seat_tricks: tuple[int, ...]
    _seat_points: tuple[int, ...]
    _decls: tuple[Declaration, ...]
    _result: HandResult | None

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
        if len(hands) != 4:
            raise InvalidDeal(f"a deal has four hands, not {len(hands)}")
        seen: set[str] = set()
        deal: list[tuple[str, ...]] = []
        for seat, cards in enumerate(hands):
            if isinstance(cards, str) or len(cards) != 5:
                raise InvalidDeal(f"seat {seat} must be dealt five cards, got {cards!r}")
            for code in cards:
                if code not in CODE_INDEX:
                    raise InvalidDeal(f"{code!r} (seat {seat}) is not a card code")
                if code in seen:
                    raise InvalidDeal(f"{code} is dealt twice")
                seen.add(code)
            deal.append(tuple(cards))
        return cls._start(_Setup(rs, dealer, tuple(deal), _check_scores(scores)))

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
        return cls.from_deal(rules, dealer, deal_cards(rng, dealer), scores)

    @classmethod
    def _start(cls, setup: _Setup) -> Hand:
        h = object.__new__(cls)
        h._s = setup
        h._hands = setup.deal_masks
        h._phase = _BIDDING
        h._turn = setup.mano
        h._actions = ()
        h._high = 0
        h._high_seat = -1
        h._declarer = -1
        h._contract = 0
        h._out = -1
        h._leader = -1
        h._trick = ()
        h._lead = -1
        h._win = -1
        h._win_seat = -1
        h._tricks = ()
        h._seat_tricks = (0, 0, 0, 0)
        h._seat_points = (0, 0, 0, 0)
        h._decls = ()
        h._result = None
        return h

    def _clone(self) -> Hand:
        h = object.__new__(Hand)
        h._s = self._s
        h._hands = self._hands
        h._phase = self._phase
        h._turn = self._turn
        h._actions = self._actions
        h._high = self._high
        h._high_seat = self._high_seat
        h._declarer = self._declarer
        h._contract = self._contract
        h._out = self._out
        h._leader = self._leader
        h._trick = self._trick
        h._lead = self._lead
        h._win = self._win
        h._win_seat = self._win_seat
        h._tricks = self._tricks
        h._seat_tricks = self._seat_tricks
        h._seat_points = self._seat_points
        h._decls = self._decls
        h._result = self._result
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
        return (self._high_seat, BIDS[self._high]) if self._high else None

    @property
    def declarer(self) -> int | None:
        return None if self._declarer < 0 else self._declarer

    @property
    def contract(self) -> str | None:
        return BIDS[self._contract] if self._contract else None

    @property
    def sitting_out(self) -> int | None:
        """The declarer's partner in a contract hand, else None."""
        return None if self._out < 0 else self._out

    @property
    def is_contract_hand(self) -> bool:
        return self._contract > 0

    @property
    def points_decide(self) -> bool:
        """Whether hand points decide this hand (pass hands, classic solo)."""
        return self._contract == 0 or (self._contract == SOLO and self._s.rules.solo_by_points)

    @property
    def players(self) -> tuple[int, ...]:
        """Seats that play cards (all four, or three in a contract hand)."""
        return tuple(s for s in range(4) if s != self._out)

    @property
    def trick_leader(self) -> int | None:
        """Seat that led (or will lead) the current trick; None while bidding or over."""
        return self._leader if self._phase == _PLAYING else None

    @property
    def current_trick(self) -> tuple[tuple[int, str], ...]:
        """(seat, card) already played to the trick in progress."""
        seat = self._leader
        nxt = _NEXT[self._out + 1]
        out = []
        for c in self._trick:
            out.append((seat, CARD_CODES[c]))
            seat = nxt[seat]
        return tuple(out)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks, in order."""
        nxt = _NEXT[self._out + 1]
        result = []
        for number, (leader, cards, winner) in enumerate(self._tricks, start=1):
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
        return self._seat_tricks

    @property
    def card_points_won(self) -> tuple[int, ...]:
        """Card points of the tricks each seat won (no last-trick bonus)."""
        return self._seat_points

    @property
    def declarations(self) -> tuple[Declaration, ...]:
        return self._decls

    def personal_points(self) -> tuple[int, ...]:
        """Per seat: card points of tricks it won plus its declarations (PLATFORM.md)."""
        pts = list(self._seat_points)
        for d in self._decls:
            pts[d.seat] += d.points
        return tuple(pts)

    @property
    def result(self) -> HandResult | None:
        """The result once the hand is over, else None."""
        return self._result

    def legal_actions(self) -> tuple[str, ...]:
        """Legal actions of the seat to play, in a fixed order; () once over.

        Bidding: ``pass`` then the allowed bids low to high. Playing: card codes
        in the engine's card order (suits o c e b, within a suit 1 3 12 11 10).
        """
        if self._phase == _PLAYING:
            return codes_of(
                legal_mask(self._hands[self._turn], self._lead, self._win, self._s.trump_suit)
            )
        if self._phase == _BIDDING:
            allowed = self._s.bid_allowed[self._turn & 1]
            return ("pass", *tuple(BIDS[lv] for lv in range(self._high + 1, 4) if allowed[lv]))
        return ()

    def legal_mask(self) -> int:
        """Bitmask of the cards the seat to play may play (0 unless playing)."""
        if self._phase != _PLAYING:
            return 0
        return legal_mask(self._hands[self._turn], self._lead, self._win, self._s.trump_suit)

    # ------------------------------------------------------------------ applying

    def apply(self, action: str, seat: int | None = None) -> tuple[Hand, tuple[Event, ...]]:
        """Apply `action` for the seat to play (checked against `seat` if given).

        Returns the new state and the events, or raises an `EngineError`
        subclass saying what was wrong; this state never changes.
        """
        if seat is not None and seat != self._turn:
            if self._turn < 0:
                raise WrongPhase(f"the hand is over; seat {seat} cannot play {action!r}")
            raise NotYourTurn(f"it is seat {self._turn}'s turn, not seat {seat}'s")
        if self._phase == _PLAYING:
            card = CODE_INDEX.get(action) if isinstance(action, str) else None
            if card is None:
                if action in BID_LEVEL:
                    raise WrongPhase(f"{action!r} is a bid, but the bidding is over")
                raise MalformedAction(f"{action!r} is not a card code or a bid")
            return self._play(card)
        if self._phase == _BIDDING:
            level = BID_LEVEL.get(action) if isinstance(action, str) else None
            if level is None:
                if action in CODE_INDEX:
                    raise WrongPhase(f"cannot play {action} during the bidding")
                raise MalformedAction(f"{action!r} is not a card code or a bid")
            return self._bid(level)
        raise WrongPhase(f"the hand is over; {action!r} cannot be applied")

    def _bid(self, level: int) -> tuple[Hand, tuple[Event, ...]]:
        seat = self._turn
        setup = self._s
        if level:
            if level <= self._high:
                raise BidTooLow(
                    f"seat {seat} cannot bid {BIDS[level]}: the bid must be higher than "
                    f"{BIDS[self._high]} (seat {self._high_seat})"
                )
            if not setup.bid_allowed[seat & 1][level]:
                rules = setup.rules
                raise BidOverCap(
                    f"seat {seat} cannot bid {BIDS[level]}: its value "
                    f"{rules.contract_values[level]} added to the pair's "
                    f"{setup.scores[seat & 1]} would exceed the target {rules.target}"
                )
        h = self._clone()
        h._actions = (*self._actions, BIDS[level])
        events: list[Event] = [BidMade(seat, BIDS[level])]
        if level:
            h._high = level
            h._high_seat = seat
        if len(h._actions) < 4:
            h._turn = (seat + 1) & 3
            return h, tuple(events)
        # Everyone spoke.
        leader = setup.mano
        if h._high:
            h._declarer = h._high_seat
            h._contract = h._high
            h._out = h._high_seat ^ 2
            if leader == h._out:
                leader = (leader + 1) & 3
        h._phase = _PLAYING
        h._leader = leader
        h._turn = leader
        events.append(
            BiddingOver(
                h.declarer,
                h.contract,
                h.sitting_out,
                leader,
            )
        )
        return h, tuple(events)

    def _play(self, card: int) -> tuple[Hand, tuple[Event, ...]]:
        seat = self._turn
        hands = self._hands
        held = hands[seat]
        bit = CARD_BIT[card]
        if not held & bit:
            raise CardNotHeld(f"seat {seat} does not hold {CARD_CODES[card]}")
        trump = self._s.trump_suit
        trick = self._trick
        if trick:
            lead = self._lead
            win = self._win
            if not legal_mask(held, lead, win, trump) & bit:
                raise IllegalCard(explain_illegal(seat, held, card, lead, win, trump))
            cs = CARD_SUIT[card]
            ws = CARD_SUIT[win]
            if (card < win) if cs == ws else (cs == trump):
                win = card
                win_seat = seat
            else:
                win_seat = self._win_seat
        else:
            lead = CARD_SUIT[card]
            win = card
            win_seat = seat
        h = self._clone()
        if seat == 0:
            h._hands = (held ^ bit, hands[1], hands[2], hands[3])
        elif seat == 1:
            h._hands = (hands[0], held ^ bit, hands[2], hands[3])
        elif seat == 2:
            h._hands = (hands[0], hands[1], held ^ bit, hands[3])
        else:
            h._hands = (hands[0], hands[1], hands[2], held ^ bit)
        code = CARD_CODES[card]
        h._actions = (*self._actions, code)
        trick = (*trick, card)
        played = CardPlayed(seat, code)
        if len(trick) < (3 if self._out >= 0 else 4):
            h._trick = trick
            h._lead = lead
            h._win = win
            h._win_seat = win_seat
            h._turn = _NEXT[self._out + 1][seat]
            return h, (played,)
        return h._complete_trick(trick, win_seat, played)

    def _complete_trick(
        self, trick: tuple[int, ...], winner: int, played: CardPlayed
    ) -> tuple[Hand, tuple[Event, ...]]:
        """Finish the trick on a fresh (still private) clone: mutates self."""
        setup = self._s
        rules = setup.rules
        pts = 0
        for c in trick:
            pts += CARD_POINTS[c]
        number = len(self._tricks) + 1
        leader = self._leader
        self._tricks = (*self._tricks, (leader, trick, winner))
        st = list(self._seat_tricks)
        st[winner] += 1
        self._seat_tricks = tuple(st)
        sp = list(self._seat_points)
        sp[winner] += pts
        self._seat_points = tuple(sp)
        self._trick = ()
        self._lead = -1
        self._win = -1
        self._win_seat = -1
        self._leader = winner
        self._turn = winner
        events: list[Event] = [
            played,
            TrickWon(winner, number, leader, _codes(trick), pts),
        ]
        contract = self._contract
        if contract and not (contract == SOLO and rules.solo_by_points):
            declarer = self._declarer
            need = rules.tricks_needed[contract]
            won = st[declarer]
            if won >= need:
                self._finish(made=True, events=events)
            elif number - won > 5 - need:
                self._finish(made=False, events=events)
            return self, tuple(events)
        if number < 5 and (contract == 0 or rules.declarations_in_solo):
            self._declare(winner, number, events)
        if number == 5:
            self._finish(made=None, events=events)
        return self, tuple(events)

    def _declare(self, winner: int, number: int, events: list[Event]) -> None:
        setup = self._s
        rules = setup.rules
        pair = winner & 1
        count = 0
        used = 0
        for d in self._decls:
            if d.seat & 1 == pair:
                count += 1
                used |= 1 << SUIT_LETTERS.index(d.suit)
        limit = rules.max_declarations_per_pair
        if limit is not None and count >= limit:
            return
        partner = winner ^ 2
        seats = (winner,) if partner == self._out else (winner, partner)
        hands = self._hands
        trump = setup.trump_suit
        choice: tuple[int, int] | None = None
        if not used >> trump & 1:
            pm = PAIR_MASK[trump]
            for s in seats:
                if hands[s] & pm == pm:
                    choice = (s, trump)
                    break
        if choice is None:
            for s in seats:
                for suit in range(4):
                    if suit == trump or used >> suit & 1:
                        continue
                    pm = PAIR_MASK[suit]
                    if hands[s] & pm == pm:
                        choice = (s, suit)
                        break
                if choice is not None:
                    break
        if choice is None:
            return
        s, suit = choice
        points = rules.declaration_trumps if suit == trump else rules.declaration_plain
        letter = SUIT_LETTERS[suit]
        cards = (f"12{letter}", f"11{letter}")
        self._decls = (*self._decls, Declaration(s, letter, points, cards, number))
        events.append(DeclarationMade(s, letter, points, cards, number))

    def _finish(self, made: bool | None, events: list[Event]) -> None:
        setup = self._s
        rules = setup.rules
        contract = self._contract
        declarer = self._declarer
        sp = self._seat_points
        card_points = (sp[0] + sp[2], sp[1] + sp[3])
        last_seat = self._tricks[-1][2] if self._tricks else None
        hand_points: tuple[int, int] | None = None
        tie = False
        if made is None:
            # Points decide: a pass hand or a solo decided by points.
            pp = list(card_points)
            if last_seat is not None:
                pp[last_seat & 1] += rules.last_trick_bonus
            for d in self._decls:
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
            events.append(event_type(declarer, BIDS[contract], self._seat_tricks[declarer]))
        st = self._seat_tricks
        result = HandResult(
            kind="contract" if contract else "pass",
            contract=BIDS[contract] if contract else None,
            declarer=declarer if contract else None,
            sitting_out=self._out if contract else None,
            made=made,
            hand_points=hand_points,
            card_points=card_points,
            tricks_per_seat=(st[0], st[1], st[2], st[3]),
            declarations=self._decls,
            last_trick_seat=last_seat,
            tie=tie,
            scoring_pair=winner_pair,
            match_points=match_points,
            tricks_played=len(self._tricks),
        )
        self._result = result
        self._phase = _OVER
        self._turn = -1
        self._leader = -1
        events.append(HandOver(result))

    # ------------------------------------------------------------------ records

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready record (RULES.md section 10): rebuilds this state via `from_dict`."""
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
        hand, _events = cls.replay(record)
        return hand[-1]

    @classmethod
    def replay(cls, record: dict[str, Any]) -> tuple[list[Hand], list[tuple[Event, ...]]]:
        """Every state (the initial one first) and the events of each action."""
        try:
            start = cls.from_deal(
                record["rules"], record["dealer"], record["deal"], tuple(record["scores"])
            )
            trump = record.get("trump")
            actions = list(record["actions"])
        except (KeyError, TypeError) as exc:
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
        return (s.rules, s.dealer, s.scores, s.deal, self._actions)

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


def _codes(cards: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(CARD_CODES[c] for c in cards)


def deal_cards(rng: random.Random, dealer: int) -> tuple[tuple[str, ...], ...]:
    """Shuffle the 20 cards with `rng` and deal them: hands[seat] in dealing order."""
    deck = list(CARD_CODES)
    rng.shuffle(deck)
    mano = (dealer + 1) & 3
    hands: list[list[str]] = [[], [], [], []]
    for k, code in enumerate(deck):
        hands[(mano + k) & 3].append(code)
    return tuple(tuple(h) for h in hands)


def _join(codes: Sequence[str]) -> str:
    if len(codes) == 1:
        return codes[0]
    return "one of " + ", ".join(codes)


def explain_illegal(seat: int, held: int, card: int, lead: int, win: int, trump: int) -> str:
    """Why `card` breaks an obligation (RULES.md section 5), for error messages."""
    allowed = codes_of(legal_mask(held, lead, win, trump))
    must = _join(allowed)
    verb = "must be played"
    prefix = f"seat {seat} cannot play {CARD_CODES[card]}: "
    win_code = CARD_CODES[win]
    lead_name = SUIT_LETTERS[lead]
    in_lead = held & SUIT_MASK[lead]
    if in_lead:
        if CARD_SUIT[win] != lead:
            return prefix + f"{must} {verb} to follow suit ({lead_name}) after a trump"
        if in_lead & ((1 << win) - 1):
            return prefix + f"{must} {verb} to overtake {win_code}"
        return prefix + f"{must} {verb} to follow suit ({lead_name})"
    if CARD_SUIT[win] == trump:
        return prefix + f"{must} {verb} to over-trump {win_code}"
    return prefix + f"{must} {verb}: void in {lead_name}, a trump is required"
