"""A tournament's life through the beat's tick: registration opened and closed, singles
paired, cancelled below the minimum, rounds seated and finished, no-shows, the finish
with prizes paid by rank, recurring instances; every step idempotent."""

from __future__ import annotations

from datetime import time, timedelta

import pytest

from economy.selectors import ledger_audit
from games.models import Match, MatchSeat, Mode, SeatKind, Table
from online.models import MatchLeaguePoints
from ratings.models import Rating
from tests.tournaments.conftest import (
    befriend,
    game_finish,
    games_in_play,
    play_all,
    tournament_escrow,
)
from tournaments import errors
from tournaments.models import (
    Entry,
    EntryState,
    Game,
    Pairing,
    Round,
    RoundState,
    Tournament,
    TournamentSchedule,
    TournamentState,
)
from tournaments.services import (
    game_record,
    schedules_create_next,
    tournament_advance,
    tournament_cancel,
    tournament_register,
    tournament_withdraw,
    tournaments_tick,
)
from tournaments.services.rounds import round_start_locked

pytestmark = pytest.mark.django_db


def register_pairs(tournament, cast) -> list[Entry]:
    entries = []
    for a, b in zip(cast[::2], cast[1::2], strict=True):
        befriend(a, b)
        entries.append(tournament_register(tournament_id=tournament.pk, user=a, partner=b))
    return entries


def to_start(tournament, clock):
    """Advance the clock to the start and tick: registration closes, round one starts."""
    clock.now = tournament.starts_at
    return tournaments_tick(now=clock())


def test_the_tick_opens_registration_on_time(make_tournament, clock):
    tournament = make_tournament(
        state=TournamentState.SCHEDULED, registration_opens_at=clock() + timedelta(minutes=5)
    )
    assert tournaments_tick(now=clock()) == {}
    clock.advance(5 * 60)
    assert tournaments_tick(now=clock()) == {tournament.pk: ["registration_opened"]}
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.REGISTRATION_OPEN


def test_singles_are_paired_by_rating_at_the_close_and_the_odd_one_is_refunded(
    players, make_tournament, clock, coins_of
):
    cast = players(5)
    for rating, user in zip((1700, 1600, 1500, 1400, 1300), cast, strict=True):
        Rating.objects.update_or_create(user=user, defaults={"value": rating})
    tournament = make_tournament(entry_fee=50, min_entries=2)
    for user in cast:
        tournament_register(tournament_id=tournament.pk, user=user)
    clock.now = tournament.registration_closes_at
    assert tournaments_tick(now=clock()) == {tournament.pk: ["registration_closed"]}
    teams = Entry.objects.filter(tournament=tournament, state=EntryState.REGISTERED)
    pairs = {frozenset(e.player_ids) for e in teams}
    assert pairs == {
        frozenset({cast[0].pk, cast[4].pk}),
        frozenset({cast[1].pk, cast[3].pk}),
    }
    left = Entry.objects.get(player_a=cast[2])
    assert left.state == EntryState.UNPAIRED and coins_of(cast[2]) == 1000
    assert tournament_escrow(tournament.pk) == 4 * 50
    assert all(e.rating == 1500 for e in teams)
    assert ledger_audit().violations == []


def test_a_tournament_below_its_minimum_is_cancelled_and_every_fee_refunded(
    players, make_tournament, clock, coins_of
):
    cast = players(4)
    tournament = make_tournament(entry_fee=100, min_entries=3)
    register_pairs(tournament, cast)
    clock.now = tournament.registration_closes_at
    tournaments_tick(now=clock())
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.CANCELLED
    assert tournament.cancel_reason == "too_few_entries"
    assert [coins_of(u) for u in cast] == [1000] * 4
    assert tournament_escrow(tournament.pk) == 0
    assert tournaments_tick(now=clock()) == {}  # nothing more, nothing twice
    assert ledger_audit().violations == []


def test_staff_cancel_refunds_every_fee_once(players, make_tournament, coins_of):
    cast = players(4)
    tournament = make_tournament(entry_fee=100)
    register_pairs(tournament, cast)
    tournament_cancel(tournament_id=tournament.pk)
    assert [coins_of(u) for u in cast] == [1000] * 4
    with pytest.raises(errors.TournamentNotCancellable):
        tournament_cancel(tournament_id=tournament.pk)
    assert ledger_audit().violations == []


