"""The day's deals: from a server secret and the date (docs/daily.md)."""

from datetime import date, timedelta

import pytest

from cuatrola.engine import Match
from daily.deals import DEALS, TURN_NAMES, deal_dealer, deal_match, deal_result, deal_seed

DAY = date(2026, 12, 5)
SECRET = "a-test-secret-for-the-daily-deal-0123456789"


def day_deals(day: date, secret: str = SECRET) -> list[tuple]:
    return [
        deal_match(
            seed=deal_seed(secret=secret, day=day, number=n), dealer=deal_dealer(n)
        ).hand.dealt_hands
        for n in range(1, DEALS + 1)
    ]


def test_the_same_date_and_secret_give_the_same_deals():
    assert day_deals(DAY) == day_deals(date(2026, 12, 5))


def test_another_secret_gives_other_deals():
    other = day_deals(DAY, "another-secret-for-the-daily-deal-98765432")
    assert all(a != b for a, b in zip(day_deals(DAY), other, strict=True))


def test_each_day_and_each_deal_of_a_day_differ():
    days = [day_deals(DAY + timedelta(days=n)) for n in range(5)]
    hands = [deal for deals in days for deal in deals]
    assert len(set(hands)) == len(hands) == 5 * DEALS


def test_the_seed_is_the_hmac_of_the_date_and_number_keyed_with_the_secret():
    import hashlib
    import hmac

    digest = hmac.new(SECRET.encode(), b"cuatrola-daily:2026-12-05:3", hashlib.sha256).digest()
    assert deal_seed(secret=SECRET, day=DAY, number=3) == int.from_bytes(digest[:8], "big") >> 2
    assert 0 <= deal_seed(secret=SECRET, day=DAY, number=3) < 2**62  # fits a bigint column


def test_tomorrows_seeds_are_not_a_function_of_todays():
    # What a client could learn (today's seeds, even every past day's) says nothing
    # of tomorrow's without the secret: the same dates under another secret share no
    # seed, and no seed of the next day is a simple step from today's.
    today = [deal_seed(secret=SECRET, day=DAY, number=n) for n in range(1, DEALS + 1)]
    tomorrow = [
        deal_seed(secret=SECRET, day=DAY + timedelta(days=1), number=n) for n in range(1, 7)
    ]
    assert not set(today) & set(tomorrow)
    assert len({b - a for a, b in zip(today, tomorrow, strict=True)}) == DEALS


def test_a_missing_secret_is_refused():
    with pytest.raises(ValueError):
        deal_seed(secret="", day=DAY, number=1)


def test_the_player_is_mano_second_third_and_dealer_in_turn():
    # The player sits at seat 0; the mano is the seat after the dealer.
    turns = []
    for number in range(1, DEALS + 1):
        match = deal_match(
            seed=deal_seed(secret=SECRET, day=DAY, number=number), dealer=deal_dealer(number)
        )
        hand = match.hand
        order = [(hand.mano + k) % 4 for k in range(4)]
        turns.append(order.index(0))
        assert TURN_NAMES[hand.dealer] == ("mano", "second", "third", "dealer")[order.index(0)]
    assert turns == [0, 1, 2, 3, 0, 1]


def test_a_deal_is_one_hand_of_the_online_rules():
    match = deal_match(seed=deal_seed(secret=SECRET, day=DAY, number=1), dealer=3)
    assert match.rules.name == "online" and match.last_hand == 1
    while not match.is_over:
        match, _ = match.apply(match.legal_actions()[0])
    assert match.hand_no == 1
    result = match.hand.result
    assert result is not None
    expected = result.match_points if result.scoring_pair == 0 else -result.match_points
    assert deal_result(match) == expected != 0
    with pytest.raises(ValueError):
        deal_result(Match.new("online", seed=1, last_hand=1))
