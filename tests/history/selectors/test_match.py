"""One finished match and the rewards of matches (history/selectors/match.py)."""

import pytest

from history import selectors
from tests.history.conftest import store_finished

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_rewards_are_looked_up_by_match_and_summed_per_player_and_currency(cast):
    from economy.services import Placement, match_reward

    ana, bea, _carlos, _dani = cast
    first, second = store_finished([ana, bea, None, None], 2)
    match_reward(
        match_id=first.pk,
        label="online",
        placements=[Placement(user=ana, place=1), Placement(user=bea, place=3)],
    )
    # A second posting for the same match (as a stake table's pot is): added up.
    match_reward(
        match_id=first.pk,
        label="online",
        placements=[Placement(user=ana, place=2)],
        idempotency_key=f"test:{first.pk}:again",
    )
    match_reward(match_id=second.pk, label="online", placements=[Placement(user=bea, place=1)])
    every = selectors.rewards_by_match_and_user([first.pk, second.pk])
    # Counted by hand from the settings' table: 60/40 first, 40/30 second, 20/20 third.
    assert every == {
        (first.pk, ana.pk): {"coins": 60 + 40, "xp": 40 + 30},
        (first.pk, bea.pk): {"coins": 20, "xp": 20},
        (second.pk, bea.pk): {"coins": 60, "xp": 40},
    }
    assert selectors.rewards_by_match_and_user([first.pk, second.pk], users=[bea]) == {
        (first.pk, bea.pk): {"coins": 20, "xp": 20},
        (second.pk, bea.pk): {"coins": 60, "xp": 40},
    }


def test_a_finished_match_is_rebuilt_with_its_seats_named_and_anything_else_is_none(player):
    from games import services
    from games.frames.builder import bot_names
    from games.models import Match, MatchStatus
    from tests.history.conftest import store_played

    stored = store_played([player, None, None, None])
    found = selectors.finished_match(stored.pk)
    assert found.match == stored and found.engine.is_over
    assert [seat.position for seat in found.seats] == [0, 1, 2, 3]
    assert found.names == [player.username, *bot_names(seed=stored.seed, taken={"ana"})[1:]]
    assert selectors.finished_match(999_999) is None
    live = services.table_create_practice(user=player, rules="online", bot_level="easy")
    playing = Match.objects.get(table=live, status=MatchStatus.PLAYING)
    assert selectors.finished_match(playing.pk) is None  # its cards never leave games
