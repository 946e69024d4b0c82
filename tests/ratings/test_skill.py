"""The rating arithmetic (ratings.skill): pure, no database."""

from __future__ import annotations

import pytest

from ratings.skill import (
    BOT_SKILLS,
    NEW,
    PROVISIONAL_MATCHES,
    SeatIn,
    Skill,
    bot_skill,
    match_update,
    provisional,
    provisional_step,
    shown,
    win_chance,
)

STRONG = Skill(30.0, 2.0)
WEAK = Skill(20.0, 2.0)
EVEN = Skill(25.0, 2.0)


def seats(*skills, abandoned=(), bots=()):
    return [
        SeatIn(skill, person=position not in bots, abandoned=position in abandoned)
        for position, skill in enumerate(skills)
    ]


def test_a_new_player_is_shown_1500_and_provisional_until_ten_matches():
    assert shown(NEW.mu) == 1500
    assert provisional(0) and provisional(PROVISIONAL_MATCHES - 1)
    assert not provisional(PROVISIONAL_MATCHES)


def test_a_win_raises_and_a_loss_lowers_every_player():
    after = match_update(seats(NEW, NEW, NEW, NEW), winner=0)
    for position in (0, 2):
        assert after[position].mu > NEW.mu and after[position].shown > 1500
    for position in (1, 3):
        assert after[position].mu < NEW.mu and after[position].shown < 1500
    assert all(a.sigma < NEW.sigma for a in after)  # each match makes the estimate surer


def test_an_established_player_moves_about_a_dozen_points():
    after = match_update(seats(EVEN, EVEN, EVEN, EVEN), winner=1)
    assert 5 <= after[1].shown - 1500 <= 20
    assert -20 <= after[0].shown - 1500 <= -5


def test_a_strong_pair_beating_a_weak_one_gains_little():
    expected = match_update(seats(STRONG, WEAK, STRONG, WEAK), winner=0)
    upset = match_update(seats(STRONG, WEAK, STRONG, WEAK), winner=1)
    even = match_update(seats(EVEN, EVEN, EVEN, EVEN), winner=0)
    gain = expected[0].shown - STRONG.shown
    assert 0 <= gain < (even[0].shown - EVEN.shown) / 2
    assert upset[1].shown - WEAK.shown > 3 * gain  # the surprise moves a lot more


def test_the_partner_matters_each_seat_is_rated_on_its_own():
    """A strong player carried by a weak partner, a weak one by a strong partner:
    the pair is the sum of two estimates and each seat keeps its own."""
    unsure = Skill(25.0, 6.0)
    after = match_update(seats(unsure, EVEN, EVEN, EVEN), winner=0)
    # The unsure player learns more from the same result than their sure partner.
    assert after[0].mu - unsure.mu > 3 * (after[2].mu - EVEN.mu) > 0
    # Winning beside a weak partner is worth more than beside a strong one.
    with_weak = match_update(seats(EVEN, EVEN, WEAK, EVEN), winner=0)[0]
    with_strong = match_update(seats(EVEN, EVEN, STRONG, EVEN), winner=0)[0]
    assert with_weak.mu > with_strong.mu


def test_an_abandoner_is_rated_as_having_lost_even_when_their_pair_won():
    after = match_update(seats(EVEN, EVEN, EVEN, EVEN, abandoned={0}), winner=0)
    lost = match_update(seats(EVEN, EVEN, EVEN, EVEN), winner=1)
    assert after[0].mu < EVEN.mu
    assert after[0] == lost[0]
    # Their partner, left with a bot, still wins as the pair did.
    assert after[2].mu > EVEN.mu


def test_an_abandoner_on_the_losing_pair_loses_as_usual():
    after = match_update(seats(EVEN, EVEN, EVEN, EVEN, abandoned={1}), winner=0)
    assert after[1] == match_update(seats(EVEN, EVEN, EVEN, EVEN), winner=0)[1]


