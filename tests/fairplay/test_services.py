"""The nightly screen: candidates, bounded and incremental analysis, the baseline,
the evidence and the flags, and the staff's decisions."""

from datetime import timedelta

import pytest
from django.contrib.admin.models import LogEntry
from django.utils import timezone

from economy.services import ledger_grant, pot_pay_out, stake_place
from fairplay import errors, services
from fairplay.models import (
    BaselineBand,
    CloseDecision,
    FlagMatch,
    FlagStatus,
    PairFlag,
    ScreenedMatch,
    ScreenPurpose,
)
from fairplay.services import Limits, flag_decide, flag_reopen, screen_run
from games.models import ActionSource, MatchAction
from tests.fairplay.test_admin import make_flag

pytestmark = pytest.mark.django_db


def limits(**overrides):
    return Limits.from_settings(**overrides)


def baseline(store, make_user, crafted, *, matches=4, hits=(True, False)):
    """Matches of eight other players, no two of whom sit together more than twice
    (never candidates), each seat's close decisions hitting half the time: the
    baseline's 50%."""
    p = [make_user(f"base{n}") for n in range(8)]
    seatings = [p[0:4], p[4:8], [p[0], p[4], p[1], p[5]], [p[2], p[6], p[3], p[7]]]
    stored = []
    for seating in seatings[:matches]:
        match = store(seating)
        crafted.set(match, {seat: list(hits) * 3 for seat in range(4)})
        stored.append(match)
    return stored


def test_pairs_who_often_sit_together_are_the_candidates_and_their_matches_screened(
    store, people, crafted
):
    a, b, c, d, e, f, g, _ = people
    together = [store([a, c, b, d]) for _ in range(3)]  # a·b partners, c·d partners
    store([a, e, f, g])  # a with e, f, g once: not candidates
    run = screen_run(limits=limits(baseline_matches=0))
    # a·b and c·d as partners; a·c, a·d, b·c, b·d as opponents.
    assert run.candidates == 6
    assert run.pair_matches == 3
    assert set(ScreenedMatch.objects.values_list("match_id", flat=True)) == {m.pk for m in together}
    assert set(crafted.calls) == {m.pk for m in together}


def test_only_rated_matches_in_the_window_count(store, people, crafted):
    a, b, c, d = people[:4]
    for _ in range(3):
        store([a, c, b, d], mode="friends")
        store([a, c, b, d], days_ago=200)
    store([a, c, b, d], mode="stake")
    store([a, c, b, d])
    run = screen_run(limits=limits(baseline_matches=0))
    assert run.candidates == 0


def test_a_pair_far_luckier_than_its_rating_band_is_flagged_with_its_matches(
    store, people, crafted, make_user
):
    a, b, c, d = people[:4]
    baseline(store, make_user, crafted)
    ours = []
    for _ in range(4):
        match = store([a, c, b, d])
        # a finds the whole deal's card at every close decision; b, c and d half the time.
        crafted.set(match, {0: [True] * 4, 2: [True, False], 1: [True, False], 3: [False, True]})
        ours.append(match)
    screen_run(limits=limits(baseline_matches=10))
    assert list(BaselineBand.objects.values_list("band", "decisions", "hits")) == [(1500, 96, 48)]
    flag = PairFlag.objects.get(user_a=a, user_b=b)
    assert flag.status == FlagStatus.OPEN
    assert flag.reasons == ["lucky"]
    assert flag.close_decisions == 24 and flag.lucky_hits == 20
    assert flag.lucky_expected == 12
    # a alone: 16 of 16 where 8 were expected, z = 8 / sqrt(16 * 0.25) = 4.
    assert flag.lucky_z_a == 4.0
    assert flag.lucky_z == pytest.approx(8 / (24 * 0.25) ** 0.5, abs=1e-3)
    assert flag.strength == 4.0
    assert flag.as_partners == 4
    shown = FlagMatch.objects.filter(flag=flag)
    assert {m.match_id for m in shown} == {m.pk for m in ours}
    assert {(m.close, m.hits) for m in shown} == {(6, 5)}
    # Their opponents, honest, are not flagged.
    assert not PairFlag.objects.filter(user_a=c, user_b=d).exists()