def test_round_one_seats_every_pair_at_a_rated_tournament_table(players, make_tournament, clock):
    cast = players(8)
    tournament = make_tournament()
    entries = register_pairs(tournament, cast)
    assert to_start(tournament, clock) == {
        tournament.pk: ["registration_closed", "round_1_started"]
    }
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.RUNNING and tournament.current_round == 1
    pairings = list(Pairing.objects.filter(tournament=tournament))
    assert len(pairings) == 2
    for pairing in pairings:
        game = Game.objects.get(pairing=pairing)
        assert game.table.mode == Mode.TOURNAMENT and game.match is not None
        seats = {s.position: s.user_id for s in game.table.seats.all()}
        by_pk = {e.pk: e for e in entries}
        assert [seats[0], seats[2]] == by_pk[pairing.entry_a_id].player_ids
        assert [seats[1], seats[3]] == by_pk[pairing.entry_b_id].player_ids


def test_running_the_tick_again_never_starts_a_round_twice(players, make_tournament, clock):
    cast = players(8)
    tournament = make_tournament()
    register_pairs(tournament, cast)
    to_start(tournament, clock)
    for _ in range(3):
        assert tournaments_tick(now=clock()) == {}
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert Table.objects.filter(mode=Mode.TOURNAMENT).count() == 2
    with pytest.raises(errors.RoundAlreadyStarted):
        round_start_locked(tournament, 1, clock())
    with pytest.raises(errors.RoundNotDue):
        round_start_locked(tournament, 2, clock())


def test_a_result_is_recorded_once_with_victory_points(players, make_tournament, clock):
    cast = players(4)
    tournament = make_tournament()
    register_pairs(tournament, cast)
    to_start(tournament, clock)
    (game,) = games_in_play(tournament)
    game_finish(game.table_id, score_a=21, score_b=15)
    pairing = Pairing.objects.get(pk=game.pairing_id)
    assert (pairing.points_a, pairing.points_b) == (21, 15)
    assert (pairing.vp_a, pairing.vp_b) == (13, 7)
    assert pairing.winner_id == pairing.entry_a_id
    game.refresh_from_db()
    assert not game_record(table=game.table, match=game.match)  # a replay: nothing
    pairing.refresh_from_db()
    assert (pairing.vp_a, pairing.vp_b) == (13, 7)


def test_tournament_matches_are_rated_and_count_for_the_league_as_online(
    players, make_tournament, clock
):
    cast = players(4)
    tournament = make_tournament()
    register_pairs(tournament, cast)
    to_start(tournament, clock)
    (game,) = games_in_play(tournament)
    game_finish(game.table_id, score_a=21, score_b=3)
    assert Rating.objects.filter(user__in=cast).count() == 4
    assert MatchLeaguePoints.objects.filter(match_id=game.match_id, points__gt=0).count() == 4
    assert MatchSeat.objects.filter(match_id=game.match_id, is_bot=False).count() == 4


def test_a_whole_swiss_with_a_bye_plays_every_round_and_pays_the_pool_by_rank(
    players, make_tournament, clock, coins_of
):
    cast = players(10)  # five pairs: a bye each round
    tournament = make_tournament(rounds=3, entry_fee=100, prize_shares=[500, 300, 200])
    register_pairs(tournament, cast)
    to_start(tournament, clock)
    for number in (1, 2, 3):
        round_ = Round.objects.get(tournament=tournament, number=number)
        byes = Pairing.objects.filter(round=round_, entry_b__isnull=True)
        assert byes.count() == 1
        bye_seats = Game.objects.get(pairing=byes.get()).table.seats.all()
        assert sorted(s.kind for s in bye_seats) == [SeatKind.BOT] * 2 + [SeatKind.HUMAN] * 2
        assert play_all(tournament, margin=6 + number) == 3
        done = tournaments_tick(now=clock())
        assert done[tournament.pk][-1] in (f"round_{number + 1}_paired", "finished")
        clock.advance(tournament.pause_minutes * 60)
        tournaments_tick(now=clock())
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.FINISHED
    assert Round.objects.filter(tournament=tournament, state=RoundState.FINISHED).count() == 3
    teams = Entry.objects.filter(tournament=tournament).order_by("rank", "pk")
    assert sorted(e.rank for e in teams)[0] == 1
    assert sum(e.prize_coins for e in teams) == 5 * 2 * 100
    assert sum(coins_of(u) for u in cast) >= 10 * 1000  # match rewards on top
    assert tournament_escrow(tournament.pk) == 0
    byes_had = Pairing.objects.filter(tournament=tournament, entry_b__isnull=True)
    assert len({p.entry_a_id for p in byes_had}) == 3  # nobody has two byes
    for _ in range(2):
        assert tournaments_tick(now=clock()) == {}  # never paid twice
    assert ledger_audit().violations == []


