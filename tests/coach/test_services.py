"""The coach's services: asking for an analysis, running it once, practising."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection

from coach import errors, services
from coach.judge import decision_points
from coach.models import Analysis, AnalysisStatus, Decision, Practice, SeatSummary
from coach.selectors import practice_attempt
from cuatrola.engine import seat_view
from economy.models import Product
from economy.services import ledger_grant, product_purchase
from games import errors as game_errors
from games import services as games_services
from games.models import Match, MatchStatus, Mode, Seat, Table
from games.state import engine_match, record_from_log
from tests.coach.conftest import QUINTOLA_FAILS, failing_quintola_deals, store_one_hand
from tests.history.conftest import store_finished

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 6, 1, 10, 0, tzinfo=UTC)  # 12:00 in Madrid


def give_vip(user, now=NOON):
    ledger_grant(user=user, amount=5000, idempotency_key=f"vip-coins-{user.pk}")
    product_purchase(
        user=user, product=Product.objects.get(code="vip-30d"), idempotency_key="vip", now=now
    )


# --- asking ---------------------------------------------------------------------------


def test_a_player_asks_and_the_analysis_is_queued_once(
    played, player, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        first = services.analysis_request(user=player, match_id=played.pk, now=NOON)
    with django_capture_on_commit_callbacks(execute=True):
        again = services.analysis_request(user=player, match_id=played.pk, now=NOON)
    assert again.pk == first.pk and first.status == AnalysisStatus.QUEUED
    assert queued == [first.pk]  # requested twice: one task
    assert Analysis.objects.count() == 1


def test_the_partner_asking_too_gets_the_same_analysis(
    played, player, partner, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        mine = services.analysis_request(user=player, match_id=played.pk, now=NOON)
        theirs = services.analysis_request(user=partner, match_id=played.pk, now=NOON)
    assert mine.pk == theirs.pk and queued == [mine.pk]
    # Only the one who asked first spent an analysis of the day.
    assert services.analyses_used_today(user=partner, now=NOON) == 0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_requests_at_once_make_one_analysis_and_one_task(played, player, partner, queued):
    barrier = threading.Barrier(2)
    results, failures = [], []

    def ask(user):
        try:
            barrier.wait()
            results.append(services.analysis_request(user=user, match_id=played.pk).pk)
        except Exception as error:  # reported below: a thread's failure must not vanish
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=ask, args=(u,)) for u in (player, partner)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures
    assert len(set(results)) == 1 and Analysis.objects.count() == 1
    assert queued == results[:1]


def test_only_a_player_of_the_match_or_staff_may_ask(
    played, stranger, staff_user, queued, django_capture_on_commit_callbacks
):
    with pytest.raises(errors.NotYourMatch):
        services.analysis_request(user=stranger, match_id=played.pk, now=NOON)
    assert not Analysis.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        analysis = services.analysis_request(user=staff_user, match_id=played.pk, now=NOON)
    assert queued == [analysis.pk]


@pytest.mark.parametrize("match_id", [999999, "1", None, True, 1.0])
def test_an_unknown_or_malformed_match_is_refused(player, match_id):
    with pytest.raises(errors.MatchNotFound):
        services.analysis_request(user=player, match_id=match_id, now=NOON)
    assert not Analysis.objects.exists()


def test_a_match_still_in_play_is_not_analysed(player):
    table = games_services.table_create_practice(user=player, rules="online", bot_level="easy")
    match = Match.objects.get(table=table)
    with pytest.raises(errors.MatchNotFound):
        services.analysis_request(user=player, match_id=match.pk, now=NOON)


def test_a_practised_position_is_not_analysed(player):
    deals, _ = failing_quintola_deals()
    match = store_one_hand([player, None, None, None], deals, QUINTOLA_FAILS, mode=Mode.POSITION)
    with pytest.raises(errors.NotAnalysable):
        services.analysis_request(user=player, match_id=match.pk, now=NOON)


def test_three_analyses_a_day_then_a_refusal_that_writes_nothing(player, queued):
    matches = store_finished([player, None, None, None], 5)
    for match in matches[:3]:
        services.analysis_request(user=player, match_id=match.pk, now=NOON)
    with pytest.raises(errors.DailyLimitReached) as refused:
        services.analysis_request(user=player, match_id=matches[3].pk, now=NOON)
    assert refused.value.params == {"limit": 3}
    assert Analysis.objects.count() == 3
    # Asking again for one already asked for costs nothing and is not refused.
    services.analysis_request(user=player, match_id=matches[0].pk, now=NOON)
    # The next day in Madrid (00:30 there is 22:30 UTC the evening before).
    tomorrow = datetime(2026, 6, 1, 22, 30, tzinfo=UTC)
    services.analysis_request(user=player, match_id=matches[3].pk, now=tomorrow)
    assert Analysis.objects.count() == 4


def test_an_active_vip_pass_makes_analyses_unlimited(player, queued):
    give_vip(player)
    matches = store_finished([player, None, None, None], 5)
    for match in matches:
        services.analysis_request(user=player, match_id=match.pk, now=NOON + timedelta(hours=1))
    assert Analysis.objects.count() == 5
    # Once the pass has run out, the limit is back.
    later = NOON + timedelta(days=31)
    more = store_finished([player, None, None, None], 4, finished_at=later)
    for match in more[:3]:
        services.analysis_request(user=player, match_id=match.pk, now=later)
    with pytest.raises(errors.DailyLimitReached):
        services.analysis_request(user=player, match_id=more[3].pk, now=later)


# --- running --------------------------------------------------------------------------


def test_the_analysis_judges_every_decision_with_a_choice_and_sums_up_each_seat(played, player):
    analysis = services.analysis_request(user=player, match_id=played.pk, now=NOON)
    done = services.analysis_run(analysis_id=analysis.pk)
    assert done is not None and done.status == AnalysisStatus.DONE
    points = decision_points(record_from_log(played))
    stored = list(Decision.objects.filter(analysis=analysis))
    assert [d.number for d in stored] == [p.number for p in points]
    assert done.decisions_total == done.decisions_done == len(points)
    for d in stored:
        assert d.action in d.values and d.best in d.values
        assert d.loss == pytest.approx(max(d.values.values()) - d.values[d.action], abs=1e-6)
        assert d.mark in ("", "inaccuracy", "mistake", "blunder")
    seats = list(SeatSummary.objects.filter(analysis=analysis).order_by("position"))
    assert [s.position for s in seats] == [0, 1, 2, 3]
    assert [s.user_id for s in seats] == [player.pk, None, seats[2].user_id, None]
    for s in seats:  # bots are summed up too
        mine = [d for d in stored if d.seat == s.position]
        assert s.judged == len(mine) == s.bids + s.leads + s.follows
        assert s.lost_bids == pytest.approx(sum(d.loss for d in mine if d.kind == "bid"), 1e-3)


def test_a_finished_analysis_is_never_recomputed(played, player, monkeypatch):
    analysis = services.analysis_request(user=player, match_id=played.pk, now=NOON)
    services.analysis_run(analysis_id=analysis.pk)
    judged = []
    monkeypatch.setattr(services, "judge", lambda **kw: judged.append(kw))
    assert services.analysis_run(analysis_id=analysis.pk) is None
    services.analysis_request(user=player, match_id=played.pk, now=NOON)
    assert judged == []


def test_an_analysis_cut_short_resumes_after_its_last_stored_decision(played, player, monkeypatch):
    analysis = services.analysis_request(user=player, match_id=played.pk, now=NOON)
    real = services.judge
    calls = []

    def dies_at_the_fifth(**kw):
        calls.append(kw["action"])
        if len(calls) == 5:
            raise RuntimeError("the worker died")
        return real(**kw)

    monkeypatch.setattr(services, "judge", dies_at_the_fifth)
    with pytest.raises(RuntimeError):
        services.analysis_run(analysis_id=analysis.pk, now=NOON)
    assert Decision.objects.filter(analysis=analysis).count() == 4
    analysis.refresh_from_db()
    assert analysis.status == AnalysisStatus.RUNNING and analysis.decisions_done == 4
    # Running elsewhere and not stale: a second worker leaves it alone.
    assert services.analysis_run(analysis_id=analysis.pk, now=NOON) is None
    monkeypatch.setattr(services, "judge", real)
    stale = NOON + timedelta(hours=1)
    assert services.analysis_run(analysis_id=analysis.pk, now=stale).status == "done"
    total = len(decision_points(record_from_log(played)))
    assert Decision.objects.filter(analysis=analysis).count() == total


def test_a_failed_analysis_is_queued_again_when_asked(
    played, player, queued, monkeypatch, django_capture_on_commit_callbacks
):
    from cuatrola.bots import BotError

    analysis = services.analysis_request(user=player, match_id=played.pk, now=NOON)

    def refuses(**kw):
        raise BotError("no deal fits this view", code="no_consistent_deal")

    monkeypatch.setattr(services, "judge", refuses)
    failed = services.analysis_run(analysis_id=analysis.pk)
    assert failed.status == AnalysisStatus.FAILED and "no deal" in failed.error
    with django_capture_on_commit_callbacks(execute=True):
        again = services.analysis_request(user=player, match_id=played.pk, now=NOON)
    assert again.status == AnalysisStatus.QUEUED and queued[-1] == analysis.pk


def test_the_analysis_never_reads_a_hidden_hand(player, make_user):
    """The same match under two real deals that differ only in cards seat 0 never
    sees: seat 0's decisions are judged the same, to the last digit."""
    first, second = failing_quintola_deals()
    other = make_user("otra")
    a = store_one_hand([player, None, None, None], first, QUINTOLA_FAILS)
    b = store_one_hand([other, None, None, None], second, QUINTOLA_FAILS)
    assert a.hands.get().deal != b.hands.get().deal
    judged = {}
    for user, match in ((player, a), (other, b)):
        analysis = services.analysis_request(user=user, match_id=match.pk, now=NOON)
        services.analysis_run(analysis_id=analysis.pk, samples=60)
        judged[match.pk] = {
            (d.number, d.seat): (d.action, d.best, d.values, d.loss, d.error, d.mark)
            for d in Decision.objects.filter(analysis=analysis)
        }
    seat_0 = {k: v for k, v in judged[a.pk].items() if k[1] == 0}
    assert seat_0 and seat_0 == {k: v for k, v in judged[b.pk].items() if k[1] == 0}
    # Seat 0 bid the quintola (best) and then led the ace of cups: a blunder.
    assert [v[-1] for _k, v in sorted(seat_0.items())] == ["", "blunder"]