def test_without_a_baseline_lucky_guesses_are_not_scored(store, people, crafted):
    a, b, c, d = people[:4]
    for _ in range(4):
        crafted.set(store([a, c, b, d]), {0: [True] * 10})
    screen_run(limits=limits(baseline_matches=0))
    assert not PairFlag.objects.exists()


def test_running_the_night_again_analyses_nothing_again_and_flags_nobody_twice(
    store, people, crafted, make_user
):
    a, b, c, d = people[:4]
    baseline(store, make_user, crafted)
    for _ in range(4):
        crafted.set(store([a, c, b, d]), {0: [True] * 4, 2: [True, False]})
    first = screen_run(limits=limits(baseline_matches=10))
    screened = len(crafted.calls)
    second = screen_run(limits=limits(baseline_matches=10))
    assert len(crafted.calls) == screened  # no match analysed twice
    assert (first.flags_new, first.flags_updated) == (1, 0)
    assert (second.flags_new, second.flags_updated, second.pair_matches) == (0, 1, 0)
    assert PairFlag.objects.count() == 1
    assert FlagMatch.objects.count() == 4
    assert CloseDecision.objects.filter(match__in=ScreenedMatch.objects.values("match")).count()


def test_a_night_analyses_at_most_its_limits_and_the_next_night_goes_on(store, people, crafted):
    a, b, c, d, e, f, g, h = people
    for _ in range(5):
        store([a, c, b, d])
    for _ in range(3):
        store([e, g, f, h])
    night = limits(pair_matches=2, night_matches=3, baseline_matches=0)
    # Two a pair (a·b and c·d share theirs), three a night.
    nights = [screen_run(limits=night).pair_matches for _ in range(4)]
    assert nights == [3, 3, 2, 0]
    assert ScreenedMatch.objects.count() == 8


def test_the_pairs_with_the_fewest_matches_analysed_go_first(store, people, crafted):
    a, b, c, d, e, f, g, h = people
    first = [store([a, c, b, d]) for _ in range(3)]
    second = [store([e, g, f, h]) for _ in range(3)]
    night = limits(pair_matches=1, night_matches=2, baseline_matches=0)
    screen_run(limits=night)
    screen_run(limits=night)
    screened = set(ScreenedMatch.objects.values_list("match_id", flat=True))
    # Each night took one match of each table's pairs (a·b and c·d share theirs).
    assert len(screened & {m.pk for m in first}) == 2
    assert len(screened & {m.pk for m in second}) == 2


def test_the_baseline_is_sampled_outside_the_candidates_matches(store, people, crafted, make_user):
    a, b, c, d = people[:4]
    ours = {store([a, c, b, d]).pk for _ in range(3)}
    others = {m.pk for m in baseline(store, make_user, crafted)}
    run = screen_run(limits=limits(night_matches=0, baseline_matches=10))
    assert run.baseline_matches == 4
    sampled = set(
        ScreenedMatch.objects.filter(purpose=ScreenPurpose.BASELINE).values_list(
            "match_id", flat=True
        )
    )
    assert sampled == others and not sampled & ours
    assert not CloseDecision.objects.filter(baseline=False).exists()


def test_a_match_without_its_deal_is_recorded_and_never_tried_again(store, people):
    a, b, c, d = people[:4]
    match = store([a, c, b, d])
    match.hands.all().delete()
    assert services.match_screen(match_id=match.pk).error == "no deal stored"
    assert services.match_screen(match_id=match.pk) is None


