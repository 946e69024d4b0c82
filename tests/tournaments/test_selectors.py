"""The tournament pages' reads (tournaments.selectors): the lists, a tournament's page
(standings, tables, bracket, the reader's notice), bounded work for a large field."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.conftest import befriend, game_finish, games_in_play, play_all
from tournaments import selectors
from tournaments.models import TournamentState
from tournaments.services import tournament_register, tournaments_tick

pytestmark = pytest.mark.django_db


def register_pairs(tournament, cast):
    for a, b in zip(cast[::2], cast[1::2], strict=True):
        befriend(a, b)
        tournament_register(tournament_id=tournament.pk, user=a, partner=b)


def running(make_tournament, players, clock, *, teams, prefix="p", **fields):
    tournament = make_tournament(**fields)
    cast = players(2 * teams, prefix=prefix)
    register_pairs(tournament, cast)
    clock.now = tournament.starts_at
    tournaments_tick(now=clock())
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.RUNNING
    return tournament, cast


def page_of(tournament, user, **options):
    tournament.refresh_from_db()
    return selectors.tournament_page(
        tournament=tournament, user_id=user.pk if user else None, **options
    )


def test_the_lists_count_pairs_and_singles_and_know_the_readers_entry(
    make_tournament, players, clock
):
    tournament = make_tournament()
    ana, bea, cai = players(3)
    register_pairs(tournament, [ana, bea])
    tournament_register(tournament_id=tournament.pk, user=cai)
    lists = selectors.tournament_lists(user_id=bea.pk, now=clock())
    (card,) = lists.upcoming
    assert (card.teams, card.singles) == (1, 1)
    assert card.mine.names == (ana.username, bea.username)
    assert card.pool == 3 * tournament.entry_fee
    assert selectors.tournament_lists(user_id=None, now=clock()).upcoming[0].mine is None


def test_partner_choices_are_the_active_friends_by_name(players):
    ana, zoe, bea, gone = players(4)
    befriend(ana, zoe)
    befriend(ana, bea)
    befriend(ana, gone)
    gone.is_active = False
    gone.save()
    names = sorted([bea.username, zoe.username])
    assert selectors.partner_choices(ana.pk) == [(name, name) for name in names]


def test_the_page_reads_a_fixed_number_of_queries_whatever_the_field(
    make_tournament, players, clock
):
    small, large = make_tournament(name="Small"), make_tournament(name="Large")
    small_cast, large_cast = players(6, prefix="s"), players(18, prefix="l")
    register_pairs(small, small_cast)
    register_pairs(large, large_cast)
    clock.now = small.starts_at
    tournaments_tick(now=clock())
    play_all(small)
    play_all(large)

    def count(tournament, user):
        with CaptureQueriesContext(connection) as queries:
            page_of(tournament, user)
        return len(queries)

    assert count(small, small_cast[0]) == count(large, large_cast[0])


def test_a_large_field_draws_the_top_and_the_rows_around_the_reader(
    make_tournament, players, clock, monkeypatch
):
    monkeypatch.setattr(selectors, "STANDINGS_TOP", 2)
    monkeypatch.setattr(selectors, "STANDINGS_AROUND", 1)
    monkeypatch.setattr(selectors, "TABLES_SHOWN", 1)
    tournament, cast = running(make_tournament, players, clock, teams=8)
    play_all(tournament, winner_a=True)
    clock.advance(5)
    tournaments_tick(now=clock())
    reader = cast[-1]
    page = page_of(tournament, reader)
    assert len(page.standings) == 8
    at = next(i for i, s in enumerate(page.standings) if s.team.mine)
    wanted = {0, 1, at - 1, at, min(at + 1, 7)}
    assert [s.team.entry_id for s in page.standings_shown] == [
        s.team.entry_id for i, s in enumerate(page.standings) if i in wanted
    ]
    assert page.standings_cut
    everything = page_of(tournament, reader, everything=True)
    assert everything.standings_shown == everything.standings
    shown = page.shown
    assert shown.table_count == 4 and shown.cut
    assert shown.tables[0].number == 1
    assert any(t.mine for t in shown.tables)
    assert not page_of(tournament, reader, round_number=shown.number).shown.cut


def test_equal_teams_share_a_place_in_the_swiss_standings(make_tournament, players, clock):
    tournament, cast = running(make_tournament, players, clock, teams=4)
    play_all(tournament, winner_a=True, margin=6)
    page = page_of(tournament, cast[0])
    assert [(s.rank, s.vp) for s in page.standings] == [(1, 13), (1, 13), (3, 7), (3, 7)]
    assert all(s.buchholz == 7 for s in page.standings[:2])


def test_the_notice_follows_the_readers_round(make_tournament, players, clock):
    tournament, cast = running(make_tournament, players, clock, teams=4)
    page = page_of(tournament, cast[0])
    assert page.notice.kind == "play" and page.notice.table_id is not None
    mine = next(g for g in games_in_play(tournament) if page.notice.table_id == g.table_id)
    game_finish(mine.table_id, score_a=21, score_b=3)
    assert page_of(tournament, cast[0]).notice.kind == "wait"
    play_all(tournament)
    clock.advance(5)
    tournaments_tick(now=clock())
    notice = page_of(tournament, cast[0]).notice
    assert notice.kind == "next" and notice.round == 2 and notice.at is not None
    assert page_of(tournament, None).notice is None


def test_an_odd_swiss_gives_the_bye_notice(make_tournament, players, clock):
    tournament, cast = running(make_tournament, players, clock, teams=3)
    kinds = {page_of(tournament, player).notice.kind for player in cast}
    assert kinds == {"play", "bye"}


def test_a_knockout_loser_is_told_they_are_out_and_the_bracket_fills(
    make_tournament, players, clock
):
    tournament, cast = running(make_tournament, players, clock, teams=4, format="knockout")
    play_all(tournament, winner_a=True)
    clock.advance(5)
    tournaments_tick(now=clock())
    page = page_of(tournament, cast[0])
    assert [len(r.ties) for r in page.bracket] == [2, 1]
    losers = [t.team_b for t in page.bracket[0].ties]
    loser = next(p for p in cast if p.pk in losers[0].player_ids)
    assert page_of(tournament, loser).notice.kind == "out"
    assert {s.out_in for s in page.standings} == {None, 1}


def test_a_finished_tournament_ranks_by_the_final_places(make_tournament, players, clock):
    tournament, cast = running(make_tournament, players, clock, teams=2, rounds=1)
    for _ in range(4):
        play_all(tournament)
        clock.advance(600)
        tournaments_tick(now=clock())
    page = page_of(tournament, cast[0])
    assert tournament.state == TournamentState.FINISHED
    assert [s.rank for s in page.standings] == [1, 2]
    assert page.notice.kind == "done"
    assert sum(s.prize_coins for s in page.standings) == 4 * tournament.entry_fee


def test_no_tournament_table_has_no_panel(db):
    assert selectors.table_tournament(table_id=999_999, user_id=None) is None


def test_an_arena_ranks_by_streak_points(make_tournament, players, clock):
    tournament, cast = running(
        make_tournament, players, clock, teams=4, format="arena", round_minutes=30
    )
    for _wave in range(3):
        play_all(tournament, winner_a=True)
        clock.advance(5)
        tournaments_tick(now=clock())
    page = page_of(tournament, cast[0])
    assert sorted(s.played for s in page.standings) == [3, 3, 3, 3]
    assert all(s.points == sum(s.sheet) for s in page.standings)
    points = [s.points for s in page.standings]
    assert points == sorted(points, reverse=True) and points[0] > 0


def test_a_duplicate_ranks_by_the_average_share_of_the_top(make_tournament, players, clock):
    tournament, cast = running(
        make_tournament, players, clock, teams=6, format="duplicate", rounds=3
    )
    play_all(tournament, winner_a=True)
    clock.advance(5)
    tournaments_tick(now=clock())
    page = page_of(tournament, cast[0])
    assert len(page.standings) == 6
    assert all(s.played == 1 and 0 <= s.percent <= 100 for s in page.standings)
    # Within a direction the shares of one board average 50 %.
    assert sum(s.percent for s in page.standings) == pytest.approx(300, abs=0.5)


def test_a_poll_with_nothing_changed_reuses_the_core_and_a_result_refreshes_it(
    make_tournament, players, clock, monkeypatch
):
    """Every entrant polls the page: the standings are ranked once per change of the
    tournament (one fingerprint query a poll), and never shown stale after a result."""
    tournament, cast = running(make_tournament, players, clock, teams=4)
    reads = []
    real = selectors._core_read
    monkeypatch.setattr(selectors, "_core_read", lambda t: reads.append(t.pk) or real(t))
    before = page_of(tournament, cast[0])
    page_of(tournament, cast[2])
    page_of(tournament, None)
    assert len(reads) == 1
    assert all(s.vp == 0 for s in before.standings)
    first = games_in_play(tournament)[0]
    game_finish(first.table_id, score_a=21, score_b=3)
    after = page_of(tournament, cast[0])
    assert len(reads) == 2
    assert max(s.vp for s in after.standings) > 0
    # Each reader still finds their own team marked, from the one shared core.
    for reader in (cast[0], cast[2]):
        page = page_of(tournament, reader)
        (mine,) = [s for s in page.standings if s.team.mine]
        assert reader.pk in mine.team.player_ids and page.mine == mine.team
    assert not any(s.team.mine for s in page_of(tournament, None).standings)
    assert len(reads) == 2
