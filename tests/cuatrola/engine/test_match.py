"""The match (docs/rules.md §2 and §8)."""

from __future__ import annotations

import itertools
import random

import pytest

from cuatrola.engine import Match, NotYourTurn, WrongPhase
from cuatrola.engine.events import HandOver, HandStarted, MatchOver


def play_match(rules: str, seed: int, policy_seed: int = 0) -> tuple[Match, list[object]]:
    rng = random.Random(policy_seed)
    match = Match.new(rules, seed=seed)
    events: list[object] = []
    while not match.is_over:
        match, evs = match.apply(rng.choice(match.legal_actions()))
        events.extend(evs)
    return match, events


def test_the_first_dealer_is_drawn_from_the_seed() -> None:
    dealers = {Match.new("online", seed=s).hand.dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert Match.new("online", seed=5).hand.dealer == Match.new("online", seed=5).hand.dealer


def test_the_same_seed_deals_the_same_match() -> None:
    a, _ = play_match("online", seed=3)
    b, _ = play_match("online", seed=3)
    assert a.to_dict() == b.to_dict()


def test_the_dealer_moves_one_seat_and_the_new_dealer_is_the_previous_mano() -> None:
    match, _ = play_match("online", seed=8)
    hands = match.hands
    assert len(hands) > 2
    for previous, current in itertools.pairwise(hands):
        assert current.dealer == previous.mano == (previous.dealer + 1) % 4


def test_scores_carry_into_the_next_hand_and_bound_its_bids() -> None:
    match, _ = play_match("classic", seed=4)
    total = [0, 0]
    for hand in match.hands:
        assert hand.scores == tuple(total)
        assert hand.result is not None
        total[hand.result.scoring_pair] += hand.result.match_points
    assert tuple(total) == match.scores


@pytest.mark.parametrize("rules", ["online", "classic"])
def test_the_match_ends_with_one_winner_at_or_past_the_target(rules: str) -> None:
    match, events = play_match(rules, seed=12)
    target = match.rules.target
    assert match.winner is not None
    assert match.scores[match.winner] >= target
    assert match.scores[1 - match.winner] < target
    assert events[-1] == MatchOver(match.winner, match.scores)
    assert match.phase == "over" and match.to_play is None and match.legal_actions() == ()
    with pytest.raises(WrongPhase):
        match.apply("pass")


def test_a_new_hand_is_announced_after_each_hand_that_does_not_end_the_match() -> None:
    match, events = play_match("online", seed=2)
    starts = [e for e in events if isinstance(e, HandStarted)]
    overs = [e for e in events if isinstance(e, HandOver)]
    assert len(starts) == len(overs) - 1 == len(match.hands) - 1
    assert [s.hand_no for s in starts] == list(range(2, len(match.hands) + 1))


def test_a_declarers_own_contract_never_carries_its_pair_past_the_target() -> None:
    for seed in range(15):
        match, _ = play_match("online", seed=seed, policy_seed=seed)
        for hand in match.hands:
            result = hand.result
            if result is not None and result.made and result.kind == "contract":
                pair = result.scoring_pair
                assert hand.scores[pair] + result.match_points <= match.rules.target


def test_apply_checks_the_seat_when_given() -> None:
    match = Match.new("online", seed=1)
    wrong = (match.to_play + 1) % 4
    with pytest.raises(NotYourTurn):
        match.apply("pass", seat=wrong)
    match2, _ = match.apply("pass", seat=match.to_play)
    assert match2.hand.actions == ("pass",)
    assert match.hand.actions == ()


def test_personal_points_add_card_points_won_and_own_declarations() -> None:
    match, _ = play_match("classic", seed=6)
    expected = [0, 0, 0, 0]
    for hand in match.hands:
        for trick in hand.tricks:
            expected[trick.winner] += trick.points
        for d in hand.declarations:
            expected[d.seat] += d.points
    assert list(match.personal_points()) == expected
    assert sum(match.tricks_won()) == sum(len(h.tricks) for h in match.hands)


def test_a_failed_contract_or_a_pass_hand_may_carry_a_pair_past_the_target() -> None:
    found = None
    for seed in range(300):
        match, _ = play_match("online", seed=seed, policy_seed=seed)
        if match.winner is not None and match.scores[match.winner] > match.rules.target:
            found = match
            break
    assert found is not None
    last = found.hand.result
    assert last is not None
    assert last.kind == "pass" or not last.made


# --- A match of a fixed number of hands (the daily deal plays one) ------------------


def play_limited(seed: int, last_hand: int, policy_seed: int = 0) -> Match:
    rng = random.Random(policy_seed)
    match = Match.new("online", seed=seed, first_dealer_seat=2, last_hand=last_hand)
    while not match.is_over:
        match, _ = match.apply(rng.choice(match.legal_actions()))
    return match


@pytest.mark.parametrize("seed", range(12))
def test_a_one_hand_match_ends_after_its_hand_won_by_the_pair_that_scored(seed: int) -> None:
    match = play_limited(seed, 1, policy_seed=seed)
    assert match.hand_no == 1 and len(match.hands) == 1
    result = match.hand.result
    assert result is not None
    assert match.winner == result.scoring_pair
    assert match.scores[result.scoring_pair] == result.match_points
    assert match.scores[1 - result.scoring_pair] == 0
    assert match.phase == "over" and match.to_play is None and match.legal_actions() == ()


def test_a_one_hand_match_deals_as_an_unlimited_one_with_the_same_seed_and_dealer() -> None:
    limited = Match.new("online", seed=77, first_dealer_seat=1, last_hand=1)
    unlimited = Match.new("online", seed=77, first_dealer_seat=1)
    assert limited.hand.dealt_hands == unlimited.hand.dealt_hands
    assert limited.hand.dealer == 1 and limited.last_hand == 1 and unlimited.last_hand is None


def test_the_last_hand_of_a_limited_match_ends_it_with_match_over_not_a_new_deal() -> None:
    match = Match.new("online", seed=5, first_dealer_seat=3, last_hand=1)
    events: list[object] = []
    while not match.is_over:
        match, evs = match.apply(match.legal_actions()[0])
        events.extend(evs)
    assert not any(isinstance(e, HandStarted) for e in events)
    assert isinstance(events[-1], MatchOver) and isinstance(events[-2], HandOver)


def test_a_longer_limit_plays_that_many_hands_unless_a_pair_reaches_the_target() -> None:
    match = play_limited(9, 3)
    assert match.hand_no == 3 or max(match.scores) >= 21
    assert match.hand.result is not None
    # At the target or after the last hand, the pair that scored the last hand wins.
    assert match.winner == match.hand.result.scoring_pair


def test_a_limited_match_record_keeps_its_limit_and_replays_to_the_same_match() -> None:
    match = play_limited(4, 1)
    record = match.to_dict()
    assert record["last_hand"] == 1
    assert Match.from_dict(record) == match
    assert "last_hand" not in Match.new("online", seed=4).to_dict()
    unlimited = dict(record)
    del unlimited["last_hand"]
    from cuatrola.engine import InvalidRecord

    with pytest.raises(InvalidRecord):  # without its limit the match would deal hand 2
        Match.from_dict(unlimited)


@pytest.mark.parametrize("last_hand", [0, -1, 1.0, "1", True])
def test_a_last_hand_that_is_not_a_whole_number_from_1_is_refused(last_hand: object) -> None:
    from cuatrola.engine import EngineError, InvalidRecord

    with pytest.raises(EngineError, match="last_hand"):
        Match.new("online", seed=1, last_hand=last_hand)  # type: ignore[arg-type]
    record = play_limited(4, 1).to_dict()
    record["last_hand"] = last_hand
    with pytest.raises(InvalidRecord, match="last_hand"):
        Match.from_dict(record)


def test_a_record_with_more_hands_than_its_last_hand_is_refused() -> None:
    from cuatrola.engine import InvalidRecord

    record = play_match("online", seed=8)[0].to_dict()
    assert len(record["hands"]) > 1
    record["last_hand"] = 1
    with pytest.raises(InvalidRecord):
        Match.from_dict(record)


# --- positions: a match started from a hand in the middle of another ------------


def _position_record(scores: list[int], actions: list[str], last_hand: int | None = 1) -> dict:
    source = Match.new("online", seed=21).hand.to_dict()
    record = {
        "format": 1,
        "rules": "online",
        "seed": 99,
        "first_dealer": source["dealer"],
        "hands": [{**source, "scores": scores, "actions": actions}],
    }
    if last_hand is not None:
        record["last_hand"] = last_hand
    return record


def test_a_position_starts_from_its_scores_with_its_actions_applied() -> None:
    match = Match.from_dict(_position_record([17, 12], ["pass", "pass"]))
    assert match.scores == (17, 12)
    assert match.hand.scores == (17, 12)
    assert match.hand.actions == ("pass", "pass")
    assert match.last_hand == 1
    # The scores bound the bids as in any hand: pair 0 on 17 may not bid a quintola.
    assert ("quintola" in match.legal_actions()) == (match.to_play % 2 == 1)


def test_a_match_limited_to_one_hand_ends_after_it_and_its_scorer_wins() -> None:
    rng = random.Random(3)
    match = Match.from_dict(_position_record([3, 4], []))
    events: list[object] = []
    while not match.is_over:
        match, evs = match.apply(rng.choice(match.legal_actions()))
        events.extend(evs)
    assert len(match.hands) == 1
    result = match.hand.result
    assert result is not None
    assert match.winner == result.scoring_pair
    assert max(match.scores) < match.rules.target
    assert not any(isinstance(e, HandStarted) for e in events)
    assert isinstance(events[-1], MatchOver)
    # Its record says so and rebuilds the same finished match.
    record = match.to_dict()
    assert record["last_hand"] == 1
    assert Match.from_dict(record) == match


def test_an_ordinary_record_has_no_limit_and_starts_at_nil() -> None:
    match, _ = play_match("online", seed=5)
    record = match.to_dict()
    assert "last_hand" not in record
    assert record["hands"][0]["scores"] == [0, 0]
    assert Match.from_dict(record).last_hand is None


@pytest.mark.parametrize(
    ("scores", "last_hand", "message"),
    [
        ([21, 3], 1, "a pair is at the target"),
        ([-1, 3], 1, "score"),
        ([3, 3], 0, "last_hand"),
        ([3, 3], True, "last_hand"),
        ([3, 3], "1", "last_hand"),
    ],
)
def test_a_position_record_that_makes_no_sense_is_refused(scores, last_hand, message) -> None:
    from cuatrola.engine import EngineError

    with pytest.raises(EngineError, match=message):
        Match.from_dict(_position_record(scores, [], last_hand))