def test_cards_a_bot_played_for_an_absent_player_are_not_screened(store, people, short_record):
    from coach.judge import decision_points

    a, b, c, d = people[:4]
    seat = next(p.seat for p in decision_points(short_record) if p.kind != "bid")
    everyone = store([a, c, b, d])
    services.match_screen(match_id=everyone.pk)
    absent = store([a, c, b, d])
    MatchAction.objects.filter(match=absent, seat=seat).update(source=ActionSource.BOT)
    services.match_screen(match_id=absent.pk)
    all_cards = ScreenedMatch.objects.get(match=everyone).decisions
    without = ScreenedMatch.objects.get(match=absent).decisions
    assert without < all_cards
    assert not CloseDecision.objects.filter(match=absent, seat=seat).exists()


def test_a_bot_seat_is_never_screened(store, people):
    a, b, c = people[:3]
    match = store([a, None, b, c])
    services.match_screen(match_id=match.pk)
    assert not CloseDecision.objects.filter(match=match, seat=1).exists()


def stake_table(store, seats, winners, stake=500):
    """A stake match: everyone staked `stake`, the pot went to `winners`."""
    match = store(seats, mode="stake")
    for user in seats:
        stake_place(user=user, table_id=match.table_id, amount=stake)
    pot_pay_out(table_id=match.table_id, winners=winners, match_id=match.pk)
    return match


def test_coins_moved_one_way_between_opponents_at_stake_tables_flag_the_pair(
    store, people, crafted
):
    a, b, c, d = people[:4]
    for user in (a, b, c, d):
        ledger_grant(user=user, amount=10_000, idempotency_key=f"test:{user.pk}")
    # a and b opponents at six stake tables; b loses every time.
    for _ in range(6):
        stake_table(store, [a, b, c, d], winners=[a, c])
    screen_run(limits=limits(baseline_matches=0))
    flag = PairFlag.objects.get(user_a=a, user_b=b)
    assert "dumping" in flag.reasons
    assert flag.stake_tables == 6
    assert flag.coins_a_to_b == -1500  # b paid a half its stake each time
    assert flag.one_sided == 1.0
    assert flag.dump_z == pytest.approx(6**0.5, abs=1e-3)
    assert {m.coins_a_to_b for m in flag.matches.all()} == {-250}
    # Partners share the pot: nothing moves between a and c.
    assert not PairFlag.objects.filter(user_a=a, user_b=c, reasons__contains=["dumping"]).exists()


def test_coins_won_and_lost_in_turn_flag_nobody(store, people, crafted, settings):
    a, b, c, d = people[:4]
    for user in (a, b, c, d):
        ledger_grant(user=user, amount=10_000, idempotency_key=f"test:{user.pk}")
    for turn in range(6):
        stake_table(store, [a, b, c, d], winners=[a, c] if turn % 2 else [b, d])
    screen_run(limits=limits(baseline_matches=0))
    assert not PairFlag.objects.exists()


def test_results_far_beyond_the_ratings_flag_the_pair(
    store, people, crafted, settings, short_record
):
    from cuatrola.engine import Match

    settings.FAIRPLAY_WINS_Z = 2.0
    a, b, c, d = people[:4]
    # a·b win all six (seated where the stored match's winners sat), as even players.
    winner = Match.from_dict(short_record).winner
    for _ in range(6):
        store([a, c, b, d] if winner == 0 else [c, a, d, b])
    screen_run(limits=limits(baseline_matches=0))
    flag = PairFlag.objects.get(user_a=a, user_b=b)
    assert flag.reasons == ["wins"]
    assert flag.partner_wins == 6 and flag.partner_expected == pytest.approx(3, abs=0.01)
    assert flag.partner_z == pytest.approx(6**0.5, abs=0.01)
    # a beat c all six times: that pair is flagged too (c lost to a).
    assert PairFlag.objects.get(user_a=a, user_b=c).versus_a_wins == 6