def test_the_partner_of_an_abandoner_is_never_rated_down():
    after = match_update(seats(EVEN, EVEN, EVEN, EVEN, abandoned={1}), winner=0)
    assert after[3] == EVEN  # left with a bot and lost: unchanged
    assert after[0].mu > EVEN.mu and after[2].mu > EVEN.mu  # the winners still gain


def test_both_abandoners_of_a_winning_pair_lose():
    after = match_update(seats(EVEN, EVEN, EVEN, EVEN, abandoned={0, 2}), winner=0)
    assert after[0].mu < EVEN.mu and after[2].mu < EVEN.mu


def test_bots_are_never_updated_and_count_at_their_fixed_rating():
    easy, hard = bot_skill("easy"), bot_skill("hard")
    after = match_update(seats(EVEN, easy, easy, easy, bots={1, 2, 3}), winner=0)
    assert after[1] is None and after[2] is None and after[3] is None
    against_hard = match_update(seats(EVEN, hard, easy, hard, bots={1, 2, 3}), winner=0)
    assert against_hard[0].mu > after[0].mu  # beating stronger bots is worth more
    assert bot_skill("easy") == easy  # the table of fixed ratings is unchanged


def test_the_bot_levels_are_ordered_and_unknown_levels_refused():
    assert BOT_SKILLS["easy"].mu < BOT_SKILLS["medium"].mu < BOT_SKILLS["hard"].mu
    with pytest.raises(ValueError, match="no fixed rating for the bot level 'genius'"):
        bot_skill("genius")


def test_a_match_has_four_seats_and_a_winning_pair():
    with pytest.raises(ValueError, match="four seats"):
        match_update(seats(EVEN, EVEN, EVEN), winner=0)
    with pytest.raises(ValueError, match="0 or 1"):
        match_update(seats(EVEN, EVEN, EVEN, EVEN), winner=2)


def test_the_update_is_deterministic():
    first = match_update(seats(STRONG, WEAK, EVEN, NEW), winner=1)
    assert first == match_update(seats(STRONG, WEAK, EVEN, NEW), winner=1)


def test_win_chance_favours_the_stronger_pair():
    assert win_chance([STRONG, STRONG], [WEAK, WEAK]) > 0.9
    assert win_chance([EVEN, EVEN], [EVEN, EVEN]) == pytest.approx(0.5)


def test_a_player_without_the_protection_is_rated_down_when_their_partner_abandons():
    protected = match_update(seats(EVEN, EVEN, EVEN, EVEN, abandoned=(3,)), winner=0)
    inputs = seats(EVEN, EVEN, EVEN, EVEN, abandoned=(3,))
    inputs[1] = SeatIn(EVEN, protected=False)
    unprotected = match_update(inputs, winner=0)
    assert protected[1] == EVEN
    as_played = match_update(seats(EVEN, EVEN, EVEN, EVEN), winner=0)
    assert unprotected[1] == as_played[1] and unprotected[1].shown < EVEN.shown
    assert unprotected[3] == protected[3]  # the abandoner loses either way


def test_the_provisional_step_caps_a_move_either_way_and_keeps_the_uncertainty():
    before = NEW
    down = Skill(NEW.mu - 4.0, 7.5)  # 280 points down
    up = Skill(NEW.mu + 3.0, 7.5)  # 210 up
    assert provisional_step(before, down, 150) == Skill(NEW.mu - 150 / 70, 7.5)
    assert provisional_step(before, down, 150).shown == 1350
    assert provisional_step(before, up, 150).shown == 1650
    small = Skill(NEW.mu + 1.0, 7.5)  # 70 up: under the step, unchanged
    assert provisional_step(before, small, 150) is small
    assert provisional_step(before, down, 0) is down  # no step: no cap


def test_a_newcomers_first_loss_beside_an_easy_bot_is_capped_above_the_easy_bots():
    easy = SeatIn(BOT_SKILLS["easy"], person=False)
    lost = match_update([SeatIn(NEW), easy, easy, easy], winner=1)[0]
    assert lost.shown < BOT_SKILLS["easy"].shown  # the model alone: 1230
    assert provisional_step(NEW, lost, 150).shown == 1350