def test_a_knockout_gives_byes_to_the_top_seeds_and_pays_the_champions(
    players, make_tournament, clock, coins_of
):
    cast = players(12)  # six pairs: a bracket of eight, two byes
    ratings = [2000, 1990, 1900, 1890, 1800, 1790, 1700, 1690, 1600, 1590, 1500, 1490]
    for rating, user in zip(ratings, cast, strict=True):
        Rating.objects.update_or_create(user=user, defaults={"value": rating})
    tournament = make_tournament(format="knockout", entry_fee=100, prize_shares=[1000])
    entries = register_pairs(tournament, cast)
    to_start(tournament, clock)
    first = list(Pairing.objects.filter(round__tournament=tournament, round__number=1))
    byes = [p for p in first if p.entry_b_id is None]
    assert sorted(p.entry_a_id for p in byes) == sorted(e.pk for e in entries[:2])
    assert all(p.winner_id == p.entry_a_id for p in byes)
    for _round in (1, 2, 3):
        play_all(tournament)  # team A (the higher seed) wins every tie
        tournaments_tick(now=clock())
        clock.advance(tournament.pause_minutes * 60)
        tournaments_tick(now=clock())
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.FINISHED
    champion = Entry.objects.get(tournament=tournament, rank=1)
    assert champion.pk == entries[0].pk and champion.prize_coins == 1200
    runner_up = Entry.objects.get(tournament=tournament, rank=2)
    assert runner_up.eliminated_in == 3
    assert ledger_audit().violations == []


def test_a_best_of_three_tie_plays_until_a_pair_wins_two(players, make_tournament, clock):
    cast = players(4)
    tournament = make_tournament(format="knockout", best_of=3, entry_fee=0)
    register_pairs(tournament, cast)
    to_start(tournament, clock)
    play_all(tournament, winner_a=True)
    assert tournaments_tick(now=clock()) == {tournament.pk: ["next_games"]}
    play_all(tournament, winner_a=False)
    tournaments_tick(now=clock())
    play_all(tournament, winner_a=False)
    pairing = Pairing.objects.get(tournament=tournament)
    assert (pairing.wins_a, pairing.wins_b) == (1, 2)
    assert pairing.winner_id == pairing.entry_b_id
    assert Game.objects.filter(pairing=pairing).count() == 3
    tournaments_tick(now=clock())
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.FINISHED


def test_a_team_that_does_not_show_loses_its_knockout_tie(
    players, make_tournament, clock, settings
):
    settings.ABSENCE_CONNECT_GRACE_SECONDS = 0
    cast = players(4)
    tournament = make_tournament(format="knockout", entry_fee=0)
    register_pairs(tournament, cast)
    to_start(tournament, clock)
    (game,) = games_in_play(tournament)
    # Team A's two players never connect: games' sweep marks them absent.
    for position in (0, 2):
        seat = game.table.seats.get(position=position)
        seat.absent_since = clock()
        seat.save()
    clock.advance(30)
    game.match.started_at = clock() - timedelta(seconds=20)
    Match.objects.filter(pk=game.match_id).update(started_at=game.match.started_at)
    assert tournaments_tick(now=clock()) == {tournament.pk: ["no_shows"]}
    game_finish(game.table_id, score_a=21, score_b=10)  # the bots won for them
    pairing = Pairing.objects.get(pk=game.pairing_id)
    assert pairing.no_show_a and pairing.winner_id == pairing.entry_b_id


def test_a_player_busy_at_another_table_gets_a_bot_for_that_game(players, make_tournament, clock):
    from games.services import table_create_practice

    cast = players(4)
    tournament = make_tournament(entry_fee=0)
    register_pairs(tournament, cast)
    table_create_practice(user=cast[0], rules="online", bot_level="easy")
    to_start(tournament, clock)
    (game,) = games_in_play(tournament)
    seat = game.table.seats.get(position=0)
    assert seat.kind == SeatKind.BOT and seat.user_id is None


