"""A match: successive hands until a pair reaches the target (docs/rules.md §8)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from .errors import EngineError, InvalidRecord, WrongPhase
from .events import Event, HandOver, HandStarted, MatchOver
from .hand import Hand, _deal_idx, _Setup
from .rules import RuleSet, rule_set

RECORD_FORMAT: Final = 1


def hand_rng(seed: int | str, hand_no: int) -> random.Random:
    """The engine's RNG for hand `hand_no` (1-based) of a match with `seed`."""
    return random.Random(f"cuatrola:{seed}:{hand_no}")


def first_dealer(seed: int | str) -> int:
    """The random first dealer of a match with `seed`."""
    return random.Random(f"cuatrola:{seed}:dealer").randrange(4)


class Match:
    """Immutable match state: the finished hands, the current hand and the scores.

    A match normally starts at 0–0 and ends when a pair reaches the rule set's
    target. A record may also start it from other scores and limit it to a number
    of hands (`last_hand`): a position to practise, played out from the middle of
    a match (docs/engine.md, "Positions").
    """

    __slots__ = (
        "_current",
        "_finished",
        "_first_dealer",
        "_last_hand",
        "_rules",
        "_scores",
        "_seed",
        "_winner",
    )

    _rules: RuleSet
    _seed: int | str
    _first_dealer: int
    _finished: tuple[Hand, ...]
    _current: Hand
    _scores: tuple[int, int]
    _winner: int
    #: The match ends after this hand whatever the scores (0: no limit).
    _last_hand: int

    @classmethod
    def new(
        cls,
        rules: str | RuleSet = "online",
        seed: int | str = 0,
        first_dealer_seat: int | None = None,
        last_hand: int | None = None,
    ) -> Match:
        """Start a match: draw the first dealer from `seed` (unless given) and deal.

        `last_hand` (a whole number from 1, or None): the match ends after that
        hand whatever the scores (the daily deal plays one: `last_hand=1`)."""
        rs = rule_set(rules)
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise EngineError(f"a match seed is an int or a str, not {seed!r}")
        if last_hand is not None and (
            isinstance(last_hand, bool) or not isinstance(last_hand, int) or last_hand < 1
        ):
            raise EngineError(f"last_hand is a hand number from 1, not {last_hand!r}")
        dealer = first_dealer(seed) if first_dealer_seat is None else first_dealer_seat
        hand = Hand.deal(rs, dealer, hand_rng(seed, 1), (0, 0))
        return cls._make(rs, seed, hand.dealer, (), hand, (0, 0), -1, last_hand or 0)

    @classmethod
    def _make(
        cls,
        rules: RuleSet,
        seed: int | str,
        first: int,
        finished: tuple[Hand, ...],
        current: Hand,
        scores: tuple[int, int],
        winner: int,
        last_hand: int,
    ) -> Match:
        m = object.__new__(cls)
        m._rules = rules
        m._seed = seed
        m._first_dealer = first
        m._finished = finished
        m._current = current
        m._scores = scores
        m._winner = winner
        m._last_hand = last_hand
        return m

    # ------------------------------------------------------------------ queries

    @property
    def rules(self) -> RuleSet:
        return self._rules

    @property
    def seed(self) -> int | str:
        return self._seed

    @property
    def first_dealer(self) -> int:
        return self._first_dealer

    @property
    def scores(self) -> tuple[int, int]:
        """Match points of pair 0 and pair 1."""
        return self._scores

    @property
    def is_over(self) -> bool:
        return self._winner >= 0

    @property
    def last_hand(self) -> int | None:
        """The number of the hand after which the match ends whatever the scores
        (None: it ends only at the target)."""
        return self._last_hand or None

    @property
    def winner(self) -> int | None:
        """The winning pair once the match is over."""
        return None if self._winner < 0 else self._winner

    @property
    def hand(self) -> Hand:
        """The hand in progress (the last hand once the match is over)."""
        return self._current

    @property
    def hands(self) -> tuple[Hand, ...]:
        """Every hand of the match so far, the current one last."""
        return (*self._finished, self._current)

    @property
    def hand_no(self) -> int:
        """Number (1-based) of the current hand."""
        return len(self._finished) + 1

    @property
    def to_play(self) -> int | None:
        return None if self._winner >= 0 else self._current.to_play

    @property
    def phase(self) -> str:
        """``bidding`` or ``playing`` (the current hand), or ``over`` for the match."""
        return "over" if self._winner >= 0 else self._current.phase

    def legal_actions(self) -> tuple[str, ...]:
        return () if self._winner >= 0 else self._current.legal_actions()

    def personal_points(self) -> tuple[int, ...]:
        """Per seat over the match: card points of tricks won plus own declarations."""
        total = [0, 0, 0, 0]
        for hand in self.hands:
            for seat, pts in enumerate(hand.personal_points()):
                total[seat] += pts
        return tuple(total)

    def tricks_won(self) -> tuple[int, ...]:
        """Tricks won per seat over the match."""
        total = [0, 0, 0, 0]
        for hand in self.hands:
            for seat, n in enumerate(hand.tricks_won):
                total[seat] += n
        return tuple(total)

    # ------------------------------------------------------------------ applying

    def apply(self, action: str, seat: int | None = None) -> tuple[Match, tuple[Event, ...]]:
        """Apply `action` to the current hand (for `seat`, checked if given).

        When the hand ends the scores move; then either the match ends
        (`MatchOver`) or the next hand is dealt (`HandStarted`), its dealer
        being the previous mano.
        """
        if self._winner >= 0:
            raise WrongPhase(f"the match is over; {action!r} cannot be applied", code="match_over")
        hand, events = self._current.apply(action, seat)
        if hand._k[4] is None:  # the hand goes on: the common, fast case
            m = object.__new__(Match)
            m._rules = self._rules
            m._seed = self._seed
            m._first_dealer = self._first_dealer
            m._finished = self._finished
            m._current = hand
            m._scores = self._scores
            m._winner = -1
            m._last_hand = self._last_hand
            return m, events
        return self._after_hand(hand, events, None)

    def _apply(
        self, action: str, seat: int | None, next_deal: Sequence[Sequence[str]] | None
    ) -> tuple[Match, tuple[Event, ...]]:
        """`apply`, with the next hand's deal taken from a record when given."""
        if self._winner >= 0:
            raise WrongPhase(f"the match is over; {action!r} cannot be applied", code="match_over")
        hand, events = self._current.apply(action, seat)
        if hand.result is None:
            m = object.__new__(Match)
            m._rules = self._rules
            m._seed = self._seed
            m._first_dealer = self._first_dealer
            m._finished = self._finished
            m._current = hand
            m._scores = self._scores
            m._winner = -1
            m._last_hand = self._last_hand
            return m, events
        return self._after_hand(hand, events, next_deal)

    def _after_hand(
        self, hand: Hand, events: tuple[Event, ...], next_deal: Sequence[Sequence[str]] | None
    ) -> tuple[Match, tuple[Event, ...]]:
        """Score the finished `hand`; end the match or deal the next hand."""
        result = hand.result
        assert result is not None
        s = list(self._scores)
        s[result.scoring_pair] += result.match_points
        scores = (s[0], s[1])
        target = self._rules.target
        hand_no = len(self._finished) + 2
        limited = self._last_hand and hand_no > self._last_hand
        if scores[0] >= target or scores[1] >= target or limited:
            # Only one pair scores in a hand: at the target it is the pair that got
            # there; after the last hand of a limited match, the pair that scored it.
            winner = result.scoring_pair
            m = self._make(
                self._rules,
                self._seed,
                self._first_dealer,
                self._finished,
                hand,
                scores,
                winner,
                self._last_hand,
            )
            return m, (*events, MatchOver(winner, scores))
        dealer = hand.mano
        if next_deal is None:
            deal = _deal_idx(hand_rng(self._seed, hand_no), dealer)
            new_hand = Hand._start(_Setup.make(self._rules, dealer, deal, scores))
        else:
            new_hand = Hand.from_deal(self._rules, dealer, next_deal, scores)
        m = self._make(
            self._rules,
            self._seed,
            self._first_dealer,
            (*self._finished, hand),
            new_hand,
            scores,
            -1,
            self._last_hand,
        )
        return m, (*events, HandStarted(hand_no, dealer, new_hand.trump_card, scores))

    # ------------------------------------------------------------------ records

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready record: rule set, seed, and every hand's deal and actions (and
        `last_hand` for a match limited to a number of hands)."""
        record: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "rules": self._rules.name,
            "seed": self._seed,
            "first_dealer": self._first_dealer,
            "hands": [h.to_dict() for h in self.hands],
        }
        if self._last_hand:
            record["last_hand"] = self._last_hand
        return record

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> Match:
        """Rebuild a match from `to_dict`'s record by replaying it (recorded deals)."""
        steps = cls.replay(record)
        return steps[-1][0]

    @classmethod
    def replay(cls, record: dict[str, Any]) -> list[tuple[Match, tuple[Event, ...]]]:
        """Every match state of a record with the events that produced it.

        The first item is the new match with no events. Deals come from the
        record, never from re-running the RNG. The first hand starts from its
        recorded scores (0–0 unless the record is a position; both under the
        target), and a record's `last_hand` ends the match after that hand.
        """
        try:
            if record.get("format", RECORD_FORMAT) != RECORD_FORMAT:
                raise InvalidRecord(f"unknown record format {record.get('format')!r}")
            rules = rule_set(record["rules"])
            seed = record["seed"]
            hands = list(record["hands"])
            if not hands:
                raise InvalidRecord("a match record has at least one hand")
            deals = [h["deal"] for h in hands]
            first = hands[0]["dealer"]
            actions = [list(h["actions"]) for h in hands]
            start = hands[0].get("scores", (0, 0))
            last_hand = record.get("last_hand")
        except (KeyError, TypeError, AttributeError) as exc:
            raise InvalidRecord(f"not a match record: {exc!r}") from None
        if last_hand is not None and (
            isinstance(last_hand, bool) or not isinstance(last_hand, int) or last_hand < 1
        ):
            raise InvalidRecord(f"last_hand is a hand number from 1, not {last_hand!r}")
        first_hand = Hand.from_deal(rules, first, deals[0], start)
        if max(first_hand.scores) >= rules.target:
            raise InvalidRecord(
                f"a match cannot start at {list(first_hand.scores)}: a pair is at the target"
            )
        m = cls._make(rules, seed, first, (), first_hand, first_hand.scores, -1, last_hand or 0)
        steps: list[tuple[Match, tuple[Event, ...]]] = [(m, ())]
        for i, hand_actions in enumerate(actions):
            for j, action in enumerate(hand_actions):
                last = j == len(hand_actions) - 1
                nxt = deals[i + 1] if last and i + 1 < len(deals) else None
                m, events = m._apply(action, None, nxt)
                if any(isinstance(e, HandOver) for e in events) and not last:
                    raise InvalidRecord(f"hand {i + 1} has actions after it ended")
                steps.append((m, events))
            if i + 1 < len(deals):
                if m.hand_no != i + 2:
                    raise InvalidRecord(f"hand {i + 1} of the record did not finish")
                expected = (m.hand.dealer, list(m.hand.scores))
                if (hands[i + 1].get("dealer"), list(hands[i + 1].get("scores", ()))) != expected:
                    raise InvalidRecord(f"hand {i + 2}: dealer or scores do not follow the rules")
        if m.hand_no != len(deals) and not m.is_over:
            raise InvalidRecord("the record's hands do not match its actions")
        if record.get("first_dealer", first) != first:
            raise InvalidRecord("first_dealer does not match the first hand's dealer")
        return steps

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return (self._rules, self._seed, self.hands, self._last_hand) == (
            other._rules,
            other._seed,
            other.hands,
            other._last_hand,
        )

    def __hash__(self) -> int:
        return hash((self._rules, self._seed, self.hands, self._last_hand))

    def __repr__(self) -> str:
        return (
            f"<Match {self._rules.name} hand={self.hand_no} scores={self._scores} "
            f"winner={self.winner}>"
        )
