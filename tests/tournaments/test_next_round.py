"""The next round paired at the previous round's end (docs/tournaments.md, "Rounds"):
its tables known and told during the pause, seated at its start, never paired or
seated twice; a team absent at its paired table scored as the format says; the
notice and the table's panel name the next table."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import Q

from games.models import Match, Mode, Table
from notifications.models import Notification
from tests.tournaments.conftest import befriend, game_finish, games_in_play, play_all
from tournaments import errors
from tournaments.models import (
    Entry,
    Game,
    Pairing,
    PairingState,
    Round,
    RoundState,
    TournamentState,
)
from tournaments.selectors import table_tournament, tournament_page
from tournaments.services import (
    tournament_advance,
    tournament_cancel,
    tournament_register,
    tournament_withdraw,
    tournaments_tick,
)
from tournaments.services.rounds import round_pair_locked, round_start_locked

pytestmark = pytest.mark.django_db


def register_pairs(tournament, cast) -> list[Entry]:
    entries = []
    for a, b in zip(cast[::2], cast[1::2], strict=True):
        befriend(a, b)
        entries.append(tournament_register(tournament_id=tournament.pk, user=a, partner=b))
    return entries


def started(make_tournament, players, clock, *, teams=4, **fields):
    tournament = make_tournament(**fields)
    cast = players(2 * teams)
    entries = register_pairs(tournament, cast)
    clock.now = tournament.starts_at
    tournaments_tick(now=clock())
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.RUNNING
    return tournament, cast, entries


def round_of(tournament, number) -> Round:
    return Round.objects.get(tournament=tournament, number=number)


def test_the_tick_that_ends_a_round_pairs_the_next_without_seating_it(
    make_tournament, players, clock
):
    tournament, _cast, _entries = started(make_tournament, players, clock)
    play_all(tournament)
    done = tournaments_tick(now=clock())
    assert done[tournament.pk] == ["round_1_finished", "round_2_paired"]
    second = round_of(tournament, 2)
    assert second.state == RoundState.PAIRED
    assert second.started_at is None and second.paired_at == clock()
    ties = Pairing.objects.filter(round=second)
    assert ties.count() == 2
    assert set(ties.values_list("state", flat=True)) == {PairingState.PAIRED}
    assert not Game.objects.filter(pairing__round=second).exists()
    assert Table.objects.filter(mode=Mode.TOURNAMENT).count() == 2  # round one's only
    tournament.refresh_from_db()
    assert tournament.current_round == 1


def test_the_paired_round_is_seated_at_its_start_with_the_tables_told(
    make_tournament, players, clock
):
    tournament, _cast, _entries = started(make_tournament, players, clock)
    play_all(tournament)
    tournaments_tick(now=clock())
    told = {
        (p.number, p.entry_a_id, p.entry_b_id)
        for p in Pairing.objects.filter(round__tournament=tournament, round__number=2)
    }
    clock.advance(60)
    assert tournaments_tick(now=clock()) == {}  # the pause is not over
    clock.advance(tournament.pause_minutes * 60)
    assert tournaments_tick(now=clock()) == {tournament.pk: ["round_2_started"]}
    second = round_of(tournament, 2)
    assert second.state == RoundState.PLAYING and second.started_at == clock()
    seated = {
        (p.number, p.entry_a_id, p.entry_b_id)
        for p in Pairing.objects.filter(round=second, state=PairingState.PLAYING)
    }
    assert seated == told  # the tables told are the tables played
    assert len(games_in_play(tournament)) == 2
    tournament.refresh_from_db()
    assert tournament.current_round == 2


def test_a_round_is_never_paired_or_seated_twice(make_tournament, players, clock):
    from django.db import transaction

    tournament, _cast, _entries = started(make_tournament, players, clock)
    play_all(tournament)
    tournaments_tick(now=clock())
    for _ in range(3):
        assert tournament_advance(tournament_id=tournament.pk, now=clock()).steps == []
    with transaction.atomic(), pytest.raises(errors.RoundAlreadyStarted):
        round_pair_locked(tournament, 2, clock(), starts_at=clock())
    clock.advance(tournament.pause_minutes * 60)
    tournaments_tick(now=clock())
    with transaction.atomic(), pytest.raises(errors.RoundAlreadyStarted):
        round_start_locked(tournament, 2, clock())
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert Pairing.objects.filter(round__number=2, round__tournament=tournament).count() == 2
    assert Game.objects.filter(pairing__round__number=2).count() == 2


def test_every_player_is_told_their_next_table_once(make_tournament, players, clock):
    tournament, cast, _entries = started(make_tournament, players, clock)
    play_all(tournament)
    tournaments_tick(now=clock())
    tournaments_tick(now=clock())
    key = f"tournament-round:{tournament.pk}:2"
    told = Notification.objects.filter(dedup_key=key)
    assert sorted(told.values_list("user_id", flat=True)) == sorted(u.pk for u in cast)
    tables = dict(
        Pairing.objects.filter(round__tournament=tournament, round__number=2).values_list(
            "entry_a__player_a_id", "number"
        )
    )
    for note in told.filter(user_id__in=tables):
        assert note.params["table"] == tables[note.user_id]
        assert note.params["round"] == 2
        assert note.link == f"/tournaments/{tournament.pk}/"
    from django.utils import translation

    from notifications.kinds import sentence

    one = told.first()
    with translation.override("en"):
        assert f"table {one.params['table']}" in sentence(one.kind, one.params)


def test_the_notice_and_the_table_panel_name_the_next_table(make_tournament, players, clock):
    tournament, cast, entries = started(make_tournament, players, clock)
    mine = Q(entry_a=entries[0]) | Q(entry_b=entries[0])
    old_game = Game.objects.get(mine_game(entries[0]), pairing__round__number=1)
    play_all(tournament)
    tournaments_tick(now=clock())
    next_tie = Pairing.objects.get(mine, round__tournament=tournament, round__number=2)
    reader = cast[0]
    page = tournament_page(tournament=tournament, user_id=reader.pk)
    assert page.notice is not None
    assert (page.notice.kind, page.notice.round, page.notice.table) == ("next", 2, next_tie.number)
    assert page.notice.at is not None
    assert [r.number for r in page.rounds] == [1]  # the paired round is not drawn yet
    panel = table_tournament(table_id=old_game.table_id, user_id=reader.pk)
    assert panel is not None and panel.next_table == next_tie.number
    anonymous = table_tournament(table_id=old_game.table_id, user_id=None)
    assert anonymous is not None and anonymous.next_table is None


def mine_game(entry) -> Q:
    return Q(pairing__entry_a=entry) | Q(pairing__entry_b=entry)


def test_withdrawing_between_the_pairing_and_the_start_is_refused_and_the_pairing_stands(
    make_tournament, players, clock
):
    tournament, cast, _entries = started(make_tournament, players, clock)
    play_all(tournament)
    tournaments_tick(now=clock())
    with pytest.raises(errors.WithdrawAfterStart):
        tournament_withdraw(tournament_id=tournament.pk, user=cast[0])
    clock.advance(tournament.pause_minutes * 60)
    tournaments_tick(now=clock())
    assert Pairing.objects.filter(round__number=2, state=PairingState.PLAYING).count() == 2


def test_a_team_absent_at_its_paired_table_scores_nothing_in_a_swiss(
    make_tournament, players, clock, settings
):
    settings.ABSENCE_CONNECT_GRACE_SECONDS = 0
    tournament, _cast, _entries = started(make_tournament, players, clock)
    play_all(tournament)
    tournaments_tick(now=clock())
    clock.advance(tournament.pause_minutes * 60)
    tournaments_tick(now=clock())
    game = games_in_play(tournament)[0]
    # Team B never comes to the table it was told: games' sweep marks them absent.
    for position in (1, 3):
        seat = game.table.seats.get(position=position)
        seat.absent_since = clock()
        seat.save()
    clock.advance(30)
    Match.objects.filter(pk=game.match_id).update(started_at=clock() - timedelta(seconds=20))
    assert tournaments_tick(now=clock()) == {tournament.pk: ["no_shows"]}
    game_finish(game.table_id, score_a=10, score_b=21)  # the bots won for the absent team
    pairing = Pairing.objects.get(pk=game.pairing_id)
    assert pairing.no_show_b and (pairing.vp_a, pairing.vp_b) == (12, 0)


def test_a_cancelled_tournament_never_seats_its_paired_round(make_tournament, players, clock):
    tournament, _cast, _entries = started(make_tournament, players, clock)
    play_all(tournament)
    tournaments_tick(now=clock())
    tournament_cancel(tournament_id=tournament.pk)
    clock.advance(tournament.pause_minutes * 60)
    assert tournaments_tick(now=clock()) == {}
    assert round_of(tournament, 2).state == RoundState.PAIRED
    assert not Game.objects.filter(pairing__round__number=2).exists()


def test_a_player_who_withdrew_before_the_start_is_neither_paired_nor_told(
    make_tournament, players, clock
):
    tournament = make_tournament(min_entries=2)
    cast = players(10)
    register_pairs(tournament, cast)
    tournament_withdraw(tournament_id=tournament.pk, user=cast[8])
    clock.now = tournament.starts_at
    tournaments_tick(now=clock())
    play_all(tournament)
    tournaments_tick(now=clock())
    gone = {cast[8].pk, cast[9].pk}
    told = set(
        Notification.objects.filter(kind="tournament_round").values_list("user_id", flat=True)
    )
    assert told == {u.pk for u in cast} - gone
    page = tournament_page(tournament=tournament, user_id=cast[8].pk)
    assert page.notice is None and page.mine is None


def test_a_knockout_pairs_the_winners_at_the_round_end_and_the_bracket_shows_them(
    make_tournament, players, clock
):
    tournament, _cast, _entries = started(
        make_tournament, players, clock, teams=4, format="knockout", prize_shares=[1000]
    )
    play_all(tournament)  # team A wins every tie
    done = tournaments_tick(now=clock())
    assert done[tournament.pk] == ["round_1_finished", "round_2_paired"]
    (final,) = Pairing.objects.filter(round__tournament=tournament, round__number=2)
    winners = set(
        Pairing.objects.filter(round__tournament=tournament, round__number=1).values_list(
            "winner_id", flat=True
        )
    )
    assert {final.entry_a_id, final.entry_b_id} == winners
    page = tournament_page(tournament=tournament, user_id=None)
    assert page.bracket[-1].ties[0].team_a is not None


def test_a_duplicate_pairs_its_next_board_ahead_and_deals_it_at_the_start(
    make_tournament, players, clock
):
    tournament, _cast, _entries = started(
        make_tournament, players, clock, teams=4, format="duplicate", rounds=2
    )
    play_all(tournament)
    assert tournaments_tick(now=clock())[tournament.pk][-1] == "round_2_paired"
    clock.advance(tournament.pause_minutes * 60)
    tournaments_tick(now=clock())
    seeds = {g.match.seed for g in games_in_play(tournament)}
    assert len(seeds) == 1  # one board at every table


def test_an_arena_pairs_nothing_ahead(make_tournament, players, clock):
    tournament, _cast, _entries = started(make_tournament, players, clock, teams=4, format="arena")
    game_finish(games_in_play(tournament)[0].table_id, score_a=21, score_b=3)
    clock.advance(60)
    steps = tournaments_tick(now=clock()).get(tournament.pk, [])
    assert not [s for s in steps if s.endswith("_paired")]
    assert not Round.objects.filter(tournament=tournament, state=RoundState.PAIRED).exists()


def test_the_last_result_of_a_round_advances_the_tournament_after_commit(
    make_tournament, players, clock, monkeypatch, django_capture_on_commit_callbacks
):
    from tournaments import tasks

    queued: list[int] = []
    monkeypatch.setattr(tasks.advance, "delay", queued.append)
    tournament, _cast, _entries = started(make_tournament, players, clock)
    first, second = games_in_play(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        game_finish(first.table_id, score_a=21, score_b=10)
    assert queued == []  # another tie is still in play
    with django_capture_on_commit_callbacks(execute=True):
        game_finish(second.table_id, score_a=21, score_b=10)
    assert queued == [tournament.pk]
    assert tasks.advance.run(tournament.pk)[:2] == ["round_1_finished", "round_2_paired"]