def test_a_free_tournament_pays_its_xp_pool_by_rank(players, make_tournament, clock, xp_of):
    cast = players(4)
    tournament = make_tournament(entry_fee=0, xp_pool=300, rounds=1, prize_shares=[1000])
    register_pairs(tournament, cast)
    to_start(tournament, clock)
    before = [xp_of(u) for u in cast]
    play_all(tournament)
    tournaments_tick(now=clock())
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.FINISHED
    gained = [xp_of(u) - b for u, b in zip(cast, before, strict=True)]
    winner = Entry.objects.get(tournament=tournament, rank=1)
    assert winner.prize_xp == 300
    assert sum(gained[i] for i, u in enumerate(cast) if u.pk in winner.player_ids) >= 300
    assert ledger_audit().violations == []


def test_a_recurring_tournament_creates_its_next_saturday_once(db, clock):
    schedule = TournamentSchedule.objects.create(
        name="Saturday Swiss", weekday=5, local_time=time(18, 0)
    )
    made = schedules_create_next(now=clock())
    assert len(made) == 1
    tournament = made[0]
    local = tournament.starts_at.astimezone(__import__("zoneinfo").ZoneInfo("Europe/Madrid"))
    assert local.weekday() == 5 and (local.hour, local.minute) == (18, 0)
    assert tournament.schedule == schedule and tournament.state == TournamentState.SCHEDULED
    assert schedules_create_next(now=clock()) == []
    assert Tournament.objects.filter(schedule=schedule).count() == 1


def test_advancing_an_unknown_or_finished_tournament_does_nothing(db, clock):
    assert tournament_advance(tournament_id=123456, now=clock()).steps == []


def test_withdrawing_a_pair_made_of_two_singles_refunds_each_single(
    players, make_tournament, clock, coins_of
):
    ana, bea, cai, dan = players(4)
    tournament = make_tournament(entry_fee=100, min_entries=1)
    for user in (ana, bea, cai, dan):
        tournament_register(tournament_id=tournament.pk, user=user)
    clock.now = tournament.registration_closes_at
    tournaments_tick(now=clock())
    entry = Entry.objects.get(tournament=tournament, state=EntryState.REGISTERED, player_a=ana)
    partner = entry.player_b
    tournament_withdraw(tournament_id=tournament.pk, user=partner, now=clock())
    assert coins_of(ana) == 1000 and coins_of(partner) == 1000
    assert sorted(coins_of(u) for u in (bea, cai, dan) if u != partner) == [900, 900]
    assert ledger_audit().violations == []


def test_a_tournament_cancelled_while_running_lets_its_games_finish_for_nothing(
    players, make_tournament, clock, coins_of
):
    cast = players(4)
    tournament = make_tournament(entry_fee=100)
    register_pairs(tournament, cast)
    to_start(tournament, clock)
    tournament_cancel(tournament_id=tournament.pk)
    (game,) = games_in_play(tournament)
    game_finish(game.table_id, score_a=21, score_b=2)
    pairing = Pairing.objects.get(pk=game.pairing_id)
    assert pairing.state == "playing" and pairing.vp_a == 0
    assert tournament_escrow(tournament.pk) == 0
    assert tournaments_tick(now=clock()) == {}
    assert ledger_audit().violations == []


def test_a_team_that_does_not_show_scores_nothing_in_a_swiss_round(
    players, make_tournament, clock, settings
):
    settings.ABSENCE_CONNECT_GRACE_SECONDS = 0
    cast = players(4)
    tournament = make_tournament(entry_fee=0)
    register_pairs(tournament, cast)
    to_start(tournament, clock)
    (game,) = games_in_play(tournament)
    for position in (1, 3):
        seat = game.table.seats.get(position=position)
        seat.absent_since = clock()
        seat.save()
    clock.advance(30)
    Match.objects.filter(pk=game.match_id).update(started_at=clock() - timedelta(seconds=20))
    tournaments_tick(now=clock())
    game_finish(game.table_id, score_a=10, score_b=21)  # the bots won for the absent team
    pairing = Pairing.objects.get(pk=game.pairing_id)
    assert pairing.no_show_b and (pairing.vp_a, pairing.vp_b) == (12, 0)
    assert pairing.winner_id == pairing.entry_a_id
