"""Finished matches and their seats' names (games/selectors/finished.py)."""

from __future__ import annotations

import pytest

from games import selectors, services
from games.frames.live import seat_names
from games.models import Match, MatchStatus, Table
from tests.games.conftest import play_out

pytestmark = pytest.mark.django_db


def test_match_names_are_the_names_the_table_showed(player, partner, opponent, started_room):
    table = Table.objects.get(pk=started_room.pk)
    match = play_out(table, [player, opponent, partner, None])
    at_table = seat_names(table=table, seats=list(table.seats.select_related("user")), match=match)
    assert selectors.match_names([match.pk]) == {match.pk: at_table}
    assert at_table[:3] == ["ana", "olga", "pablo"] and at_table[3]
    assert selectors.match_names([]) == {}


def test_a_finished_match_comes_with_its_record_and_names_and_a_live_one_not_at_all(player):
    table = services.table_create_practice(user=player, rules="classic", bot_level="easy")
    live = Match.objects.get(table=table)
    assert selectors.finished_match(live.pk) is None
    match = play_out(table, {0: player})
    found = selectors.finished_match(match.pk)
    assert found.match == match and found.match.status == MatchStatus.FINISHED
    assert found.record["seed"] == match.seed and found.record["hands"]
    assert found.names == selectors.match_names([match.pk])[match.pk]
    assert found.names[0] == "ana"
    assert selectors.finished_match(10**9) is None
