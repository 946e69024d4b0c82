"""The `tournament` mode's policy: rated as online, bots stand in, no leaving before the
match or playing again at the table, its facts in the frames, staff stops recorded."""

from __future__ import annotations

import pytest

from games import errors as game_errors
from games import services as games
from games.models import Mode
from games.modes import mode_policy, modes_in_history, modes_with_stand_in
from tests.tournaments.conftest import befriend, games_in_play
from tournaments.models import Pairing, PairingState
from tournaments.services import tournament_register, tournaments_tick

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(players, make_tournament, clock, staff_user):
    def start(format_: str = "swiss", best_of: int = 1):
        cast = players(4)
        tournament = make_tournament(format=format_, best_of=best_of, entry_fee=0)
        for a, b in zip(cast[::2], cast[1::2], strict=True):
            befriend(a, b)
            tournament_register(tournament_id=tournament.pk, user=a, partner=b)
        clock.now = tournament.starts_at
        tournaments_tick(now=clock())
        (game,) = games_in_play(tournament)
        return tournament, game, cast

    return start


def test_the_tournament_mode_is_rated_watched_and_bots_stand_in():
    policy = mode_policy(Mode.TOURNAMENT)
    assert policy.rated and policy.bots_stand_in and policy.in_history
    assert Mode.TOURNAMENT in modes_with_stand_in()
    assert Mode.TOURNAMENT in modes_in_history()


def test_a_tournament_table_tells_its_frames_the_round_and_table(started):
    tournament, game, _cast = started()
    info = mode_policy(Mode.TOURNAMENT).table_info(table=game.table, seats=[], match=None)
    assert info == {"tournament": {"id": tournament.pk, "round": 1, "table": 1, "game": 1}}
    assert mode_policy(Mode.TOURNAMENT).open_to_watch(table=game.table)


def test_playing_again_at_a_tournament_table_is_refused(started):
    _tournament, game, cast = started()
    with pytest.raises(game_errors.NotAllowed):
        mode_policy(Mode.TOURNAMENT).table_rematch(user=cast[0], table=game.table, seats=[])


def test_leaving_a_tournament_match_in_play_abandons_it_and_a_bot_plays_on(started):
    _tournament, game, cast = started()
    games.seat_leave(user=cast[0], table_id=game.table_id)
    seat = game.table.seats.get(position=0)
    assert seat.abandoned


def test_a_match_stopped_by_staff_scores_nothing_in_a_swiss(started, staff_user):
    _tournament, game, _cast = started()
    games.match_abort(match_id=game.match_id, staff_user=staff_user, reason="a bug")
    pairing = Pairing.objects.get(pk=game.pairing_id)
    assert pairing.state == PairingState.FINISHED
    assert (pairing.vp_a, pairing.vp_b) == (0, 0) and pairing.winner_id is None


def test_a_knockout_game_stopped_by_staff_is_played_again(started, staff_user, clock):
    tournament, game, _cast = started(format_="knockout")
    games.match_abort(match_id=game.match_id, staff_user=staff_user, reason="a bug")
    assert tournaments_tick(now=clock()) == {tournament.pk: ["next_games"]}
    (again,) = games_in_play(tournament)
    assert again.number == 2 and again.pairing_id == game.pairing_id
