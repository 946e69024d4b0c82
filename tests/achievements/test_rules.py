"""The rules are pure: a player's facts in, the achievements and their moments out."""

from datetime import UTC, datetime, timedelta

from achievements.rules import ACHIEVEMENTS, CODES, EventFacts, MatchFacts, earned, record_facts
from achievements.texts import TEXTS
from tests.history.handbuilt import RECORD

START = datetime(2026, 11, 2, 12, tzinfo=UTC)


def facts(outcomes, *, partner=None, step=timedelta(hours=1), **extra):
    return [
        MatchFacts(
            match_id=i + 1,
            finished_at=START + i * step,
            day=(START + i * step).date(),
            mode=extra.get("mode", "online"),
            rules=extra.get("rules", "online"),
            outcome=outcome,
            partner_id=partner,
        )
        for i, outcome in enumerate(outcomes)
    ]


def test_there_are_about_thirty_achievements_each_with_a_name_and_a_condition():
    assert 30 <= len(ACHIEVEMENTS) <= 40
    assert len(set(CODES)) == len(CODES)
    assert set(TEXTS) == set(CODES)


def test_each_rule_set_has_one_rare_achievement():
    assert sorted(a.rules_set for a in ACHIEVEMENTS if a.rare) == ["classic", "online"]


def test_no_match_earns_nothing():
    assert earned([], EventFacts()) == {}


def test_the_first_win_is_dated_by_the_first_match_won():
    found = earned(facts(["lost", "won", "won"]), EventFacts())
    assert found["first_win"].match_id == 2
    assert found["first_win"].at == START + timedelta(hours=1)


def test_ten_wins_in_a_row_need_no_loss_between_them():
    broken = facts(["won"] * 9 + ["lost"] + ["won"] * 9)
    assert "streak_10" not in earned(broken, EventFacts())
    whole = facts(["lost"] + ["won"] * 10)
    assert earned(whole, EventFacts())["streak_10"].match_id == 11


def test_an_abandoned_match_breaks_a_streak():
    assert "streak_5" not in earned(facts(["won"] * 4 + ["abandoned"] + ["won"] * 4), EventFacts())


def test_a_hundred_matches_are_counted_whatever_their_outcome():
    found = earned(facts(["lost"] * 99 + ["abandoned"]), EventFacts())
    assert found["matches_100"].match_id == 100
    assert "first_win" not in found


def test_playing_every_day_of_a_week_needs_seven_days_in_a_row():
    six = facts(["lost"] * 6, step=timedelta(days=1))
    assert "every_day_7" not in earned(six, EventFacts())
    seven = facts(["lost"] * 7, step=timedelta(days=1))
    assert earned(seven, EventFacts())["every_day_7"].match_id == 7
    gap = facts(["lost"] * 8, step=timedelta(days=2))
    assert "every_day_7" not in earned(gap, EventFacts())


def test_a_partner_streak_counts_only_the_matches_with_that_partner():
    with_a = facts(["won"] * 3, partner=7)
    other = [
        MatchFacts(
            match_id=50,
            finished_at=START + timedelta(hours=5),
            day=START.date(),
            mode="online",
            rules="online",
            outcome="lost",
            partner_id=8,
        )
    ]
    more = [
        MatchFacts(
            match_id=60 + i,
            finished_at=START + timedelta(hours=6 + i),
            day=START.date(),
            mode="online",
            rules="online",
            outcome="won",
            partner_id=7,
        )
        for i in range(2)
    ]
    assert earned(with_a + other + more, EventFacts())["partner_streak_5"].match_id == 61


def test_a_stake_pot_is_a_stake_match_won():
    found = earned(facts(["won"], mode="stake"), EventFacts())
    assert "stake_pot" in found
    assert "stake_pot" not in earned(facts(["won"]), EventFacts())


def test_events_are_dated_by_their_first_moment():
    later, sooner = START + timedelta(days=3), START + timedelta(days=1)
    found = earned([], EventFacts(tournament_wins=(later, sooner), league_promotions=(sooner,)))
    assert found["tournament_won"].at == sooner
    assert found["league_promotion"].at == sooner
    assert found["tournament_won"].match_id is None


def test_the_record_tells_the_quintola_maker_and_the_capote_pair():
    # Hand 1: seat 1 makes a quintola; hand 2: seat 2 (pair 0) takes all five tricks.
    assert record_facts(RECORD, 0)["capote"] is True
    assert record_facts(RECORD, 2)["capote"] is True
    assert record_facts(RECORD, 1)["capote"] is False
    assert record_facts(RECORD, 1)["cuatrola_last_trick"] is False


def test_a_record_the_engine_cannot_replay_tells_nothing_more():
    broken = {**RECORD, "hands": [{**RECORD["hands"][0], "actions": ["quintola", "zz"]}]}
    assert not any(record_facts(broken, 1).values())
    assert not any(record_facts({"hands": [{"rules": "online"}]}, 1).values())


def test_a_match_stored_without_its_hands_tells_nothing_more():
    assert not any(record_facts({}, 0).values())
    assert not any(record_facts({"hands": []}, 3).values())


def _match_with(test):
    """The first engine match (random legal play, seeds from 0) one of whose hands
    passes `test`: its record and that hand's result."""
    import random

    from cuatrola.engine import Match

    for seed in range(5000):
        rng = random.Random(seed)
        engine = Match.new("online", seed=seed)
        while not engine.is_over:
            engine, _ = engine.apply(rng.choice(engine.legal_actions()), seat=engine.to_play)
        for hand in engine.hands:
            if hand.result is not None and test(hand.result):
                return engine.to_dict(), hand.result
    raise AssertionError("no such match")


def test_a_cuatrola_decided_by_the_fifth_trick_is_one_with_the_last_trick():
    record, result = _match_with(
        lambda r: r.contract == "cuatrola" and r.made and r.tricks_played == 5
    )
    declarer = result.declarer
    assert record_facts(record, declarer)["cuatrola_last_trick"] is True
    assert record_facts(record, (declarer + 1) % 4)["cuatrola_last_trick"] is False
