"""Property tests over random matches in both rule sets (hypothesis)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuatrola.engine import BIDS, CARD_CODES, EngineError, Hand, Match, seat_view
from cuatrola.engine.core import CARD_POINTS, CODE_INDEX
from cuatrola.engine.events import DeclarationMade, TrickWon

ALL_ACTIONS = (*BIDS, *CARD_CODES)
STRENGTH = {1: 5, 3: 4, 12: 3, 11: 2, 10: 1}
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

rules_names = st.sampled_from(["online", "classic"])
seeds = st.integers(min_value=0, max_value=2**32)


def suit(code: str) -> str:
    return code[-1]


def strength(code: str) -> int:
    return STRENGTH[int(code[:-1])]


def reference_legal(hand: list[str], trick: list[str], trump: str) -> set[str]:
    """docs/rules.md §5, written out literally, independent of core.py."""
    if not trick:
        return set(hand)
    led = suit(trick[0])
    trumps_in_trick = [c for c in trick if suit(c) == trump]
    mine_led = [c for c in hand if suit(c) == led]
    if mine_led:
        if led != trump and trumps_in_trick:
            return set(mine_led)
        highest = max(strength(c) for c in trick if suit(c) == led)
        return {c for c in mine_led if strength(c) > highest} or set(mine_led)
    mine_trumps = [c for c in hand if suit(c) == trump]
    if mine_trumps:
        if not trumps_in_trick:
            return set(mine_trumps)
        highest = max(strength(c) for c in trumps_in_trick)
        return {c for c in mine_trumps if strength(c) > highest} or set(hand)
    return set(hand)


def random_match(rules: str, seed: int, rng: random.Random) -> list[Match]:
    match = Match.new(rules, seed=seed)
    states = [match]
    while not match.is_over:
        match, _ = match.apply(rng.choice(match.legal_actions()))
        states.append(match)
    return states


@SETTINGS
@given(rules=rules_names, seed=seeds, policy=st.randoms(use_true_random=False))
def test_every_card_is_played_once_and_points_sum_to_120_in_pass_hands(
    rules: str, seed: int, policy: random.Random
) -> None:
    hand = Hand.deal(rules, seed % 4, seed)
    for _ in range(4):
        hand, _ = hand.apply("pass")
    while hand.to_play is not None:
        hand, _ = hand.apply(policy.choice(hand.legal_actions()))
    played = [c for t in hand.tricks for _s, c in t.plays]
    assert sorted(played) == sorted(CARD_CODES)
    assert sum(t.points for t in hand.tricks) == 120
    assert hand.result is not None
    assert sum(hand.result.card_points) == 120
    # Declarations can only follow tricks 1-3: later nobody holds two cards of a pair.
    assert all(d.trick <= 3 for d in hand.declarations)


@SETTINGS
@given(rules=rules_names, seed=seeds, policy=st.randoms(use_true_random=False))
def test_legal_actions_are_never_empty_and_exactly_the_legal_ones_apply(
    rules: str, seed: int, policy: random.Random
) -> None:
    for match in random_match(rules, seed, policy):
        legal = match.legal_actions()
        if match.is_over:
            assert legal == ()
            continue
        assert legal
        assert len(set(legal)) == len(legal)
        # The engine's fixed order: pass then bids low to high, or card index order.
        order = {a: i for i, a in enumerate(ALL_ACTIONS)}
        assert list(legal) == sorted(legal, key=order.__getitem__)
        before = match.to_dict()
        for action in ALL_ACTIONS:
            if action in legal:
                match.apply(action)
            else:
                try:
                    match.apply(action)
                except EngineError:
                    pass
                else:
                    raise AssertionError(f"{action} applied but is not legal")
        assert match.to_dict() == before


@SETTINGS
@given(rules=rules_names, seed=seeds, policy=st.randoms(use_true_random=False))
def test_legal_cards_follow_the_obligations_as_written(
    rules: str, seed: int, policy: random.Random
) -> None:
    for match in random_match(rules, seed, policy):
        hand = match.hand
        if hand.phase != "playing" or match.is_over:
            continue
        seat = hand.to_play
        assert seat is not None
        trick = [c for _s, c in hand.current_trick]
        expected = reference_legal(list(hand.hand_of(seat)), trick, hand.trump_suit)
        assert set(hand.legal_actions()) == expected


@SETTINGS
@given(rules=rules_names, seed=seeds, policy=st.randoms(use_true_random=False))
def test_tricks_go_to_the_highest_trump_else_the_highest_card_led(
    rules: str, seed: int, policy: random.Random
) -> None:
    final = random_match(rules, seed, policy)[-1]
    for hand in final.hands:
        trump = hand.trump_suit
        for trick in hand.tricks:
            cards = [c for _s, c in trick.plays]
            pool = [c for c in cards if suit(c) == trump] or [
                c for c in cards if suit(c) == suit(cards[0])
            ]
            best = max(pool, key=strength)
            assert dict((c, s) for s, c in trick.plays)[best] == trick.winner
            assert trick.points == sum(CARD_POINTS[CODE_INDEX[c]] for c in cards)


@SETTINGS
@given(rules=rules_names, seed=seeds, policy=st.randoms(use_true_random=False))
def test_matches_end_with_exactly_one_winner_at_or_past_the_target(
    rules: str, seed: int, policy: random.Random
) -> None:
    final = random_match(rules, seed, policy)[-1]
    target = final.rules.target
    assert final.winner is not None
    assert [s >= target for s in final.scores].count(True) == 1
    assert final.scores[final.winner] >= target


@SETTINGS
@given(rules=rules_names, seed=seeds, policy=st.randoms(use_true_random=False))
def test_replay_reproduces_every_state_and_event(
    rules: str, seed: int, policy: random.Random
) -> None:
    match = Match.new(rules, seed=seed)
    states = [match]
    events = []
    while not match.is_over:
        match, evs = match.apply(policy.choice(match.legal_actions()))
        states.append(match)
        events.append(evs)
    steps = Match.replay(json.loads(json.dumps(match.to_dict())))
    assert [m for m, _ in steps] == states
    assert [e for _, e in steps[1:]] == events
    assert [[e.to_dict() for e in evs] for _, evs in steps[1:]] == [
        [e.to_dict() for e in evs] for evs in events
    ]


@SETTINGS
@given(rules=rules_names, seed=seeds, policy=st.randoms(use_true_random=False))
def test_a_seat_view_never_contains_another_seats_hidden_card(
    rules: str, seed: int, policy: random.Random
) -> None:
    for match in random_match(rules, seed, policy)[::3]:
        hand = match.hand
        public = {d.cards[0] for d in hand.declarations} | {d.cards[1] for d in hand.declarations}
        if hand.dealer_holds_trump_card:
            public.add(hand.trump_card)
        for seat in range(4):
            # The current hand's part: earlier hands' history only names played cards.
            text = json.dumps(seat_view(match, seat)["hand"])
            for other in range(4):
                if other == seat:
                    continue
                for card in hand.hand_of(other):
                    if card not in public:
                        assert f'"{card}"' not in text


def reference_declaration(
    hand: Hand, before: Hand, winner: int, number: int
) -> tuple[int, str, int] | None:
    """docs/rules.md §6, written out literally: the declaration after a trick."""
    rules = hand.rules
    if number == 5 or not (
        hand.contract is None or (hand.contract == "solo" and rules.declarations_in_solo)
    ):
        return None
    pair = winner % 2
    mine = [d for d in before.declarations if d.seat % 2 == pair]
    limit = rules.max_declarations_per_pair
    if limit is not None and len(mine) >= limit:
        return None
    used = {d.suit for d in mine}
    seats = [winner] + ([winner ^ 2] if winner ^ 2 != hand.sitting_out else [])
    trump = hand.trump_suit

    def holds(seat: int, s: str) -> bool:
        return {f"12{s}", f"11{s}"} <= set(hand.hand_of(seat))

    if trump not in used:
        for seat in seats:
            if holds(seat, trump):
                return (seat, trump, 40)
    for seat in seats:
        for s in "oceb":
            if s != trump and s not in used and holds(seat, s):
                return (seat, s, 20)
    return None


@SETTINGS
@given(rules=rules_names, seed=seeds, policy=st.randoms(use_true_random=False))
def test_declarations_follow_section_6_as_written(
    rules: str, seed: int, policy: random.Random
) -> None:
    match = Match.new(rules, seed=seed)
    while not match.is_over:
        before = match.hand
        match, events = match.apply(policy.choice(match.legal_actions()))
        won = [e for e in events if isinstance(e, TrickWon)]
        if not won:
            continue
        # The state right after the trick: the current hand, or the finished one.
        after = next(h for h in match.hands if h.dealt_hands == before.dealt_hands)
        made = [e for e in events if isinstance(e, DeclarationMade)]
        expected = reference_declaration(after, before, won[0].seat, won[0].trick)
        got = (made[0].seat, made[0].suit, made[0].points) if made else None
        assert got == expected


def reference_score(hand: Hand) -> tuple[int, int, bool | None, int]:
    """docs/rules.md §7 from the tricks and declarations: (pair, points, made, tricks)."""
    rules = hand.rules
    tricks = hand.tricks
    values = {"solo": 2, "cuatrola": 4, "quintola": 5}
    if hand.contract is not None and not (hand.contract == "solo" and rules.solo_by_points):
        need = {"solo": 3, "cuatrola": 4, "quintola": 5}[hand.contract]
        mine = theirs = 0
        for n, trick in enumerate(tricks, start=1):
            if trick.winner == hand.declarer:
                mine += 1
            else:
                theirs += 1
            if mine == need or theirs == 6 - need:
                assert n == len(tricks), "the hand must stop as soon as it is decided"
                made = mine == need
                pair = hand.declarer % 2 if made else 1 - hand.declarer % 2
                return pair, values[hand.contract], made, n
        raise AssertionError("a contract hand ended undecided")
    assert len(tricks) == 5
    points = [0, 0]
    for trick in tricks:
        points[trick.winner % 2] += trick.points
    points[tricks[-1].winner % 2] += 10
    for d in hand.declarations:
        points[d.seat % 2] += d.points
    if points[0] != points[1]:
        pair = 0 if points[0] > points[1] else 1
    elif hand.contract is None and rules.name == "online":
        pair = tricks[-1].winner % 2
    else:
        pair = hand.mano % 2
    if hand.contract is None:
        bonus = rules.name == "online" and points[pair] > 100
        return pair, 2 if bonus else 1, None, 5
    return pair, 2, pair == hand.declarer % 2, 5


@SETTINGS
@given(rules=rules_names, seed=seeds, policy=st.randoms(use_true_random=False))
def test_every_hand_is_scored_as_section_7_says(
    rules: str, seed: int, policy: random.Random
) -> None:
    final = random_match(rules, seed, policy)[-1]
    for hand in final.hands:
        result = hand.result
        assert result is not None
        got = (result.scoring_pair, result.match_points, result.made, result.tricks_played)
        assert got == reference_score(hand)