# --- practising -----------------------------------------------------------------------


def play_out(table, user) -> None:
    """The bots move; on the person's turn, their first legal action; to the end."""
    while True:
        while games_services.match_bot_move(table_id=table.pk):
            pass
        match = Match.objects.get(table=table)
        if match.status != MatchStatus.PLAYING:
            return
        legal = engine_match(match).legal_actions()
        games_services.match_play(
            user=user, table_id=table.pk, action=legal[0], version=match.version
        )


@pytest.fixture
def blunder(player):
    first, _ = failing_quintola_deals()
    match = store_one_hand([player, None, None, None], first, QUINTOLA_FAILS)
    analysis = services.analysis_request(user=player, match_id=match.pk, now=NOON)
    services.analysis_run(analysis_id=analysis.pk, samples=60)
    return Decision.objects.get(analysis=analysis, mark="blunder")


def test_practise_opens_the_position_from_your_seat_against_the_bots(blunder, player):
    table = services.practice_start(user=player, decision_id=blunder.pk)
    assert table.mode == Mode.POSITION and table.bot_level == "hard"
    seats = list(Seat.objects.filter(table=table).order_by("position"))
    assert [s.kind for s in seats] == ["human", "bot", "bot", "bot"]
    match = Match.objects.get(table=table)
    assert match.status == MatchStatus.PLAYING and match.last_hand == 1
    engine = engine_match(match)
    # Where you were: the bids made, your turn to lead, your cards.
    original = decision_points(record_from_log(blunder.analysis.match))
    view = next(p.view for p in original if p.number == blunder.number)
    mine = seat_view(engine, 0)["hand"]
    assert {**mine, "hand": sorted(mine["hand"])} == {
        **view["hand"],
        "hand": sorted(view["hand"]["hand"]),
    }
    practice = Practice.objects.get(table=table)
    assert practice.number == match.version + 1
    assert practice_attempt(practice) is None