def test_a_dismissed_flag_stays_dismissed_until_its_evidence_grows(
    store, people, crafted, moderator, settings, make_user
):
    a, b, c, d = people[:4]
    baseline(store, make_user, crafted)
    for _ in range(4):
        crafted.set(store([a, c, b, d]), {0: [True] * 4})
    screen_run(limits=limits(baseline_matches=10))
    flag = PairFlag.objects.get(user_a=a, user_b=b)
    flag_decide(staff_user=moderator, flag_id=flag.pk, decision="dismissed", note="Friends.")
    for _ in range(2):
        crafted.set(store([a, c, b, d]), {0: [True] * 4})
    screen_run(limits=limits(baseline_matches=0))
    flag.refresh_from_db()
    assert flag.status == FlagStatus.DISMISSED  # 4.0 → 4.9: not 2 more
    for _ in range(4):
        crafted.set(store([a, c, b, d]), {0: [True] * 4})
    screen_run(limits=limits(baseline_matches=0))
    flag.refresh_from_db()
    assert flag.status == FlagStatus.OPEN
    assert flag.strength >= flag.decided_strength + settings.FAIRPLAY_REOPEN_STRENGTH


@pytest.fixture
def flag(people):
    return make_flag(*people[:2], strength=4.2)


def test_a_moderator_dismisses_or_confirms_a_flag_with_a_note_in_the_admin_log(flag, moderator):
    decided = flag_decide(
        staff_user=moderator, flag_id=flag.pk, decision="confirmed", note="  Same address.  "
    )
    assert decided.status == FlagStatus.CONFIRMED
    assert (decided.reviewed_by, decided.note, decided.decided_strength) == (
        moderator,
        "Same address.",
        4.2,
    )
    entry = LogEntry.objects.get(user=moderator)
    assert entry.object_id == str(flag.pk)
    assert "Same address." in entry.change_message
    reopened = flag_reopen(staff_user=moderator, flag_id=flag.pk, note="New evidence.")
    assert reopened.status == FlagStatus.OPEN
    assert LogEntry.objects.filter(user=moderator).count() == 2


@pytest.mark.parametrize(
    ("decision", "note", "error"),
    [
        ("dismissed", "", errors.NoteRequired),
        ("dismissed", "   ", errors.NoteRequired),
        ("banned", "why", errors.UnknownDecision),
        ("open", "why", errors.UnknownDecision),
        ("", "why", errors.UnknownDecision),
    ],
)
def test_a_decision_without_a_note_or_of_no_known_kind_is_refused(
    flag, moderator, decision, note, error
):
    with pytest.raises(error):
        flag_decide(staff_user=moderator, flag_id=flag.pk, decision=decision, note=note)
    flag.refresh_from_db()
    assert flag.status == FlagStatus.OPEN and not LogEntry.objects.exists()


def test_only_reviewers_decide_and_a_decided_flag_is_not_decided_again(flag, moderator, make_user):
    clerk = make_user("clerk", is_staff=True)
    with pytest.raises(errors.NotAllowed):
        flag_decide(staff_user=clerk, flag_id=flag.pk, decision="dismissed", note="No.")
    with pytest.raises(errors.NotAllowed):
        flag_reopen(staff_user=clerk, flag_id=flag.pk, note="No.")
    with pytest.raises(errors.NotDecided):
        flag_reopen(staff_user=moderator, flag_id=flag.pk, note="Open it.")
    flag_decide(staff_user=moderator, flag_id=flag.pk, decision="dismissed", note="Friends.")
    with pytest.raises(errors.AlreadyDecided):
        flag_decide(staff_user=moderator, flag_id=flag.pk, decision="confirmed", note="Cheats.")
    assert LogEntry.objects.count() == 1


def test_the_baseline_is_refreshed_from_the_recent_sampled_matches(
    store, people, crafted, make_user
):
    baseline(store, make_user, crafted, matches=2, hits=(True, True, False))
    screen_run(limits=limits(baseline_matches=10))
    assert list(BaselineBand.objects.values_list("decisions", "hits")) == [(72, 48)]
    ScreenedMatch.objects.update(screened_at=timezone.now() - timedelta(days=400))
    services.baseline_refresh()
    assert not BaselineBand.objects.exists()