def test_the_choice_made_at_the_position_is_judged_against_the_threshold(blunder, player):
    table = services.practice_start(user=player, decision_id=blunder.pk)
    practice = Practice.objects.get(table=table)
    match = Match.objects.get(table=table)
    games_services.match_play(user=player, table_id=table.pk, action="1c", version=match.version)
    attempt = practice_attempt(practice)
    assert attempt is not None and not attempt.found and attempt.loss >= 1.0
    # Played out to the end, the table offers to deal the position again.
    play_out(table, player)
    table.refresh_from_db()
    assert table.status == "finished"
    again = games_services.table_rematch(user=player, table_id=table.pk)
    assert again.pk != table.pk and again.mode == Mode.POSITION
    match = Match.objects.get(table=again)
    games_services.match_play(user=player, table_id=again.pk, action="1o", version=match.version)
    found = practice_attempt(Practice.objects.get(table=again))
    assert found is not None and found.found and found.loss == 0


def test_only_your_own_decisions_can_be_practised(blunder, stranger, player):
    with pytest.raises(errors.NotYourDecision):
        services.practice_start(user=stranger, decision_id=blunder.pk)
    with pytest.raises(errors.DecisionNotFound):
        services.practice_start(user=player, decision_id=999999)
    with pytest.raises(errors.DecisionNotFound):
        services.practice_start(user=player, decision_id="1")
    assert not Table.objects.filter(mode=Mode.POSITION).exists()


def test_practising_while_at_another_table_is_refused_and_writes_nothing(blunder, player):
    games_services.table_create_practice(user=player, rules="online", bot_level="easy")
    with pytest.raises(game_errors.AlreadyAtTable):
        services.practice_start(user=player, decision_id=blunder.pk)
    assert not Practice.objects.exists()
    assert not Table.objects.filter(mode=Mode.POSITION).exists()


def test_a_practised_position_stays_out_of_the_history(blunder, player):
    from history.models import PlayerMatch

    before = PlayerMatch.objects.count()
    table = services.practice_start(user=player, decision_id=blunder.pk)
    match = Match.objects.get(table=table)
    games_services.match_play(user=player, table_id=table.pk, action="1o", version=match.version)
    play_out(table, player)
    assert Match.objects.get(table=table).status == MatchStatus.FINISHED
    assert PlayerMatch.objects.count() == before
